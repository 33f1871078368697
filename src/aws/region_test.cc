#include "aws/region.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace dfbench::aws {
namespace {

namespace fs = std::filesystem;

using RegionVars = std::map<std::string, std::string>;

EnvLookup RegionLookup(const RegionVars& vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

// Each source of the chain, with every later one present too, so each row shows what wins.
TEST(ResolveRegion, FollowsTheAwsCliOrderAndNamesTheSource) {
  const fs::path home = fs::path(::testing::TempDir()) / "aws-region";
  fs::remove_all(home);
  fs::create_directories(home / ".aws");
  std::ofstream(home / ".aws/config") << "[default]\nregion = ca-central-1\n"
                                         "[profile dev]\nregion = ap-south-1\n";
  struct Row {
    std::string flag;
    RegionVars vars;
    std::string name;
    std::string source;
  };
  const RegionVars all = {
      {"HOME", home.string()}, {"AWS_REGION", "eu-west-1"}, {"AWS_DEFAULT_REGION", "us-west-2"}};
  const std::vector<Row> rows = {
      {"eu-north-1", all, "eu-north-1", "--region"},
      {"", all, "eu-west-1", "AWS_REGION"},
      {"",
       {{"HOME", home.string()}, {"AWS_DEFAULT_REGION", "us-west-2"}},
       "us-west-2",
       "AWS_DEFAULT_REGION"},
      {"", {{"HOME", home.string()}}, "ca-central-1", "profile default"},
      {"", {{"HOME", home.string()}, {"AWS_PROFILE", "dev"}}, "ap-south-1", "profile dev"},
      {"", {{"HOME", home.string()}, {"AWS_PROFILE", "none"}}, "us-east-1", "default"},
      {"", {{"HOME", (home / "nowhere").string()}}, "us-east-1", "default"},
  };
  for (const auto& row : rows) {
    const Region r = ResolveRegion(row.flag, RegionLookup(row.vars));
    EXPECT_EQ(r.name, row.name) << row.source;
    EXPECT_EQ(r.source, row.source) << row.name;
  }
}

TEST(DnsSuffix, FollowsThePartition) {
  EXPECT_EQ(DnsSuffix("us-east-1"), "amazonaws.com");
  EXPECT_EQ(DnsSuffix("us-gov-west-1"), "amazonaws.com");
  EXPECT_EQ(DnsSuffix("cn-north-1"), "amazonaws.com.cn");
  EXPECT_EQ(DnsSuffix("cn-northwest-1"), "amazonaws.com.cn");
}

}  // namespace
}  // namespace dfbench::aws
