#include "aws/caller_address.h"

#include <gtest/gtest.h>

#include "aws/scripted_http_server_test.h"

namespace dfbench::aws {
namespace {

using testing::ScriptedHttpServer;

EnvLookup CheckIpAt(const std::string& url) {
  return [url](const std::string& name) -> std::optional<std::string> {
    if (name == "DFBENCH_CHECKIP_URL") return url;
    return std::nullopt;
  };
}

TEST(CallerAddress, IsTheCheckIpAnswer) {
  ScriptedHttpServer checkip({{200, "198.51.100.23\n"}});
  auto address = PublicAddress(CheckIpAt(checkip.url()));
  ASSERT_TRUE(address) << address.error().message;
  EXPECT_EQ(*address, "198.51.100.23");
}

TEST(CallerAddress, AnythingElseIsOneLineNamingTheFlag) {
  for (const auto& reply : std::vector<testing::ScriptedReply>{
           {200, "<html>captive portal</html>"}, {200, "2001:db8::1\n"}, {503, "busy"}}) {
    ScriptedHttpServer checkip({reply});
    auto address = PublicAddress(CheckIpAt(checkip.url()));
    ASSERT_FALSE(address) << reply.body;
    EXPECT_EQ(address.error().kind, core::ErrorKind::kEnvironment);
    EXPECT_NE(address.error().message.find("pass --ssh-cidr ADDRESS/32"), std::string::npos);
    EXPECT_EQ(address.error().message.find('\n'), std::string::npos);
  }
}

TEST(CallerAddress, Ipv4BlocksOnly) {
  for (const char* ok : {"203.0.113.7/32", "10.200.0.0/24", "0.0.0.0/0"}) {
    EXPECT_TRUE(IsIpv4Cidr(ok)) << ok;
  }
  for (const char* bad : {"203.0.113.7", "203.0.113.7/33", "2001:db8::/32", "a.b.c.d/8",
                          "203.0.113.7/", "203.0.113.7/3x", "/24"}) {
    EXPECT_FALSE(IsIpv4Cidr(bad)) << bad;
  }
}

}  // namespace
}  // namespace dfbench::aws
