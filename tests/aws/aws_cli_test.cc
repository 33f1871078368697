// The dfbench commands on the aws provider end to end: the AWS emulator (moto) creates the
// stack, and each instance it launches is one host of the multi-host test bed
// (MOTO_BENCH_TESTBED), so setup logs in with the stack's key and installs real engines, run
// measures them, destroy deletes the stack. Skipped, saying why, without the bed or moto.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "aws/cloudformation.h"
#include "core/files.h"
#include "dfbench_runner.h"
#include "emulated_fleet_test.h"
#include "support/scoped_change.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using AwsCliTest = EmulatedFleetTest;

// Setup flags on the bed: its hosts log in as root (EC2's Ubuntu would be "ubuntu").
std::vector<std::string> SetupArgs(const std::string& command, const std::string& id, int replicas,
                                   const std::string& engines) {
  // The bed's hosts see SSH come from its bridge, 10.200.0.1.
  return {command, "--id",       id,     "--replicas", std::to_string(replicas), "--engines",
          engines, "--ssh-user", "root", "--ssh-cidr", "10.200.0.1/32",          "--yes"};
}

void ExpectFleetLabels(const json& results) {
  EXPECT_EQ(results["region"], "us-east-1");
  EXPECT_EQ(results["server_instance"], "c6i.2xlarge");
  EXPECT_EQ(results["client_instance"], "c5.2xlarge");
}

TEST_F(AwsCliTest, SetupRunInfoSshDestroy) {
  DfbenchRunner dfb("aws-flow");
  const std::string id = "fleet";
  // --replicas implies --provider aws. A dry run first: setup then applies the template it saved.
  CliResult r = dfb.Run(Concat(SetupArgs("setup", id, 1, "redis,memcached"), {"--dry-run"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto previewed = core::ReadFile(dfb.SetupDir(id) / "stack.yaml");
  ASSERT_TRUE(previewed);
  r = dfb.Run(SetupArgs("setup", id, 1, "redis,memcached"), std::chrono::minutes(10));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "setup fleet: reusing the SSH key pair")) << r.err;
  EXPECT_EQ(core::ReadFile(dfb.SetupDir(id) / "stack.yaml").value_or(""), *previewed);
  EXPECT_TRUE(Contains(r.err,
                       "setup fleet will create the CloudFormation stack dfbench-fleet in "
                       "us-east-1 (AWS):\n"))
      << r.err;
  EXPECT_TRUE(Contains(r.err, "cost: ~$1.020/hr on demand in us-east-1")) << r.err;
  json st = dfb.State(id);
  EXPECT_EQ(st["status"], "ready");
  EXPECT_EQ(st["provider"], "aws");
  EXPECT_EQ(st["region"], "us-east-1");
  const json& a = st["provider_data"]["aws"];
  const std::string account = a["account"];
  EXPECT_EQ(account.size(), 12u) << a;
  ASSERT_EQ(a["instances"].size(), 3u) << a;
  EXPECT_EQ(st["engines"].size(), 2u) << st["engines"];
  const fs::path key = st["provider_data"]["ssh"]["key_path"].get<std::string>();
  EXPECT_TRUE(fs::exists(key));
  ASSERT_TRUE(StackOf(id));

  r = dfb.Run(
      Concat({"run", "--id", id, "--engines", "redis,memcached", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["status"], "completed");
  ExpectFleetLabels(out);
  EXPECT_EQ(out["aws_account"], account);
  EXPECT_EQ(out["context"]["provider"], "aws");
  ASSERT_EQ(out["engines"].size(), 2u);
  EXPECT_EQ(out["engines"][1]["engine"], "memcached");
  EXPECT_TRUE(Contains(r.err, "ready on 10.200.0.2:6379\n")) << r.err;

  r = dfb.Run(Concat({"run-commands", "--id", id, "--engines", "redis", "--command-template",
                      "SET __key__ __data__", "--output", "json"},
                     kSmallCommandRun));
  ASSERT_EQ(r.code, 0) << r.err;
  ExpectFleetLabels(json::parse(r.out));

  r = dfb.Run({"info", "--id", id});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& part :
       {std::string("Provider:  aws\n"), std::string("\nAWS:\n  Region:    us-east-1\n"),
        "  Account:   " + account + "\n", std::string("  Stack:     dfbench-fleet (arn:"),
        std::string("  Ubuntu:    22.04\n"),
        std::string("  Cost:      ~$1.020/hr on demand in us-east-1; ~$"),
        std::string("ROLE       INSTANCE"), std::string("replica-0"), std::string("10.200.0.4"),
        std::string("\nSSH:\n  Key:    " + key.string()),
        std::string("server: ssh -i " + key.string()), std::string("  copy:   scp -i "),
        std::string("dfbench ssh     --id fleet --target server")}) {
    EXPECT_TRUE(Contains(r.out, part)) << part << "\n" << r.out;
  }

  r = dfb.Run({"list"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "fleet  ready   us-east-1  c6i.2xlarge x86_64  c5.2xlarge x86_64  "))
      << r.out;

  r = dfb.Run({"ssh", "--id", id, "--target", "replica-0", "--print"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "ssh -i " + key.string())) << r.out;
  EXPECT_TRUE(Contains(r.out, " root@10.200.0.4\n")) << r.out;

  r = dfb.Run({"destroy", "--id", id, "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "destroy fleet will delete the CloudFormation stack dfbench-fleet "
                       "in us-east-1 (AWS account " +
                           account + "):\n"))
      << r.err;
  EXPECT_TRUE(Contains(r.err, "the stack dfbench-fleet is deleted")) << r.err;
  ExpectStackGone(id);
  EXPECT_FALSE(fs::exists(key.parent_path()));
  EXPECT_EQ(dfb.State(id)["status"], "destroyed");
  EXPECT_TRUE(fs::exists(dfb.SetupDir(id) / "benchmarks" / out["run_id"].get<std::string>() /
                         "results.json"));  // results stay

  // Destroy twice: a note, success.
  r = dfb.Run({"destroy", "--id", id, "--yes"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "is already destroyed; nothing to do")) << r.err;
}

// Two client instances: planned and billed as such, set up as client and client-2, and a run
// from both merged into one trial (the bed's third host takes the second client). The region
// comes from the environment, as the AWS CLI takes it: the stack is made in eu-west-1.
TEST_F(AwsCliTest, TwoClientInstancesShareTheLoad) {
  DfbenchRunner dfb("aws-clients");
  ::setenv("AWS_REGION", "eu-west-1", 1);
  const ScopedChange region(true, [] { ::unsetenv("AWS_REGION"); });
  CliResult r = dfb.Run(
      Concat(SetupArgs("setup", "two", 0, "redis"), {"--provider", "aws", "--client-count", "2"}),
      std::chrono::minutes(10));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "stack dfbench-two in eu-west-1 (AWS; region from AWS_REGION):\n"))
      << r.err;
  EXPECT_TRUE(Contains(r.err, "  client-2   c5.2xlarge x86_64, Ubuntu 22.04\n")) << r.err;
  EXPECT_TRUE(Contains(r.err, "/hr on demand in eu-west-1")) << r.err;
  const aws::Client ireland(aws::Credentials{"testing", "testing", "", "test"}, "eu-west-1");
  auto made = aws::DescribeStack(ireland, "dfbench-two");
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_EQ(made->status, "CREATE_COMPLETE");
  EXPECT_NE(made->id.find(":eu-west-1:"), std::string::npos) << made->id;
  ExpectStackGone("two");  // nothing in us-east-1
  EXPECT_TRUE(Contains(r.err, "Uploading dfbench to the clients")) << r.err;
  const json st = dfb.State("two");
  EXPECT_EQ(st["provider_data"]["aws"]["instances"].size(), 3u);
  EXPECT_EQ(st["settings"]["client_count"], 2);
  // The second client is the same kind of instance as the first, not the replicas' kind.
  std::map<std::string, json> by_role;
  for (const json& i : st["provider_data"]["aws"]["instances"]) by_role[i["role"]] = i;
  ASSERT_TRUE(by_role.contains("client-2")) << st;
  EXPECT_EQ(by_role["client-2"]["type"], by_role["client"]["type"]);
  EXPECT_EQ(by_role["client-2"]["arch"], by_role["client"]["arch"]);
  EXPECT_NE(by_role["client"]["type"], by_role["server"]["type"]) << "the check would not tell";

  r = dfb.Run(Concat({"run", "--id", "two", "--engines", "redis", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  const json out = json::parse(r.out);
  const json& redis = out["engines"][0];
  uint64_t client_ops = redis["warmup_ops"].get<uint64_t>();
  for (const json& trial : redis["trials"]) {
    ASSERT_EQ(trial["clients"].size(), 2u) << trial;
    EXPECT_EQ(trial["clients"][1]["name"], "client-2");
    EXPECT_EQ(
        trial["clients"][0]["ops"].get<uint64_t>() + trial["clients"][1]["ops"].get<uint64_t>(),
        trial["ops"].get<uint64_t>());
    client_ops += trial["ops"].get<uint64_t>() + trial["errors"].get<uint64_t>();
  }
  EXPECT_EQ(redis["server_ops"].get<uint64_t>(), client_ops);

  r = dfb.Run({"destroy", "--id", "two", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto gone = aws::DescribeStack(ireland, "dfbench-two");
  EXPECT_FALSE(gone) << gone->status;
}

TEST_F(AwsCliTest, QuickstartDestroysUnlessSkipDestroy) {
  DfbenchRunner dfb("aws-quickstart");
  CliResult r = dfb.Run(Concat(Concat(SetupArgs("quickstart", "qs", 0, "redis"), kSmallRun),
                               {"--provider", "aws", "--output", "json"}),
                        std::chrono::minutes(10));
  ASSERT_EQ(r.code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["status"], "completed");
  ExpectFleetLabels(out);
  EXPECT_EQ(dfb.State("qs")["status"], "destroyed");
  ExpectStackGone("qs");
  EXPECT_FALSE(fs::exists(dfb.SetupDir("qs") / "ssh"));

  r = dfb.Run(Concat(Concat(SetupArgs("quickstart", "kept", 0, "memcached"), kSmallRun),
                     {"--provider", "aws", "--skip-destroy", "--output", "json"}),
              std::chrono::minutes(10));
  ASSERT_EQ(r.code, 0) << r.err;
  ExpectFleetLabels(json::parse(r.out));
  EXPECT_TRUE(Contains(r.err, "then: benchmark; the stack is kept and billed (--skip-destroy)"))
      << r.err;
  EXPECT_EQ(dfb.State("kept")["status"], "ready");
  auto stack = StackOf("kept");
  ASSERT_TRUE(stack) << stack.error().message;
  EXPECT_EQ(stack->status, "CREATE_COMPLETE");
  r = dfb.Run({"destroy", "--id", "kept", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  ExpectStackGone("kept");
}

// Four instances on three hosts: the fourth cannot launch, CloudFormation deletes the stack,
// the error names the resource, and the same setup works once it asks for what fits. Then the
// stack is deleted behind dfbench's back, and destroy still succeeds.
TEST_F(AwsCliTest, RollbackRetryAndAStackDeletedBehindOurBack) {
  DfbenchRunner dfb("aws-rollback");
  CliResult r = dfb.Run(SetupArgs("setup", "retry", 2, "redis"), std::chrono::minutes(10));
  EXPECT_EQ(r.code, 5) << r.err;
  for (const char* part :
       {"dfbench: the stack dfbench-retry failed: Replica1Instance (AWS::EC2::Instance): ",
        "InsufficientInstanceCapacity", "run the same setup again"}) {
    EXPECT_TRUE(Contains(r.err, part)) << part << "\n" << r.err;
  }
  ExpectStackGone("retry");
  EXPECT_EQ(dfb.State("retry")["status"], "failed");

  r = dfb.Run(SetupArgs("setup", "retry", 1, "redis"), std::chrono::minutes(10));
  ASSERT_EQ(r.code, 0) << r.err;
  auto stack = StackOf("retry");
  ASSERT_TRUE(stack) << stack.error().message;

  ASSERT_TRUE(aws::DeleteStack(AwsEmulator::Client(), stack->id));
  ExpectStackGone("retry");
  r = dfb.Run({"destroy", "--id", "retry", "--yes"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "the stack dfbench-retry is already gone")) << r.err;
  EXPECT_FALSE(fs::exists(dfb.SetupDir("retry") / "ssh"));
  EXPECT_EQ(dfb.State("retry")["status"], "destroyed");
}

}  // namespace
}  // namespace dfbench::testing
