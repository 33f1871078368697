// The aws layer against the AWS emulator (shared/testbeds/moto_bench_server.py: moto with the
// patches a one-stack fleet needs): caller identity, and a rendered fleet stack created,
// described, explained by its events and deleted. Skipped, saying why, without python3's moto.
// The instances' public IPs are invented internet addresses: never connect to them.
#include "aws_emulator.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>

#include "aws/cloudformation.h"
#include "aws/ec2.h"
#include "aws/sts.h"
#include "aws/template.h"

namespace dfbench::aws {
namespace {

class AwsEmulatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = emulator_.Start(); !why.empty()) GTEST_SKIP() << why;
    const std::string url = emulator_.url();
    client_.emplace(Credentials{"testing", "testing", "", "test"}, "us-east-1",
                    [url](const std::string& name) -> std::optional<std::string> {
                      if (name == "AWS_ENDPOINT_URL") return url;
                      return std::nullopt;
                    });
  }

  FleetPlan Plan() const {
    return {.setup_id = "emu",
            .region = "us-east-1",
            .server = {"c7g.4xlarge", Arch::kArm64},
            .client = {"c6i.2xlarge", Arch::kX86_64},
            .replica = {"c7g.4xlarge", Arch::kArm64},
            .replicas = 0,
            .ubuntu_version = "22.04",
            .public_key =
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                "AAAAAAAA emu"};
  }

  testing::AwsEmulator emulator_;  // killed and reaped when the test ends
  std::optional<Client> client_;
};

TEST_F(AwsEmulatorTest, CallerIdentity) {
  auto id = GetCallerIdentity(*client_);
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(id->account.size(), 12u) << id->account;
  EXPECT_NE(id->arn.find("arn:aws:"), std::string::npos) << id->arn;
}

TEST_F(AwsEmulatorTest, FleetStackLifecycle) {
  const FleetPlan plan = Plan();
  const std::string name = *StackName(plan.setup_id);
  auto stack_id = CreateStack(*client_, {.stack_name = name,
                                         .template_body = RenderTemplate(plan),
                                         .parameters = {{"SshCidr", "198.51.100.7/32"}},
                                         .tags = {{"dfbench:setup", plan.setup_id}}});
  ASSERT_TRUE(stack_id) << stack_id.error().message;

  // The emulator is synchronous: the stack is complete when CreateStack returns.
  auto stack = DescribeStack(*client_, name);
  ASSERT_TRUE(stack) << stack.error().message;
  EXPECT_EQ(stack->id, *stack_id);
  EXPECT_EQ(stack->status, "CREATE_COMPLETE") << stack->status_reason;
  EXPECT_EQ(stack->tags["dfbench:setup"], "emu");
  for (const auto& role : FleetRoles(plan)) {
    const RoleOutputs keys = OutputKeys(role);
    EXPECT_EQ(stack->outputs[keys.instance_id].rfind("i-", 0), 0u) << role;
    EXPECT_FALSE(stack->outputs[keys.public_ip].empty()) << role;
    EXPECT_EQ(stack->outputs[keys.private_ip].rfind("10.0.1.", 0), 0u) << role;
  }

  // EC2's live view agrees with the Outputs.
  auto instances = DescribeInstances(*client_, {stack->outputs["ServerInstanceId"]});
  ASSERT_TRUE(instances) << instances.error().message;
  ASSERT_EQ(instances->size(), 1u);
  EXPECT_EQ((*instances)[0].type, "c7g.4xlarge");
  EXPECT_EQ((*instances)[0].state, "running");
  EXPECT_EQ((*instances)[0].private_ip, stack->outputs["ServerPrivateIp"]);
  EXPECT_EQ((*instances)[0].public_ip, stack->outputs["ServerPublicIp"]);

  auto events = DescribeStackEvents(*client_, name);
  ASSERT_TRUE(events) << events.error().message;
  std::set<std::string> completed;
  for (const auto& e : *events) {
    if (e.status == "CREATE_COMPLETE") completed.insert(e.logical_id);
  }
  for (const char* resource : {"Vpc", "Subnet", "SecurityGroup", "KeyPair", "PlacementGroup",
                               "ServerInstance", "ClientInstance"}) {
    EXPECT_TRUE(completed.count(resource)) << resource;
  }
  // Newest first: the stack's own CREATE_COMPLETE comes before its resources'.
  ASSERT_FALSE(events->empty());
  EXPECT_EQ(events->front().logical_id, name);
  EXPECT_EQ(events->front().status, "CREATE_COMPLETE");

  ASSERT_TRUE(DeleteStack(*client_, name));
  auto gone = DescribeStack(*client_, name);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, core::ErrorKind::kNotFound) << gone.error().message;
  EXPECT_NE(gone.error().message.find("does not exist"), std::string::npos);
  auto unknown = DescribeInstances(*client_, {"i-0123456789abcdef0"});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, core::ErrorKind::kNotFound) << unknown.error().message;
  // Deleting again is not an error: destroy stays idempotent.
  EXPECT_TRUE(DeleteStack(*client_, name));
}

TEST_F(AwsEmulatorTest, CreatingAStackTwiceIsAFailureNamingTheCall) {
  const FleetPlan plan = Plan();
  CreateStackRequest request{.stack_name = *StackName(plan.setup_id),
                             .template_body = RenderTemplate(plan),
                             .parameters = {{"SshCidr", "198.51.100.7/32"}}};
  ASSERT_TRUE(CreateStack(*client_, request));
  auto again = CreateStack(*client_, request);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, core::ErrorKind::kFailure);
  EXPECT_NE(again.error().message.find("cloudformation:CreateStack: AlreadyExistsException"),
            std::string::npos)
      << again.error().message;
}

}  // namespace
}  // namespace dfbench::aws
