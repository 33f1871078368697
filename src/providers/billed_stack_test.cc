#include "providers/billed_stack.h"

#include <gtest/gtest.h>

#include "core/time_format.h"

namespace dfbench::providers {
namespace {

// An aws setup as setup records it once CreateStack answered; `instances` reported by the stack.
state::SetupState AwsSetup(state::SetupStatus status, bool stack_id, bool instances) {
  state::SetupState s{.id = "perf", .status = status, .provider = state::ProviderKind::kAws};
  s.region = "us-east-1";
  s.created_at = "2026-04-08T14:30:00Z";
  s.settings.server_instance = "c6i.2xlarge";
  s.settings.client_instance = "c5.2xlarge";
  s.settings.replica_instance = "c7g.large";
  s.settings.replicas.count = 2;
  state::AwsRecord& aws = s.provider_data.aws.emplace();
  aws.stack_name = "dfbench-perf";
  if (stack_id) aws.stack_id = "arn:aws:cloudformation:stack/dfbench-perf/1";
  if (instances) {
    aws.instances = {{.role = core::Role::Server(), .type = "c6i.2xlarge"},
                     {.role = core::Role::Client(), .type = "c5.2xlarge"}};
  }
  return s;
}

TEST(BilledStackTest, AFailedSetupWithItsStackHoldsIt) {
  auto stack = BilledStackOf(AwsSetup(state::SetupStatus::kFailed, true, true));
  ASSERT_TRUE(stack);
  EXPECT_EQ(stack->setup_id, "perf");
  EXPECT_EQ(stack->stack_name, "dfbench-perf");
  EXPECT_EQ(stack->region, "us-east-1");
  EXPECT_EQ(stack->instance_types, (std::vector<std::string>{"c6i.2xlarge", "c5.2xlarge"}));
  EXPECT_TRUE(BilledStackOf(AwsSetup(state::SetupStatus::kReady, true, true)));
}

TEST(BilledStackTest, PlannedInstancesWhenTheStackReportedNone) {
  // Stopped while the stack was coming up: the flags' plan, replicas included.
  auto stack = BilledStackOf(AwsSetup(state::SetupStatus::kFailed, true, false));
  ASSERT_TRUE(stack);
  EXPECT_EQ(stack->instance_types,
            (std::vector<std::string>{"c6i.2xlarge", "c5.2xlarge", "c7g.large", "c7g.large"}));
}

TEST(BilledStackTest, NothingHeldWithoutAStackOrOnceDestroyed) {
  EXPECT_FALSE(BilledStackOf(AwsSetup(state::SetupStatus::kFailed, false, false)));
  EXPECT_FALSE(BilledStackOf(AwsSetup(state::SetupStatus::kDestroyed, true, true)));
  state::SetupState ssh = AwsSetup(state::SetupStatus::kFailed, true, true);
  ssh.provider = state::ProviderKind::kSsh;
  EXPECT_FALSE(BilledStackOf(ssh));
}

TEST(BilledStackTest, StillRunningLineNamesStackCostAndDestroy) {
  auto stack = BilledStackOf(AwsSetup(state::SetupStatus::kFailed, true, true));
  ASSERT_TRUE(stack);
  EXPECT_EQ(StillRunningLine(*stack),
            "setup perf failed and its stack is still running: dfbench-perf (c6i.2xlarge, "
            "c5.2xlarge) in us-east-1, ~$0.680/hr on demand in us-east-1; delete it with: "
            "dfbench destroy --id perf");
}

TEST(BilledStackTest, UpTimeCountsFromCreation) {
  const state::SetupState s = AwsSetup(state::SetupStatus::kFailed, true, true);
  const auto created = core::ParseIso8601(s.created_at);
  EXPECT_EQ(UpTime(s, created + std::chrono::minutes(90)), std::chrono::seconds(5400));
  EXPECT_EQ(UpTime(s, created - std::chrono::minutes(1)), std::chrono::seconds(0));
  state::SetupState unknown = s;
  unknown.created_at = "yesterday";
  EXPECT_EQ(UpTime(unknown, created), std::chrono::seconds(0));
}

}  // namespace
}  // namespace dfbench::providers
