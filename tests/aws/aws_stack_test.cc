// A setup's stack through a network that misbehaves: the fault proxy (fault_proxy.py) sits
// between the aws provider and the AWS emulator and loses, fails, delays or throttles calls.
// Whatever it does, a setup ends with exactly one stack that it records, or with none existing
// and none recorded; and destroy leaves the emulator with no stack, instance, VPC or key pair.
// The emulator's instances get invented internet addresses here: nothing connects to them.
#include "providers/aws_stack.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>

#include "aws/cloudformation.h"
#include "aws/template.h"
#include "aws_emulator.h"
#include "fault_proxy.h"
#include "providers/provider.h"
#include "state/state.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::testing {
namespace {

using providers::StackRequest;

constexpr char kKey[] =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA fp";

aws::EnvLookup EndpointAt(const std::string& url) {
  return [url](const std::string& name) -> std::optional<std::string> {
    if (name == "AWS_ENDPOINT_URL") return url;
    return std::nullopt;
  };
}

// Occurrences of `what` in `text`.
size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class AwsStackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = emulator_.Start(); !why.empty()) GTEST_SKIP() << why;
    emulator_.ExportToEnvironment();  // for what the provider makes itself (destroy)
    ::setenv("DFBENCH_HOME", home_.path().c_str(), 1);
    direct_.emplace(aws::Credentials{"testing", "testing", "", "test"}, "us-east-1",
                    EndpointAt(emulator_.url()));
  }

  // A client of the emulator through a proxy with `rules`: quick retries, 1 s per exchange.
  aws::Client Through(const std::vector<std::string>& rules) {
    EXPECT_EQ(proxy_.Start(emulator_.url(), rules), "");
    return aws::Client(aws::Credentials{"testing", "testing", "", "test"}, "us-east-1",
                       EndpointAt(proxy_.url()),
                       {.max_attempts = 4,
                        .base_delay = std::chrono::milliseconds(20),
                        .max_delay = std::chrono::milliseconds(100),
                        .request_timeout = std::chrono::milliseconds(1000)});
  }

  static state::SetupState NewSetup(const std::string& id) {
    state::SetupState s{.id = id,
                        .status = state::SetupStatus::kProvisioning,
                        .provider = state::ProviderKind::kAws};
    s.region = "us-east-1";
    s.created_at = "2026-12-07T03:30:00Z";
    EXPECT_TRUE(state::Save(&s));
    return s;
  }

  static StackRequest Request(const std::string& id) {
    const aws::FleetPlan plan{.setup_id = id,
                              .region = "us-east-1",
                              .server = {"c6i.large", aws::Arch::kX86_64},
                              .client = {"c6i.large", aws::Arch::kX86_64},
                              .replica = {"c6i.large", aws::Arch::kX86_64},
                              .public_key = kKey};
    return {.name = "dfbench-" + id,
            .template_body = aws::RenderTemplate(plan),
            .parameters = {{"SshCidr", "198.51.100.7/32"}},
            .owner_arn = "arn:aws:iam::123456789012:user/ops",
            .key_tag = "0123456789abcdef",
            .timeout = std::chrono::seconds(120)};
  }

  std::vector<aws::Stack> Stacks() {
    auto stacks = aws::DescribeAllStacks(*direct_);
    EXPECT_TRUE(stacks) << stacks.error().message;
    return stacks.value_or(std::vector<aws::Stack>{});
  }

  // The emulator holds no stack, no live instance, no VPC but the default, no key pair.
  void ExpectNothingLeft() {
    EXPECT_TRUE(Stacks().empty());
    auto ec2 = [&](const char* action) {
      auto body = direct_->Call("ec2", action, "2016-11-15", {});
      EXPECT_TRUE(body) << action;
      return body.value_or("");
    };
    const std::string instances = ec2("DescribeInstances");
    EXPECT_EQ(Count(instances, "<name>running</name>") + Count(instances, "<name>pending</name>"),
              0u)
        << instances;
    EXPECT_EQ(Count(ec2("DescribeVpcs"), "<isDefault>false</isDefault>"), 0u);
    EXPECT_EQ(Count(ec2("DescribeKeyPairs"), "<keyName>"), 0u);
  }

  // Destroys the setup as `dfbench destroy` does, straight against the emulator.
  void Destroy(state::SetupState* s) {
    auto st = providers::MakeProvider(state::ProviderKind::kAws)->Destroy(s);
    ASSERT_TRUE(st) << st.error().message;
    ExpectNothingLeft();
  }

  ScopedTempDir home_{"aws-stack-home"};
  AwsEmulator emulator_;
  FaultProxy proxy_;
  std::optional<aws::Client> direct_;
};

// Each fault that reaches AWS ends with the one stack it made, recorded.
class CreateThroughFault : public AwsStackTest,
                           public ::testing::WithParamInterface<std::vector<std::string>> {};

TEST_P(CreateThroughFault, EndsWithExactlyOneRecordedStack) {
  state::SetupState s = NewSetup("faulty");
  const aws::Client client = Through(GetParam());
  auto stack = providers::CreateSetupStack(client, &s, Request("faulty"));
  ASSERT_TRUE(stack) << stack.error().message;
  EXPECT_EQ(stack->status, "CREATE_COMPLETE");
  const auto stacks = Stacks();
  ASSERT_EQ(stacks.size(), 1u);
  EXPECT_EQ(stacks[0].tags.at("dfbench:setup"), "faulty");
  EXPECT_EQ(stacks[0].tags.at("dfbench:owner"), "arn:aws:iam::123456789012:user/ops");
  EXPECT_EQ(stacks[0].tags.at("dfbench:key"), "0123456789abcdef");
  auto saved = state::Load("faulty");
  ASSERT_TRUE(saved) << saved.error().message;
  EXPECT_EQ(saved->provider_data.aws->stack_id, stacks[0].id);
  EXPECT_GE(proxy_.Reached("CreateStack"), 1u);
  Destroy(&s);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, CreateThroughFault,
    ::testing::Values(std::vector<std::string>{"CreateStack:drop:1"},
                      std::vector<std::string>{"CreateStack:500:1"},
                      // Every try answered 500: the retries' AlreadyExists never shows either.
                      std::vector<std::string>{"CreateStack:500:10"},
                      std::vector<std::string>{"CreateStack:delay:1:3"},
                      std::vector<std::string>{"*:throttle:3"},
                      std::vector<std::string>{"CreateStack:throttle:2", "DescribeStacks:drop:1"}),
    [](const auto& info) {
      std::string name;
      for (const auto& rule : info.param) {
        for (char c : rule) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      }
      return name;
    });

// A CreateStack that never reaches AWS leaves nothing, and nothing recorded as held.
TEST_F(AwsStackTest, ACreateThatNeverArrivesLeavesNothing) {
  state::SetupState s = NewSetup("lost");
  const aws::Client client = Through({"CreateStack:refuse:10"});
  auto stack = providers::CreateSetupStack(client, &s, Request("lost"));
  ASSERT_FALSE(stack);
  EXPECT_EQ(stack.error().kind, core::ErrorKind::kEnvironment) << stack.error().message;
  EXPECT_EQ(proxy_.Reached("CreateStack"), 0u);
  EXPECT_TRUE(Stacks().empty());
  auto saved = state::Load("lost");
  ASSERT_TRUE(saved);
  EXPECT_EQ(saved->provider_data.aws->stack_id, "");
  EXPECT_EQ(saved->provider_data.aws->create_token, "");  // AWS said it has none
  Destroy(&s);
}

// A setup killed while its CreateStack was out: the token is recorded, the id is not. Destroy
// asks AWS by name and tag, deletes the stack, and only then the key.
TEST_F(AwsStackTest, DestroyFindsAStackWhoseIdWasNeverRecorded) {
  state::SetupState s = NewSetup("killed");
  const StackRequest r = Request("killed");
  auto id = aws::CreateStack(*direct_, {.stack_name = r.name,
                                        .template_body = r.template_body,
                                        .parameters = r.parameters,
                                        .tags = {{"dfbench:setup", "killed"}},
                                        .client_request_token = providers::CreateToken(s)});
  ASSERT_TRUE(id) << id.error().message;
  s.provider_data.aws =
      state::AwsRecord{.stack_name = r.name, .create_token = providers::CreateToken(s)};
  ASSERT_TRUE(state::Save(&s));
  const auto key_dir = state::SetupDir("killed") / "ssh";
  std::filesystem::create_directories(key_dir);
  Destroy(&s);
  EXPECT_FALSE(std::filesystem::exists(key_dir));
}

// A stack of the setup's name made with another key is never taken over: nobody could log in.
TEST_F(AwsStackTest, AStackWithAnotherKeyIsNotAdopted) {
  state::SetupState s = NewSetup("rekeyed");
  StackRequest r = Request("rekeyed");
  ASSERT_TRUE(aws::CreateStack(
      *direct_, {.stack_name = r.name,
                 .template_body = r.template_body,
                 .parameters = r.parameters,
                 .tags = {{"dfbench:setup", "rekeyed"}, {"dfbench:key", "fedcba9876543210"}}}));
  const aws::Client client = Through({});
  auto stack = providers::CreateSetupStack(client, &s, r);
  ASSERT_FALSE(stack);
  EXPECT_EQ(stack.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(stack.error().message.find("created with another SSH key"), std::string::npos)
      << stack.error().message;
  EXPECT_EQ(proxy_.Seen("CreateStack"), 0u);
}

TEST(CreateToken, IsTheSameForOneSetupAndFitsAws) {
  state::SetupState s{.id = std::string(130, 'a')};
  s.created_at = "2026-12-07T03:30:00Z";
  const std::string token = providers::CreateToken(s);
  EXPECT_EQ(token.size(), 128u);
  EXPECT_EQ(token, providers::CreateToken(s));
  s.id = "perf";
  EXPECT_EQ(providers::CreateToken(s), "dfbench-perf-20261207033000");
}

}  // namespace
}  // namespace dfbench::testing
