// `dfbench setup --provider aws` refused by the pre-flight against the AWS emulator, whose
// instance types and zone offerings are moto's copies of AWS's per-region lists: each refusal is
// one line with its exit code, and no Create call is made: dfbench reaches the emulator through
// the fault proxy, whose log shows every call. A refused setup reaches no host, so no test bed is
// needed. Skipped, saying why, without python3's moto.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "aws/cloudformation.h"
#include "aws_emulator.h"
#include "dfbench_runner.h"
#include "fault_proxy.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

class AwsPreflightCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = emulator_.Start(); !why.empty()) GTEST_SKIP() << why;
    emulator_.ExportToEnvironment();
    ::unsetenv("DFBENCH_PROVIDER");
    ::unsetenv("DFBENCH_NO_CONFIRM");
  }

  // Runs setup `id` with `flags` through the proxy with `rules`; expects exit `code`, `line` as
  // its last stderr line, no Create call, and no stack in `region`.
  void ExpectRefused(const std::string& id, const std::vector<std::string>& flags, int code,
                     const std::string& line, const std::string& region = "us-east-1",
                     const std::vector<std::string>& rules = {}) {
    DfbenchRunner dfb("aws-preflight-" + id);
    FaultProxy proxy;
    ASSERT_EQ(proxy.Start(emulator_.url(), rules), "");
    std::vector<std::string> args = {"setup", "--id",      id,      "--provider",
                                     "aws",   "--engines", "redis", "--yes"};
    args.insert(args.end(), flags.begin(), flags.end());
    args = dfb.Argv(args);
    args.insert(args.begin(), {"env", "AWS_ENDPOINT_URL=" + proxy.url()});
    auto run = core::RunCapture(args, std::chrono::minutes(3));
    ASSERT_TRUE(run) << run.error().message;
    const CliResult r{run->status.code, run->out, run->err};
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_TRUE(r.err.ends_with("dfbench: " + line + "\n")) << r.err;
    EXPECT_TRUE(Contains(r.err, "dfbench: AWS account "))
        << r.err;  // credentials were checked first
    EXPECT_GT(proxy.Seen("GetCallerIdentity"), 0u);
    for (const char* create : {"CreateStack", "RunInstances", "CreateVpc", "ImportKeyPair"}) {
      EXPECT_EQ(proxy.Seen(create), 0u) << create;
    }
    const aws::Client client(aws::Credentials{"testing", "testing", "", "test"}, region);
    auto stack = aws::DescribeStack(client, "dfbench-" + id);
    ASSERT_FALSE(stack) << "a stack was created: " << stack->status;
    EXPECT_EQ(stack.error().kind, core::ErrorKind::kNotFound) << stack.error().message;
  }

  AwsEmulator emulator_;
};

TEST_F(AwsPreflightCliTest, AnUnknownTypeExitsTwoNamingTheNearest) {
  ExpectRefused("typo", {"--server-instance", "c6i.2xlargee"}, 2,
                "no such instance type in us-east-1: --server-instance c6i.2xlargee (nearest: "
                "c6i.2xlarge, c6i.24xlarge, c6i.12xlarge)");
}

TEST_F(AwsPreflightCliTest, AnArchitectureTheTypeDoesNotRunExitsTwo) {
  ExpectRefused("arch", {"--server-instance", "c7g.large", "--server-arch", "x86_64"}, 2,
                "--server-instance c7g.large is arm64 only; --server-arch x86_64 cannot run on "
                "it: pass --server-arch arm64 or a type that runs x86_64");
}

TEST_F(AwsPreflightCliTest, NoZoneOfferingEveryTypeExitsTwo) {
  ExpectRefused("zone",
                {"--region", "eu-west-1", "--server-instance", "hpc7g.16xlarge", "--server-arch",
                 "arm64", "--client-instance", "c8i.large"},
                2,
                "no availability zone of eu-west-1 offers every instance type of the fleet "
                "(eu-west-1a lacks hpc7g.16xlarge; eu-west-1b lacks c8i.large; eu-west-1c lacks "
                "hpc7g.16xlarge): pick types one zone offers together, or another --region",
                "eu-west-1");
}

// The emulator knows no EC2 quota: the proxy answers the quota read with 8 vCPUs, less than the
// fleet's 16.
TEST_F(AwsPreflightCliTest, AQuotaTooSmallExitsFive) {
  ExpectRefused("quota", {}, 5,
                "the fleet needs 16 vCPUs of 'Running On-Demand Standard (A, C, D, H, I, M, R, T, "
                "Z) instances' (L-1216C47A) but the account's quota in us-east-1 is 8 (running "
                "instances count too): ask for more in the Service Quotas console, or 'aws "
                "service-quotas request-service-quota-increase --region us-east-1 --service-code "
                "ec2 --quota-code L-1216C47A --desired-value 16'",
                "us-east-1", {"GetServiceQuota:quota:1:8"});
}

}  // namespace
}  // namespace dfbench::testing
