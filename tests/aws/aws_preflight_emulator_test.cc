// The whole pre-flight list of an aws setup against the AWS emulator, as Provision runs it:
// every check passes for a fleet the region can hold, the zone comes back for the template, and
// nothing is created. Skipped, saying why, without python3's moto.
#include <gtest/gtest.h>

#include "aws/cloudformation.h"
#include "aws_emulator.h"
#include "engines/engine.h"
#include "providers/aws_preflight.h"
#include "providers/ssh_key.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::testing {
namespace {

TEST(AwsPreflightEmulatorTest, AFleetTheRegionCanHoldPassesAndGetsItsZone) {
  AwsEmulator emulator;
  if (const std::string why = emulator.Start(); !why.empty()) GTEST_SKIP() << why;
  const std::string url = emulator.url();
  const aws::Client client(aws::Credentials{"testing", "testing", "", "test"}, "us-east-1",
                           [url](const std::string& name) -> std::optional<std::string> {
                             if (name == "AWS_ENDPOINT_URL") return url;
                             return std::nullopt;
                           });
  ScopedTempDir dir("preflight-emulator");
  auto key = providers::EnsureKeyPair(dir.path() / "ssh", "dfbench-pre");
  ASSERT_TRUE(key) << key.error().message;
  providers::SetupRequest request;
  request.engines = {engines::FindEngine("redis")};
  // hpc7g.16xlarge is offered in us-east-1c only (moto's copy of AWS's offerings).
  aws::FleetPlan plan{.setup_id = "pre",
                      .region = "us-east-1",
                      .server = {"hpc7g.16xlarge", aws::Arch::kArm64},
                      .client = {"c6i.2xlarge", aws::Arch::kX86_64},
                      .replica = {"hpc7g.16xlarge", aws::Arch::kArm64},
                      .replicas = 1,
                      .ubuntu_version = "22.04",
                      .public_key = key->public_line};
  aws::CallerIdentity caller;
  std::string zone;
  auto st = providers::RunPreflight(
      "pre", providers::FleetPreflight(request, plan, *key, client, &caller, &zone));
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_EQ(caller.account.size(), 12u) << caller.account;
  EXPECT_EQ(zone, "us-east-1c");
  auto stack = aws::DescribeStack(client, "dfbench-pre");
  ASSERT_FALSE(stack) << "a stack was created: " << stack->status;
  EXPECT_EQ(stack.error().kind, core::ErrorKind::kNotFound);
}

}  // namespace
}  // namespace dfbench::testing
