// `dfbench setup --provider aws` refused by the pre-flight against the AWS emulator, whose
// instance types and zone offerings are moto's copies of AWS's per-region lists: each refusal is
// one line with its exit code, and no stack is created. A refused setup reaches no host, so no
// test bed is needed. Skipped, saying why, without python3's moto.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "aws/cloudformation.h"
#include "aws_emulator.h"
#include "dfbench_runner.h"
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

  // Runs setup `id` with `flags`; expects exit `code`, `line` as its last stderr line, and no
  // stack in `region`.
  void ExpectRefused(const std::string& id, const std::vector<std::string>& flags, int code,
                     const std::string& line, const std::string& region = "us-east-1") {
    DfbenchRunner dfb("aws-preflight-" + id);
    std::vector<std::string> args = {"setup", "--id",      id,      "--provider",
                                     "aws",   "--engines", "redis", "--yes"};
    args.insert(args.end(), flags.begin(), flags.end());
    CliResult r = dfb.Run(args);
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_TRUE(r.err.ends_with("dfbench: " + line + "\n")) << r.err;
    EXPECT_TRUE(Contains(r.err, "dfbench: AWS account "))
        << r.err;  // credentials were checked first
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

}  // namespace
}  // namespace dfbench::testing
