// AWS faults through the dfbench commands where the emulator cannot show them (moto never
// throttles and never checks credentials): a scripted HTTP server stands in for AWS and answers
// each request with the next scripted reply. Also what must fail before any AWS call.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include <algorithm>
#include <filesystem>

#include "aws/scripted_http_server_test.h"
#include "core/files.h"
#include "dfbench_runner.h"
#include "state/state.h"
#include "support/test_data.h"
#include "support/test_server.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using aws::testing::ScriptedHttpServer;
using aws::testing::ScriptedReply;

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

// `dfbench_argv` (DfbenchRunner::Argv) with AWS at `endpoint` and dummy credentials.
CliResult RunAgainst(const std::vector<std::string>& dfbench_argv, const std::string& endpoint) {
  std::vector<std::string> argv = {"env",
                                   "-u",
                                   "AWS_PROFILE",
                                   "-u",
                                   "DFBENCH_PROVIDER",
                                   "-u",
                                   "AWS_REGION",
                                   "-u",
                                   "AWS_DEFAULT_REGION",
                                   "AWS_ENDPOINT_URL=" + endpoint,
                                   "AWS_ACCESS_KEY_ID=testing",
                                   "AWS_SECRET_ACCESS_KEY=testing",
                                   "AWS_SESSION_TOKEN=token"};
  argv.insert(argv.end(), dfbench_argv.begin(), dfbench_argv.end());
  auto r = core::RunCapture(argv, std::chrono::minutes(2));
  if (!r) return {-1, "", r.error().message};
  return {r->status.code, r->out, r->err};
}

// dfbench with AWS at `endpoint` and dummy credentials.
CliResult RunAgainst(const DfbenchRunner& runner, const std::string& endpoint,
                     const std::vector<std::string>& args) {
  return RunAgainst(runner.Argv(args), endpoint);
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
  s.provider_data.aws =
      state::AwsRecord{.stack_name = "dfbench-f", .stack_id = kStackId, .account = "123456789012"};
  EXPECT_TRUE(state::Save(&s));
  fs::path ssh = state::SetupDir("f") / "ssh";
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

// The region follows the AWS CLI's chain, and the plan names where it came from.
TEST(AwsFaultsCli, TheRegionComesFromTheEnvironmentAndThePlanSaysSo) {
  DfbenchRunner runner("aws-region");
  const std::string dead = DeadEndpoint();
  auto argv = runner.Argv({"setup", "--id", "r", "--provider", "aws", "--dry-run"});
  argv.insert(argv.begin(), "AWS_REGION=eu-west-1");
  CliResult r = RunAgainst(argv, dead);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "stack dfbench-r in eu-west-1 (AWS; region from AWS_REGION):\n"))
      << r.err;
  EXPECT_TRUE(Contains(r.err, "SSH (22) open only to this machine's public address")) << r.err;

  argv = runner.Argv(
      {"setup", "--id", "r2", "--provider", "aws", "--dry-run", "--ssh-cidr", "203.0.113.0/24"});
  argv.insert(argv.begin(), "AWS_DEFAULT_REGION=ap-south-1");
  r = RunAgainst(argv, dead);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "in ap-south-1 (AWS; region from AWS_DEFAULT_REGION):\n")) << r.err;
  EXPECT_TRUE(Contains(r.err, "SSH (22) open only to 203.0.113.0/24 (--ssh-cidr)")) << r.err;

  r = RunAgainst(runner, dead,
                 {"setup", "--id", "r3", "--provider", "aws", "--ssh-cidr", "0.0.0.0", "--yes"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err, "dfbench: --ssh-cidr 0.0.0.0: an IPv4 block such as 203.0.113.7/32\n");
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
           // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one line split in two literals
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

// An arm64 client runs the aarch64 client build, which must lie beside dfbench
// (dfbench-linux-aarch64, made by scripts/build-arm64.sh). Without it setup, quickstart and a
// dry run stop before the plan and any AWS call (nothing listens at the endpoint: a call would
// fail otherwise), with exit code 5 and one line naming the file and the script.
TEST(AwsFaultsCli, Arm64ClientWithoutItsLoadGeneratorStopsBeforeAnyAwsCall) {
  DfbenchRunner runner("aws-arm64");
  const std::string dead = DeadEndpoint();
  // A copy of dfbench alone in a directory, whatever the build tree holds beside the original.
  const ScopedTempDir bin("aws-arm64-bin");
  const fs::path self = bin / "dfbench";
  fs::copy_file(DFBENCH_BINARY, self);
  auto run = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv = runner.Argv(args);
    *std::find(argv.begin(), argv.end(), std::string(DFBENCH_BINARY)) = self.string();
    return RunAgainst(argv, dead);
  };
  const std::string missing = (bin / "dfbench-linux-aarch64").string() + " is missing";
  const std::vector<std::vector<std::string>> refused = {
      {"setup", "--id", "a", "--client-instance", "c7g.4xlarge", "--client-arch", "arm64", "--yes"},
      // The family alone makes the client arm64.
      {"quickstart", "--id", "q", "--client-instance", "c7g.large", "--yes"},
      {"setup", "--id", "d", "--client-instance", "c7g.4xlarge", "--client-arch", "arm64",
       "--dry-run"},
  };
  for (const auto& args : refused) {
    CliResult r = run(args);
    EXPECT_EQ(r.code, 5) << r.err;
    EXPECT_TRUE(Contains(r.err, missing)) << r.err;
    EXPECT_TRUE(Contains(r.err, "scripts/build-arm64.sh")) << r.err;
    // One line, after the family warning of the c7g with the default --client-arch.
    EXPECT_EQ(CountLines(r.err), Contains(r.err, "warning:") ? 2 : 1) << r.err;
    EXPECT_FALSE(fs::exists(runner.SetupDir(args[2]))) << args[2];
  }
  // An x86_64 client needs nothing beside dfbench: the same copy gets as far as AWS.
  CliResult r = run({"setup", "--id", "x", "--provider", "aws", "--yes"});
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_FALSE(Contains(r.err, "is missing")) << r.err;
  EXPECT_TRUE(fs::exists(runner.SetupDir("x") / "stack.yaml")) << r.err;

  // With the build in place, the arm64 setup passes the check and stops only at the first AWS
  // call (the template is saved just before it).
  ASSERT_TRUE(core::WriteFileAtomic(bin / "dfbench-linux-aarch64", "client build"));
  fs::permissions(bin / "dfbench-linux-aarch64", fs::perms::owner_all);
  r = run(refused[0]);
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_FALSE(Contains(r.err, "is missing")) << r.err;
  EXPECT_TRUE(fs::exists(runner.SetupDir("a") / "stack.yaml")) << r.err;
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
  // No answer on stdin (end of input) and no --yes: exit 2 before anything happens.
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
  EXPECT_EQ(env->err, "dfbench: DFBENCH_PROVIDER=gcp: use local, ssh, aws or endpoint\n");
  EXPECT_TRUE(fs::is_empty(runner.home()));
}

// A build of this machine for a server of the other architecture: refused by the checks before
// launching, with no AWS call at all (nothing listens at the endpoint).
TEST(AwsFaultsCli, AnEngineBuildForAnotherArchIsRefusedBeforeAnyAwsCall) {
  DfbenchRunner runner("aws-preflight-arch");
  const std::string self = fs::canonical(DFBENCH_BINARY).string();
  utsname u{};
  ::uname(&u);
  const bool arm_here = std::string(u.machine) == "aarch64";
  CliResult r =
      RunAgainst(runner, DeadEndpoint(),
                 {"setup", "--id", "arch", "--provider", "aws", "--engines", "redis",
                  "--server-instance", arm_here ? "c6i.large" : "c7g.large", "--server-arch",
                  arm_here ? "x86_64" : "arm64", "--redis_version", self, "--yes"});
  EXPECT_EQ(r.code, 2) << r.err;
  const std::string host = arm_here ? "x86_64" : "aarch64";
  EXPECT_TRUE(Contains(r.err, "dfbench: --redis_version: " + self + " is built for " +
                                  std::string(u.machine) + ", but the host is " + host +
                                  " (the server (Ubuntu 22.04 " + (arm_here ? "x86_64" : "arm64") +
                                  "))\n"))
      << r.err;
  EXPECT_FALSE(Contains(r.err, "cannot reach")) << r.err;
  EXPECT_FALSE(Contains(r.err, "still running")) << r.err;
  EXPECT_EQ(runner.State("arch")["status"], "failed");
}

const ScriptedReply kIdentity{
    200,
    "<GetCallerIdentityResponse><GetCallerIdentityResult><Account>123456789012</Account>"
    "<Arn>arn:aws:iam::123456789012:user/ops</Arn><UserId>AIDA</UserId>"
    "</GetCallerIdentityResult></GetCallerIdentityResponse>"};
// The default fleet's types (c6i.2xlarge server, c5.2xlarge client), as EC2 describes them.
const ScriptedReply kDefaultTypes{
    200,
    "<DescribeInstanceTypesResponse><instanceTypeSet>"
    "<item><instanceType>c6i.2xlarge</instanceType><processorInfo><supportedArchitectures>"
    "<item>x86_64</item></supportedArchitectures></processorInfo>"
    "<vCpuInfo><defaultVCpus>8</defaultVCpus></vCpuInfo></item>"
    "<item><instanceType>c5.2xlarge</instanceType><processorInfo><supportedArchitectures>"
    "<item>x86_64</item></supportedArchitectures></processorInfo>"
    "<vCpuInfo><defaultVCpus>8</defaultVCpus></vCpuInfo></item>"
    "</instanceTypeSet></DescribeInstanceTypesResponse>"};
const ScriptedReply kDefaultOffers{
    200,
    "<DescribeInstanceTypeOfferingsResponse><instanceTypeOfferingSet>"
    "<item><instanceType>c6i.2xlarge</instanceType><location>us-east-1a</location></item>"
    "<item><instanceType>c5.2xlarge</instanceType><location>us-east-1a</location></item>"
    "</instanceTypeOfferingSet></DescribeInstanceTypeOfferingsResponse>"};

// Canonical publishes no AMI for the release in that region: refused after reading SSM, before
// CreateStack.
TEST(AwsFaultsCli, AMissingAmiIsRefusedBeforeCreateStack) {
  DfbenchRunner runner("aws-preflight-ami");
  ScriptedHttpServer aws(
      {kIdentity,
       kDefaultTypes,
       kDefaultOffers,
       {400, R"({"__type": "ParameterNotFound", "message": "Parameter not found."})"}});
  CliResult r =
      RunAgainst(runner, aws.url(),
                 {"setup", "--id", "ami", "--provider", "aws", "--engines", "redis", "--yes"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "dfbench: no Canonical AMI in us-east-1 "
                       "(/aws/service/canonical/ubuntu/server/22.04/stable/current/amd64/hvm/"
                       "ebs-gp2/ami-id does not exist there): try another --region or "
                       "--ubuntu-version\n"))
      << r.err;
  size_t ssm = 0;
  for (const auto& request : aws.requests()) {
    ssm += Contains(request, "AmazonSSM.GetParameter");
  }
  EXPECT_EQ(ssm, 1u);
  EXPECT_EQ(CountActions(aws, "CreateStack"), 0u);
  EXPECT_EQ(CountActions(aws, "DescribeStacks"), 0u);
}

// An On-Demand vCPU quota below the fleet's vCPUs: exit 5, one line, no CreateStack. The emulator
// knows no EC2 quota (NoSuchResourceException), so the scripted server stands in for AWS.
TEST(AwsFaultsCli, AQuotaTooSmallIsRefusedBeforeCreateStack) {
  DfbenchRunner runner("aws-preflight-quota");
  ScriptedHttpServer aws({kIdentity,
                          kDefaultTypes,
                          kDefaultOffers,
                          {200, R"({"Parameter": {"Value": "ami-0123456789abcdef0"}})"},
                          {200, R"({"Quota": {"QuotaCode": "L-1216C47A", "Value": 8.0}})"}});
  CliResult r =
      RunAgainst(runner, aws.url(),
                 {"setup", "--id", "quota", "--provider", "aws", "--engines", "redis", "--yes"});
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_TRUE(r.err.ends_with(
      "dfbench: the fleet needs 16 vCPUs of 'Running On-Demand Standard (A, C, D, H, I, M, R, T, "
      "Z) instances' (L-1216C47A) but the account's quota in us-east-1 is 8 (running instances "
      "count too): ask for more in the Service Quotas console, or 'aws service-quotas "
      "request-service-quota-increase --region us-east-1 --service-code ec2 --quota-code "
      "L-1216C47A --desired-value 16'\n"))
      << r.err;
  EXPECT_TRUE(Contains(r.err, "availability zone us-east-1a: it offers every instance type"))
      << r.err;
  EXPECT_EQ(CountActions(aws, "CreateStack"), 0u);
  EXPECT_EQ(CountActions(aws, "DescribeStacks"), 0u);
}

}  // namespace
}  // namespace dfbench::testing
