// Stacks dfbench made that no setup here records, found and removed through the commands
// against the AWS emulator: `list --aws` names every stack tagged dfbench:setup and which setup
// knows it, `destroy --stack` removes an orphan and refuses what is not one. The emulator's
// instances get invented internet addresses here: nothing connects to them.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>

#include "aws/cloudformation.h"
#include "aws/template.h"
#include "aws_emulator.h"
#include "dfbench_runner.h"
#include "state/state.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

constexpr char kKey[] =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA o";

class AwsOrphansCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = emulator_.Start(); !why.empty()) GTEST_SKIP() << why;
    emulator_.ExportToEnvironment();
    ::unsetenv("AWS_REGION");
    ::setenv("AWS_DEFAULT_REGION", "us-east-1", 1);
    ::unsetenv("DFBENCH_PROVIDER");
  }

  // A fleet stack made behind dfbench's back in `region`, tagged as `setup`'s (no tag: "").
  static std::string MakeStack(const std::string& name, const std::string& setup,
                               const std::string& region = "us-east-1") {
    const aws::Client client(aws::Credentials{"testing", "testing", "", "test"}, region);
    const aws::FleetPlan plan{.setup_id = name.substr(8),
                              .region = region,
                              .server = {"c6i.large", aws::Arch::kX86_64},
                              .client = {"c5.large", aws::Arch::kX86_64},
                              .replica = {"c6i.large", aws::Arch::kX86_64},
                              .public_key = kKey};
    std::vector<std::pair<std::string, std::string>> tags;
    if (!setup.empty()) tags.emplace_back("dfbench:setup", setup);
    auto id = aws::CreateStack(client, {.stack_name = name,
                                        .template_body = aws::RenderTemplate(plan),
                                        .parameters = {{"SshCidr", "198.51.100.7/32"}},
                                        .tags = tags});
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or("");
  }

  AwsEmulator emulator_;
};

TEST_F(AwsOrphansCliTest, AnOrphanIsListedAndDestroyedAndTheRestAreLeftAlone) {
  DfbenchRunner dfb("aws-orphans");
  MakeStack("dfbench-ghost", "ghost");
  const std::string known_id = MakeStack("dfbench-mine", "mine");
  MakeStack("dfbench-far", "far", "eu-west-1");
  MakeStack("other-team", "");  // not dfbench's: never listed, never deleted
  // A setup here that records dfbench-mine.
  ::setenv("DFBENCH_HOME", dfb.home().c_str(), 1);
  state::SetupState s{
      .id = "mine", .status = state::SetupStatus::kReady, .provider = state::ProviderKind::kAws};
  s.region = "us-east-1";
  s.created_at = "2026-12-07T03:00:00Z";
  s.provider_data.aws = state::AwsRecord{.stack_name = "dfbench-mine", .stack_id = known_id};
  ASSERT_TRUE(state::Save(&s));

  CliResult r = dfb.Run({"list", "--aws"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "STACK ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "dfbench-ghost  us-east-1")) << r.out;
  EXPECT_TRUE(Contains(r.out, "none (orphan)")) << r.out;
  EXPECT_TRUE(Contains(r.out, "c6i.large,c5.large")) << r.out;
  EXPECT_FALSE(Contains(r.out, "other-team")) << r.out;
  EXPECT_FALSE(Contains(r.out, "dfbench-far")) << r.out;  // another region
  EXPECT_TRUE(Contains(r.err, "1 stack(s) no setup here knows")) << r.err;

  r = dfb.Run({"list", "--aws", "--all-regions", "--output", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json listed = json::parse(r.out);
  std::map<std::string, json> by_name;
  for (const json& stack : listed) by_name[stack["stack"]] = stack;
  ASSERT_EQ(by_name.size(), 3u) << r.out;
  EXPECT_EQ(by_name["dfbench-mine"]["known_by"], "mine");
  EXPECT_EQ(by_name["dfbench-ghost"]["known_by"], "");
  EXPECT_EQ(by_name["dfbench-far"]["region"], "eu-west-1");
  EXPECT_GT(by_name["dfbench-ghost"]["hourly_usd"].get<double>(), 0.0);

  // What is not an orphan is refused, before any deletion.
  r = dfb.Run({"destroy", "--stack", "dfbench-mine", "--yes"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err,
            "dfbench: the stack dfbench-mine belongs to the setup mine on this machine: run "
            "'dfbench destroy --id mine'\n");
  r = dfb.Run({"destroy", "--stack", "other-team", "--yes"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "has no dfbench:setup tag")) << r.err;
  r = dfb.Run({"destroy", "--stack", "dfbench-nowhere", "--yes"});
  EXPECT_NE(r.code, 0) << r.err;

  r = dfb.Run({"destroy", "--stack", "dfbench-ghost", "--region", "us-east-1", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "Stack dfbench-ghost deleted in us-east-1.\n");
  EXPECT_FALSE(aws::DescribeStack(AwsEmulator::Client(), "dfbench-ghost"));
  EXPECT_TRUE(aws::DescribeStack(AwsEmulator::Client(), "dfbench-mine"));
  EXPECT_TRUE(aws::DescribeStack(AwsEmulator::Client(), "other-team"));
  r = dfb.Run({"destroy", "--stack", "dfbench-far", "--region", "eu-west-1", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
}

TEST_F(AwsOrphansCliTest, FlagsThatNeedAnotherAreOneLine) {
  DfbenchRunner dfb("aws-orphan-flags");
  for (const auto& [args, line] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"list", "--region", "eu-west-1"},
            "dfbench: --region, --all-regions and --output need --aws\n"},
           {{"list", "--aws", "--region", "eu-west-1", "--all-regions"},
            "dfbench: --region and --all-regions: give one of them\n"},
           {{"destroy", "--region", "eu-west-1"},
            "dfbench: --id is required (or --stack NAME for a stack no setup records)\n"},
           {{"destroy", "--id", "x", "--region", "eu-west-1"},
            "dfbench: --region needs --stack\n"}}) {
    CliResult r = dfb.Run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err, line);
  }
}

}  // namespace
}  // namespace dfbench::testing
