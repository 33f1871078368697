// The aws layer against the AWS emulator (shared/testbeds/moto_bench_server.py: moto with the
// patches a one-stack fleet needs): caller identity, a rendered fleet stack created,
// described, explained by its events and deleted, and the pre-flight's reads of instance types,
// zone offerings (moto's copies of AWS's per-region lists) and quotas. Skipped, saying why, without
// python3's moto. The instances' public IPs are invented internet addresses: never connect to them.
#include "aws_emulator.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>

#include "aws/cloudformation.h"
#include "aws/ec2.h"
#include "aws/fleet_capacity.h"
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
    EXPECT_EQ(stack->outputs[keys.instance_id].rfind("i-", 0), 0u) << role.Name();
    EXPECT_FALSE(stack->outputs[keys.public_ip].empty()) << role.Name();
    EXPECT_EQ(stack->outputs[keys.private_ip].rfind("10.0.1.", 0), 0u) << role.Name();
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

// A client of the emulator in `region` (moto answers each region from its own data).
Client EmulatorClient(const std::string& url, const std::string& region) {
  return Client(Credentials{"testing", "testing", "", "test"}, region,
                [url](const std::string& name) -> std::optional<std::string> {
                  if (name == "AWS_ENDPOINT_URL") return url;
                  return std::nullopt;
                });
}

TEST_F(AwsEmulatorTest, InstanceTypesGiveArchitecturesAndVcpus) {
  auto vcpus = CheckInstanceTypes(*client_, Plan());
  ASSERT_TRUE(vcpus) << vcpus.error().message;
  EXPECT_EQ(*vcpus, (FleetVcpus{{"c7g.4xlarge", 16}, {"c6i.2xlarge", 8}}));
}

TEST_F(AwsEmulatorTest, AnUnknownTypeIsRefusedWithTheNearestNames) {
  FleetPlan plan = Plan();
  plan.client = {"c6i.2xlargee", Arch::kX86_64};
  auto refused = CheckInstanceTypes(*client_, plan);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(refused.error().message,
            "no such instance type in us-east-1: --client-instance c6i.2xlargee (nearest: "
            "c6i.2xlarge, c6i.24xlarge, c6i.12xlarge)");
}

TEST_F(AwsEmulatorTest, AnArchitectureTheTypeDoesNotRunIsRefused) {
  FleetPlan plan = Plan();
  plan.server = {"c7g.large", Arch::kX86_64};
  auto refused = CheckInstanceTypes(*client_, plan);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(refused.error().message,
            "--server-instance c7g.large is arm64 only; --server-arch x86_64 cannot run on it: "
            "pass --server-arch arm64 or a type that runs x86_64");
}

// hpc7g.16xlarge is offered in one zone of each of these regions only (moto's copy of AWS's
// offerings): the zone chosen is that one, not the first.
TEST_F(AwsEmulatorTest, TheZoneChosenOffersEveryType) {
  FleetPlan plan = Plan();
  plan.server = {"hpc7g.16xlarge", Arch::kArm64};
  auto zone = ChooseAvailabilityZone(*client_, plan);
  ASSERT_TRUE(zone) << zone.error().message;
  EXPECT_EQ(*zone, "us-east-1c");
  plan.region = "eu-west-1";
  zone = ChooseAvailabilityZone(EmulatorClient(emulator_.url(), "eu-west-1"), plan);
  ASSERT_TRUE(zone) << zone.error().message;
  EXPECT_EQ(*zone, "eu-west-1b");
  // Common types: the first zone in name order.
  zone = ChooseAvailabilityZone(*client_, Plan());
  ASSERT_TRUE(zone) << zone.error().message;
  EXPECT_EQ(*zone, "us-east-1a");
}

TEST_F(AwsEmulatorTest, NoZoneOfferingEveryTypeIsRefusedNamingWhatEachLacks) {
  FleetPlan plan = Plan();
  plan.region = "eu-west-1";
  plan.server = {"hpc7g.16xlarge", Arch::kArm64};
  plan.client = {"c8i.large", Arch::kX86_64};
  auto zone = ChooseAvailabilityZone(EmulatorClient(emulator_.url(), "eu-west-1"), plan);
  ASSERT_FALSE(zone);
  EXPECT_EQ(zone.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(zone.error().message,
            "no availability zone of eu-west-1 offers every instance type of the fleet "
            "(eu-west-1a lacks hpc7g.16xlarge; eu-west-1b lacks c8i.large; eu-west-1c lacks "
            "hpc7g.16xlarge): pick types one zone offers together, or another --region");
}

// The emulator's Service Quotas knows no EC2 quota (NoSuchResourceException), as an account
// without the permission cannot read it either: a note, never a refusal.
TEST_F(AwsEmulatorTest, AQuotaTheEndpointDoesNotKnowIsNotARefusal) {
  EXPECT_TRUE(CheckVcpuQuotas(*client_, Plan(), {{"c7g.4xlarge", 16}, {"c6i.2xlarge", 8}}));
}

}  // namespace
}  // namespace dfbench::aws
