// The aws provider against the emulator as an AWS account checks requests: every request after
// the first few must carry a SigV4 signature moto recomputes over the body as sent, by a key of
// an IAM user, and the action must be allowed by that user's policy. The free requests make two
// users: one with the policy docs/providers/aws-iam-policy.json documents, one with that policy
// short of cloudformation:CreateStack. setup, run and destroy work under the first; a wrong
// secret and the second fail with one line and exit 5, and nothing is created. The instances
// are the multi-host test bed's hosts; skipped, saying why, without the bed or moto.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>

#include "aws/cloudformation.h"
#include "aws_emulator.h"
#include "core/files.h"
#include "dfbench_runner.h"
#include "ssh_testbed.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

struct AccessKey {
  std::string id;
  std::string secret;
};

// The text between <tag> and </tag> in `xml`; "" when absent.
std::string Between(const std::string& xml, const std::string& tag) {
  const size_t open = xml.find("<" + tag + ">");
  if (open == std::string::npos) return "";
  const size_t from = open + tag.size() + 2;
  return xml.substr(from, xml.find("</" + tag + ">", from) - from);
}

// The policy the docs give, without `action` when not empty.
std::string Policy(const std::string& without = "") {
  std::string policy =
      core::ReadFile(std::string(DFBENCH_DOCS_DIR) + "/providers/aws-iam-policy.json").value_or("");
  EXPECT_FALSE(policy.empty());
  if (!without.empty()) {
    const size_t at = policy.find("\"" + without + "\",");
    EXPECT_NE(at, std::string::npos) << without;
    if (at != std::string::npos) policy.erase(at, without.size() + 3);
  }
  return policy;
}

class AwsSignedTest : public ::testing::Test {
 protected:
  // Three free requests per user: CreateUser, PutUserPolicy, CreateAccessKey.
  static constexpr int kFreeRequests = 6;

  void SetUp() override {
    REQUIRE_TESTBED();
    if (const std::string why =
            emulator_.Start({{"MOTO_BENCH_TESTBED", Bed().base.string()},
                             {"INITIAL_NO_AUTH_ACTION_COUNT", std::to_string(kFreeRequests)}});
        !why.empty()) {
      GTEST_SKIP() << why;
    }
    emulator_.ExportToEnvironment();
    ::unsetenv("DFBENCH_PROVIDER");
    ::unsetenv("DFBENCH_NO_CONFIRM");
    ::unsetenv("AWS_REGION");
    full_ = User("bench", Policy());
    short_ = User("short", Policy("cloudformation:CreateStack"));
  }

  // An IAM user with `policy` and its access key, made with free requests.
  AccessKey User(const std::string& name, const std::string& policy) {
    const aws::Client iam = AwsEmulator::Client();
    EXPECT_TRUE(iam.Call("iam", "CreateUser", "2010-05-08", {{"UserName", name}}));
    EXPECT_TRUE(
        iam.Call("iam", "PutUserPolicy", "2010-05-08",
                 {{"UserName", name}, {"PolicyName", "dfbench"}, {"PolicyDocument", policy}}));
    auto key = iam.Call("iam", "CreateAccessKey", "2010-05-08", {{"UserName", name}});
    EXPECT_TRUE(key);
    return {Between(key.value_or(""), "AccessKeyId"), Between(key.value_or(""), "SecretAccessKey")};
  }

  // dfbench's environment signs with `key`.
  static void SignWith(const AccessKey& key) {
    ::setenv("AWS_ACCESS_KEY_ID", key.id.c_str(), 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", key.secret.c_str(), 1);
  }

  // The stacks of the region, asked with the full user's key.
  std::vector<aws::Stack> Stacks() const {
    const aws::Client client(aws::Credentials{full_.id, full_.secret, "", "test"}, "us-east-1");
    auto stacks = aws::DescribeAllStacks(client);
    EXPECT_TRUE(stacks) << stacks.error().message;
    return stacks.value_or(std::vector<aws::Stack>{});
  }

  static std::vector<std::string> Setup(const std::string& id) {
    return {"setup", "--id",  id,           "--provider", "aws",        "--engines",
            "redis", "--yes", "--ssh-user", "root",       "--ssh-cidr", "10.200.0.1/32"};
  }

  AwsEmulator emulator_;
  AccessKey full_;
  AccessKey short_;
};

TEST_F(AwsSignedTest, SignedRequestsUnderTheDocumentedPolicy) {
  ASSERT_FALSE(full_.id.empty());
  ASSERT_FALSE(full_.secret.empty());
  DfbenchRunner dfb("aws-signed");

  // A wrong secret: AWS refuses the signature; one line, exit 5, nothing created.
  SignWith({full_.id, full_.secret + "x"});
  CliResult r = dfb.Run(Setup("wrong"), std::chrono::minutes(3));
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "dfbench: AWS refused the credentials or the permission: "
                       "sts:GetCallerIdentity: SignatureDoesNotMatch"))
      << r.err;
  EXPECT_TRUE(Stacks().empty());

  // The policy short of one action: refused at that action, one line, exit 5, nothing created.
  SignWith(short_);
  r = dfb.Run(Setup("short"), std::chrono::minutes(3));
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_TRUE(Contains(r.err, "cloudformation:CreateStack: AccessDenied")) << r.err;
  EXPECT_TRUE(Stacks().empty());

  // The documented policy: setup, a run and destroy, every request signed and allowed.
  SignWith(full_);
  r = dfb.Run(Setup("signed"), std::chrono::minutes(10));
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(Stacks().size(), 1u);
  r = dfb.Run(
      Concat({"run", "--id", "signed", "--engines", "redis", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  r = dfb.Run({"destroy", "--id", "signed", "--yes"}, std::chrono::minutes(5));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Stacks().empty());
  r = dfb.Run({"list", "--aws"});
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
}  // namespace dfbench::testing
