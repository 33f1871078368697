// cfn-lint on the rendered template for every architecture × Ubuntu release × replica count.
// cfn-lint knows CloudFormation's resource specification; it does not know that cluster
// placement groups refuse some families (instance_types checks that).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "aws/template.h"
#include "core/subprocess.h"

namespace dfbench::aws {
namespace {

TEST(TemplateLintTest, EveryCombinationPassesCfnLint) {
  auto lint = core::FindOnPath("cfn-lint");
  if (!lint) GTEST_SKIP() << "cfn-lint is not on PATH (pip install cfn-lint to run this test)";
  const auto dir = std::filesystem::path(::testing::TempDir()) / "dfbench-cfn-lint";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<std::string> argv = {*lint, "--regions", "us-east-1", "--"};
  for (Arch arch : {Arch::kX86_64, Arch::kArm64}) {
    const std::string type = arch == Arch::kArm64 ? "c7g.4xlarge" : "c6i.2xlarge";
    for (const char* ubuntu : {"20.04", "22.04", "24.04"}) {
      for (int replicas : {0, 1, 2}) {
        FleetPlan plan{.setup_id = "lint",
                       .region = "us-east-1",
                       .server = {type, arch},
                       .client = {type, arch},
                       .replica = {type, arch},
                       .replicas = replicas,
                       .ubuntu_version = ubuntu,
                       .public_key = "ssh-rsa AAAAB3NzaC1yc2E lint@dfbench",
                       .clients = replicas + 1};  // one, two and three clients too
        std::vector<std::string> warnings;
        ASSERT_TRUE(ValidatePlan(plan, &warnings));
        ASSERT_TRUE(warnings.empty());
        const auto path = dir / (std::string(ArchName(arch)) + "-" + ubuntu + "-r" +
                                 std::to_string(replicas) + ".yaml");
        std::ofstream(path) << RenderTemplate(plan);
        argv.push_back(path.string());
      }
    }
  }
  ASSERT_EQ(argv.size(), 4u + 18u);
  auto r = core::RunCapture(argv, std::chrono::minutes(5));
  ASSERT_TRUE(r) << r.error().message;
  // Exit 0: no error, no warning, no informational finding.
  EXPECT_TRUE(r->status.ok()) << r->status.Describe() << "\n" << r->out << r->err;
}

}  // namespace
}  // namespace dfbench::aws
