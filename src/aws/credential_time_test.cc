// What credentials make of the wall time, on a fake clock: an Expiration is past from its very
// second, and a role session is named after the time.
#include <gtest/gtest.h>

#include "aws/credential_sources.h"
#include "aws/credentials.h"
#include "support/fake_clock.h"

namespace dfbench::aws {
namespace {

std::string ProcessOutput(const std::string& expiration) {
  return R"({"Version": 1, "AccessKeyId": "A", "SecretAccessKey": "s", "Expiration": ")" +
         expiration + R"("})";
}

TEST(CredentialTime, ProcessCredentialsExpireAtTheirSecond) {
  dfbench::testing::FakeClock clock;  // 2026-04-08T14:32:17Z
  auto at = ParseProcessCredentials(ProcessOutput("2026-04-08T14:32:17Z"), "test", clock);
  ASSERT_FALSE(at);
  EXPECT_EQ(at.error().message, kExpiredCredentialsAdvice);
  EXPECT_TRUE(ParseProcessCredentials(ProcessOutput("2026-04-08T14:32:18Z"), "test", clock));
}

TEST(CredentialTime, TheDefaultRoleSessionIsNamedAfterTheWallTime) {
  const dfbench::testing::FakeClock clock;
  EXPECT_EQ(DefaultRoleSessionName(clock), "dfbench-1775658737");
}

}  // namespace
}  // namespace dfbench::aws
