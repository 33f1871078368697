// `dfbench template` end to end: YAML out, no AWS call, no state, one clear line on bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_server.h"

namespace dfbench::testing {
namespace {

// Runs dfbench with AWS_ENDPOINT_URL on a port nothing listens on: any AWS call would fail.
CliResult RunOffline(const DfbenchRunner& runner, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {
      "env", "AWS_ENDPOINT_URL=http://127.0.0.1:" + std::to_string(FreePort()),
      "AWS_ACCESS_KEY_ID=testing", "AWS_SECRET_ACCESS_KEY=testing"};
  for (auto& a : runner.Argv(args)) argv.push_back(a);
  auto r = core::RunCapture(argv, std::chrono::minutes(1));
  if (!r) return {-1, "", r.error().message};
  return {r->status.code, r->out, r->err};
}

TEST(TemplateCliTest, WritesYamlWithoutCallingAws) {
  DfbenchRunner runner("template-out");
  const auto out = runner.home().parent_path() / "dfbench-template-preview.yaml";
  std::filesystem::remove(out);
  CliResult r =
      RunOffline(runner, {"template", "--run-id", "preview", "--server-instance", "c7g.4xlarge",
                          "--server-arch", "arm64", "--client-instance", "c7g.4xlarge",
                          "--client-arch", "arm64", "--replicas", "1", "--out", out.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  auto yaml = core::ReadFile(out);
  ASSERT_TRUE(yaml) << yaml.error().message;
  EXPECT_EQ(yaml->rfind("AWSTemplateFormatVersion: \"2010-09-09\"\n", 0), 0u);
  EXPECT_NE(yaml->find("InstanceType: \"c7g.4xlarge\""), std::string::npos);
  EXPECT_NE(yaml->find("Replica0Instance:"), std::string::npos);
  EXPECT_NE(yaml->find("dfbench-placeholder-key"), std::string::npos);
  // Two c7g.4xlarge servers (server and replica) and a client: 3 x $0.578.
  EXPECT_NE(r.err.find("~$1.734/hr on demand in us-east-1"), std::string::npos) << r.err;
  // As the reference's file table says: the YAML is saved as runs/<run-id>/stack.yaml, and no
  // state is written.
  auto saved = core::ReadFile(runner.SetupDir("preview") / "stack.yaml");
  ASSERT_TRUE(saved) << saved.error().message;
  EXPECT_EQ(*saved, *yaml);
  EXPECT_FALSE(std::filesystem::exists(runner.SetupDir("preview") / "state.json"));
  EXPECT_NE(r.err.find("saved as " + (runner.SetupDir("preview") / "stack.yaml").string()),
            std::string::npos)
      << r.err;
}

TEST(TemplateCliTest, LeavesTheStackYamlOfALiveSetupAlone) {
  DfbenchRunner runner("template-live");
  // A live setup of the same id (a local one: no AWS needed) keeps its own stack.yaml.
  ASSERT_EQ(runner.Run({"setup", "--id", "live", "--engines", "redis"}).code, 0);
  const auto path = runner.SetupDir("live") / "stack.yaml";
  ASSERT_TRUE(core::WriteFileAtomic(path, "the stack's own\n"));
  CliResult r = RunOffline(runner, {"template", "--run-id", "live"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(*core::ReadFile(path), "the stack's own\n");
  EXPECT_NE(r.err.find("is left as it is"), std::string::npos) << r.err;
  // Once destroyed, the id's stack.yaml is the new template's.
  ASSERT_EQ(runner.Run({"destroy", "--id", "live"}).code, 0);
  r = RunOffline(runner, {"template", "--run-id", "live"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(*core::ReadFile(path), r.out);
}

TEST(TemplateCliTest, DefaultsToStdoutWithTheReferenceDefaultsAndAGivenKey) {
  DfbenchRunner runner("template-stdout");
  const auto key = runner.home().parent_path() / "dfbench-template-key.pub";
  std::ofstream(key) << "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC ops@laptop\n";
  CliResult r =
      RunOffline(runner, {"template", "--run-id", "defaults", "--public-key", key.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("InstanceType: \"c6i.2xlarge\""), std::string::npos);
  EXPECT_NE(r.out.find("InstanceType: \"c5.2xlarge\""), std::string::npos);
  EXPECT_NE(r.out.find("/ubuntu/server/22.04/stable/current/amd64/hvm/ebs-gp2/ami-id"),
            std::string::npos);
  EXPECT_NE(r.out.find("PublicKeyMaterial: \"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC ops@laptop\""),
            std::string::npos);
  EXPECT_EQ(r.out.find("Replica0Instance"), std::string::npos);
}

TEST(TemplateCliTest, BadInputIsOneLineAndExitTwo) {
  DfbenchRunner runner("template-bad");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--server-instance", "t3.medium"},
       "dfbench: --server-instance t3.medium: cluster placement groups refuse the t3 family; "
       "use a c or m family: c5.large, c6i.large, c7g.large (arm64)\n"},
      {{"--ubuntu-version", "23.10"},
       "dfbench: --ubuntu-version 23.10: use 20.04, 22.04 or 24.04\n"},
      {{"--client-arch", "amd64"}, "dfbench: --client-arch amd64: use x86_64 or arm64\n"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"template", "--run-id", "bad"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    CliResult r = RunOffline(runner, args);
    EXPECT_EQ(r.code, 2) << c.args[0];
    EXPECT_EQ(r.err, c.message);
    EXPECT_EQ(r.out, "");
  }
}

TEST(TemplateCliTest, ArchitectureMismatchIsAWarning) {
  DfbenchRunner runner("template-warn");
  CliResult r =
      RunOffline(runner, {"template", "--run-id", "warn", "--server-instance", "c7g.large"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --server-instance c7g.large is an arm64 family but the "
                       "architecture is x86_64"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace dfbench::testing
