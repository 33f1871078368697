// AWS faults through the dfbench commands where the emulator cannot show them (moto never
// throttles and never checks credentials): a scripted HTTP server stands in for AWS and answers
// each request with the next scripted reply. Also what must fail before any AWS call.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "aws/scripted_http_server_test.h"
#include "core/files.h"
#include "dfbench_runner.h"
#include "state/state.h"
#include "support/test_server.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using aws::testing::ScriptedHttpServer;
using aws::testing::ScriptedReply;

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::string ErrorDoc(const std::string& code, const std::string& message) {
  return "<ErrorResponse><Error><Type>Sender</Type><Code>" + code + "</Code><Message>" + message +
         "</Message></Error><RequestId>r-1</RequestId></ErrorResponse>";
}

constexpr char kStackId[] = "arn:aws:cloudformation:us-east-1:123456789012:stack/dfbench-f/1";

const ScriptedReply kStackComplete{200,
                                   R"(<DescribeStacksResponse><DescribeStacksResult><Stacks><member>
  <StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/dfbench-f/1</StackId>
  <StackName>dfbench-f</StackName><StackStatus>CREATE_COMPLETE</StackStatus>
</member></Stacks></DescribeStacksResult></DescribeStacksResponse>)"};
const ScriptedReply kNoEvents{200,
                              "<DescribeStackEventsResponse><DescribeStackEventsResult>"
                              "<StackEvents/></DescribeStackEventsResult>"
                              "</DescribeStackEventsResponse>"};
const ScriptedReply kDeleted{200, "<DeleteStackResponse><ResponseMetadata/></DeleteStackResponse>"};
const ScriptedReply kStackGone{400, ErrorDoc("ValidationError", "Stack with id x does not exist")};
const ScriptedReply kThrottled{400, ErrorDoc("Throttling", "Rate exceeded")};

// dfbench with AWS at `endpoint` and dummy credentials.
CliResult RunAgainst(const DfbenchRunner& runner, const std::string& endpoint,
                     const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"env",
                                   "-u",
                                   "AWS_PROFILE",
                                   "-u",
                                   "DFBENCH_PROVIDER",
                                   "AWS_ENDPOINT_URL=" + endpoint,
                                   "AWS_ACCESS_KEY_ID=testing",
                                   "AWS_SECRET_ACCESS_KEY=testing",
                                   "AWS_SESSION_TOKEN=token"};
  for (auto& a : runner.Argv(args)) argv.push_back(a);
  auto r = core::RunCapture(argv, std::chrono::minutes(2));
  if (!r) return {-1, "", r.error().message};
  return {r->status.code, r->out, r->err};
}

// Nothing listens there: any AWS call would fail.
std::string DeadEndpoint() {
  return "http://127.0.0.1:" + std::to_string(FreePort());
}

// A ready aws setup `f` whose stack kStackId exists, with its key pair on disk, as setup leaves
// it; the key directory.
fs::path ReadyAwsSetup(const DfbenchRunner& runner) {
  ::setenv("DFBENCH_HOME", runner.home().c_str(), 1);
  state::SetupState s{
      .id = "f", .status = state::SetupStatus::kReady, .provider = state::ProviderKind::kAws};
  s.region = "us-east-1";
  s.created_at = "2026-04-08T14:30:00Z";
  s.provider_data["aws"] = {{"stack_name", "dfbench-f"},
                            {"stack_id", kStackId},
                            {"account", "123456789012"},
                            {"instances", nlohmann::json::array()}};
  EXPECT_TRUE(state::Save(&s));
  const fs::path ssh = state::SetupDir("f") / "ssh";
  EXPECT_TRUE(core::WriteFileAtomic(ssh / "id_rsa", "private"));
  EXPECT_TRUE(core::WriteFileAtomic(ssh / "id_rsa.pub", "ssh-rsa AAAA"));
  return ssh;
}

size_t CountActions(const ScriptedHttpServer& server, const std::string& action) {
  size_t n = 0;
  for (const auto& r : server.requests()) n += Contains(r, "Action=" + action + "&");
  return n;
}

TEST(AwsFaultsCli, ThrottledDeleteStackIsRetried) {
  DfbenchRunner runner("aws-throttled");
  const fs::path ssh = ReadyAwsSetup(runner);
  ScriptedHttpServer aws(
      {kStackComplete, kNoEvents, kThrottled, kThrottled, kDeleted, kNoEvents, kStackGone});
  CliResult r = RunAgainst(runner, aws.url(), {"destroy", "--id", "f", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(CountActions(aws, "DeleteStack"), 3u);
  EXPECT_TRUE(Contains(r.err, "the stack dfbench-f is deleted")) << r.err;
  EXPECT_FALSE(fs::exists(ssh));
  EXPECT_EQ(runner.State("f")["status"], "destroyed");
}

TEST(AwsFaultsCli, AccessDeniedDeleteStackFailsAndKeepsTheKey) {
  DfbenchRunner runner("aws-denied");
  const fs::path ssh = ReadyAwsSetup(runner);
  ScriptedHttpServer aws(
      {kStackComplete,
       kNoEvents,
       {403, ErrorDoc("AccessDenied",
                      "User: arn:aws:iam::123456789012:user/ops is not authorized to perform: "
                      "cloudformation:DeleteStack")}});
  CliResult r = RunAgainst(runner, aws.url(), {"destroy", "--id", "f", "--yes"});
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_TRUE(Contains(r.err, "cloudformation:DeleteStack")) << r.err;
  EXPECT_TRUE(Contains(r.err, "AccessDenied")) << r.err;
  EXPECT_EQ(CountActions(aws, "DeleteStack"), 1u);  // not retried
  EXPECT_TRUE(fs::exists(ssh / "id_rsa"));
  EXPECT_EQ(runner.State("f")["status"], "ready");
}

TEST(AwsFaultsCli, ExpiredTokenGivesTheAdviceLine) {
  DfbenchRunner runner("aws-expired");
  ScriptedHttpServer aws(
      {{403, ErrorDoc("ExpiredToken", "The security token included in the request is expired")}});
  CliResult r =
      RunAgainst(runner, aws.url(),
                 {"setup", "--id", "x", "--provider", "aws", "--engines", "redis", "--yes"});
  EXPECT_EQ(r.code, 5) << r.err;
  // The last line: the advice, not AWS's error document.
  const size_t last = r.err.rfind('\n', r.err.size() - 2);
  EXPECT_EQ(r.err.substr(last == std::string::npos ? 0 : last + 1),
            "dfbench: AWS credentials expired (SSO session or token): run 'aws sso login' (or "
            "refresh your credentials) and retry\n");
  EXPECT_FALSE(Contains(r.err, "ExpiredToken")) << r.err;
  EXPECT_EQ(CountActions(aws, "GetCallerIdentity"), 1u);
  EXPECT_EQ(CountActions(aws, "CreateStack"), 0u);
  // The template was saved before the first AWS call.
  EXPECT_TRUE(fs::exists(runner.SetupDir("x") / "stack.yaml"));
}

// --dry-run prints the plan and saves the template setup would apply (with the key pair it
// embeds, which setup then reuses), and makes no AWS call: nothing listens at the endpoint.
TEST(AwsFaultsCli, DryRunSavesTheTemplateWithoutAnAwsCall) {
  DfbenchRunner runner("aws-dry-run");
  const std::string dead = DeadEndpoint();
  CliResult r = RunAgainst(runner, dead,
                           {"setup", "--id", "plan", "--replicas", "1", "--engines",
                            "redis,memcached", "--region", "eu-west-1", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  const fs::path dir = runner.SetupDir("plan");
  for (const std::string& line : std::vector<std::string>{
           "dfbench: setup plan will create the CloudFormation stack dfbench-plan in eu-west-1 "
           "(AWS):\n",
           "  server     c6i.2xlarge x86_64, Ubuntu 22.04\n",
           "  client     c5.2xlarge x86_64, Ubuntu 22.04\n",
           "  replica-0  c6i.2xlarge x86_64, Ubuntu 22.04\n", "/hr on demand in eu-west-1",
           "install redis, memcached\n",
           // As the reference's setup, both load generators on the client, when it can.
           "  client: find memtier_benchmark on the PATH or in ~/.local/bin, or build "
           "memtier_benchmark 2.3.0 from source",
           "or build dfly_bench at Dragonfly ref main from source",
           "dfbench: dry run: the template is saved as " + (dir / "stack.yaml").string() +
               "; no AWS call was made, nothing was created\n"}) {
    EXPECT_TRUE(Contains(r.err, line)) << line << r.err;
  }
  EXPECT_FALSE(fs::exists(dir / "state.json"));  // no setup: the id stays free
  auto yaml = core::ReadFile(dir / "stack.yaml");
  ASSERT_TRUE(yaml) << yaml.error().message;
  EXPECT_TRUE(Contains(*yaml, "Replica0Instance:"));
  auto pub = core::ReadFile(dir / "ssh" / "id_rsa.pub");
  ASSERT_TRUE(pub);
  EXPECT_TRUE(Contains(*yaml, pub->substr(0, pub->find(' ', 8))));
  EXPECT_EQ(fs::status(dir / "ssh" / "id_rsa").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  if (auto lint = core::FindOnPath("cfn-lint")) {
    auto linted = core::RunCapture({*lint, (dir / "stack.yaml").string()}, std::chrono::minutes(2));
    ASSERT_TRUE(linted);
    EXPECT_EQ(linted->status.code, 0) << linted->out << linted->err;
  } else {
    GTEST_LOG_(INFO) << "cfn-lint is not on PATH: the saved template was not linted";
  }

  r = RunAgainst(runner, dead, {"quickstart", "--id", "qs", "--provider", "aws", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "~$0.680/hr on demand in us-east-1")) << r.err;
  EXPECT_TRUE(Contains(r.err, "then: benchmark and delete the stack")) << r.err;
  EXPECT_TRUE(fs::exists(runner.SetupDir("qs") / "stack.yaml"));
  EXPECT_FALSE(fs::exists(runner.SetupDir("qs") / "state.json"));
}

TEST(AwsFaultsCli, ProviderFromFlagsAndEnvironment) {
  DfbenchRunner runner("aws-provider");
  const std::string dead = DeadEndpoint();
  // An AWS fleet flag implies the aws provider.
  CliResult r =
      RunAgainst(runner, dead, {"setup", "--id", "a", "--ubuntu-version", "24.04", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "Ubuntu 24.04")) << r.err;
  // DFBENCH_PROVIDER=aws makes it the default; local otherwise.
  std::vector<std::string> argv = {"env", "DFBENCH_PROVIDER=aws"};
  for (auto& a : runner.Argv({"setup", "--id", "b", "--dry-run"})) argv.push_back(a);
  auto env = core::RunCapture(argv, std::chrono::minutes(1));
  ASSERT_TRUE(env);
  EXPECT_EQ(env->status.code, 0) << env->err;
  EXPECT_TRUE(Contains(env->err, "CloudFormation stack dfbench-b")) << env->err;
  r = RunAgainst(runner, dead, {"setup", "--id", "c", "--dry-run"});
  EXPECT_TRUE(Contains(r.err, "(local provider)")) << r.err;
  // Without a terminal and without --yes: exit 2 before anything happens.
  r = RunAgainst(runner, dead, {"setup", "--id", "d", "--provider", "aws"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "pass --yes")) << r.err;
  EXPECT_FALSE(fs::exists(runner.SetupDir("d")));
}

TEST(AwsFaultsCli, BadFleetFlagsAreOneLineAndExitTwo) {
  DfbenchRunner runner("aws-bad");
  const std::string dead = DeadEndpoint();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"setup", "--server-instance", "t3.large"},
       "dfbench: --server-instance t3.large: cluster placement groups refuse the t3 family; use a "
       "c or m family: c5.large, c6i.large, c7g.large (arm64)\n"},
      {{"quickstart", "--provider", "aws", "--ubuntu-version", "23.10"},
       "dfbench: --ubuntu-version 23.10: use 20.04, 22.04 or 24.04\n"},
      {{"setup", "--provider", "ssh", "--region", "us-west-2"},
       "dfbench: --region is an AWS fleet flag: it needs --provider aws, not --provider ssh\n"},
      {{"setup", "--replicas", "1", "--server", "10.0.0.1"},
       "dfbench: --server needs --provider ssh (the aws provider launches its hosts and makes "
       "their key)\n"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--id", "bad", "--yes"});
    CliResult r = RunAgainst(runner, dead, args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err, c.message);
  }
  std::vector<std::string> argv = {"env", "DFBENCH_PROVIDER=gcp"};
  for (auto& a : runner.Argv({"setup", "--id", "e", "--dry-run"})) argv.push_back(a);
  auto env = core::RunCapture(argv, std::chrono::minutes(1));
  ASSERT_TRUE(env);
  EXPECT_EQ(env->status.code, 2);
  EXPECT_EQ(env->err, "dfbench: DFBENCH_PROVIDER=gcp: use local, ssh or aws\n");
  EXPECT_TRUE(fs::is_empty(runner.home()));
}

}  // namespace
}  // namespace dfbench::testing
