#include "protocol/server_url.h"

#include <gtest/gtest.h>

namespace dfbench::protocol {
namespace {

TEST(ServerUrl, TheFormsMemtierAndRedisCliTake) {
  auto u = ParseServerUrl("rediss://bench:s%40cret@cache.example.com:6380/2");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->user, "bench");
  EXPECT_EQ(u->password, "s@cret");
  EXPECT_EQ(u->host, "cache.example.com");
  EXPECT_EQ(u->port, 6380);
  EXPECT_EQ(u->db, 2);
  EXPECT_EQ(Redacted(*u), "rediss://bench@cache.example.com:6380/2");

  u = ParseServerUrl("redis://10.0.0.5");
  ASSERT_TRUE(u);
  EXPECT_FALSE(u->tls);
  EXPECT_EQ(u->port, 6379);
  EXPECT_TRUE(u->user.empty() && u->password.empty());

  u = ParseServerUrl("redis://:p:w@[::1]:7000");  // no user; a password with a colon
  ASSERT_TRUE(u);
  EXPECT_EQ(u->password, "p:w");
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 7000);
  EXPECT_EQ(Redacted(*u), "redis://[::1]:7000");

  u = ParseServerUrl("redis://secret@host");  // a lone word is the password
  ASSERT_TRUE(u);
  EXPECT_EQ(u->password, "secret");
  EXPECT_TRUE(u->user.empty());
}

TEST(ServerUrl, WhatIsWrongIsNamedButNeverThePassword) {
  for (const auto& [url, fragment] :
       {std::pair{"http://host", "use redis://"}, std::pair{"redis://", "no host"},
        std::pair{"redis://u:hunter2@host:0", "port '0'"},
        std::pair{"redis://u:hunter2@host:99999", "port '99999'"},
        std::pair{"redis://u:hunter2@host/x", "database 'x'"},
        std::pair{"redis://u:hun%zzter2@host", "%-escape"}}) {
    auto u = ParseServerUrl(url);
    ASSERT_FALSE(u) << url;
    EXPECT_EQ(u.error().kind, core::ErrorKind::kUsage);
    EXPECT_NE(u.error().message.find(fragment), std::string::npos) << u.error().message;
    EXPECT_EQ(u.error().message.find("hunter2"), std::string::npos) << u.error().message;
    EXPECT_EQ(u.error().message.find("hun%zzter2"), std::string::npos) << u.error().message;
  }
}

}  // namespace
}  // namespace dfbench::protocol
