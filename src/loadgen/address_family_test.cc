// memtier's -4 and -6: --server resolves to addresses of that family only, for the first
// connection (the preflight) and the load's.
#include <gtest/gtest.h>

#include "loadgen/run_ok_test_support.h"
#include "support/test_server.h"

namespace dfbench::loadgen {
namespace {

TEST(AddressFamily, TheServerResolvesInTheFamilyAskedFor) {
  auto server = testing::TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config = QuietRun(1, 2);
  config.server = "127.0.0.1";
  config.port = server->port();
  config.pass.requests_per_client = 50;
  config.address_family = AddressFamily::kIpv4;
  EXPECT_EQ(RunOk(config).totals.count, 100u);
  // An IPv4 address has no IPv6 form: nothing connects, one clear error.
  config.address_family = AddressFamily::kIpv6;
  const core::Error error = RunFails(config);
  EXPECT_EQ(error.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(error.message.find("cannot resolve 127.0.0.1"), std::string::npos) << error.message;
  EXPECT_EQ(server->Calls("set") + server->Calls("get"), 100u);
}

}  // namespace
}  // namespace dfbench::loadgen
