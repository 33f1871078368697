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
  EXPECT_TRUE(u->bare_userinfo);
}

TEST(ServerUrl, UserinfoAsRedisCliReadsIt) {
  // ":pass@": the default user and a password; never the password as a user name.
  auto u = ParseServerUrl("redis://:S3cr3tPa55@host");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->user, "");
  EXPECT_EQ(u->password, "S3cr3tPa55");
  EXPECT_FALSE(u->bare_userinfo);
  EXPECT_EQ(Redacted(*u).find("S3cr3tPa55"), std::string::npos);

  u = ParseServerUrl("redis://bench:pw@host");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->user, "bench");
  EXPECT_EQ(u->password, "pw");

  u = ParseServerUrl("redis://bench:@host");  // a user, no password
  ASSERT_TRUE(u);
  EXPECT_EQ(u->user, "bench");
  EXPECT_EQ(u->password, "");
  EXPECT_FALSE(u->bare_userinfo);

  u = ParseServerUrl("redis://@host");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->user.empty() && u->password.empty());

  // An unescaped '@' or '/' in the password stays in the password.
  u = ParseServerUrl("redis://bench:p@ss/w0rd@host:7000/3");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->password, "p@ss/w0rd");
  EXPECT_EQ(u->host, "host");
  EXPECT_EQ(u->port, 7000);
  EXPECT_EQ(u->db, 3);

  u = ParseServerUrl("redis://us%3Aer:%2F%25pw@host");  // percent-decoding
  ASSERT_TRUE(u);
  EXPECT_EQ(u->user, "us:er");
  EXPECT_EQ(u->password, "/%pw");
  EXPECT_EQ(Redacted(*u), "redis://us%3Aer@host:6379");
  auto again = ParseServerUrl(Redacted(*u));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->password, "us:er");  // a record's lone word: its reader takes it as the user
  EXPECT_TRUE(again->bare_userinfo);
}

TEST(ServerUrl, DatabaseAndHosts) {
  auto u = ParseServerUrl("redis://127.0.0.1:6380/5");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->db, 5);
  EXPECT_EQ(Redacted(*u), "redis://127.0.0.1:6380/5");

  u = ParseServerUrl("redis://host/");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->db, 0);

  u = ParseServerUrl("REDISS://[::1]:6380/2");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 6380);
  EXPECT_EQ(u->db, 2);
  EXPECT_EQ(Redacted(*u), "rediss://[::1]:6380/2");

  u = ParseServerUrl("redis://[fe80::1]");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "fe80::1");
  EXPECT_EQ(u->port, 6379);

  for (const auto& [url, fragment] :
       {std::pair{"redis://host/-1", "database '-1'"}, std::pair{"redis://host/5x", "database"},
        std::pair{"redis://host?db=5", "no query"}, std::pair{"redis://host/5?db=6", "no query"},
        std::pair{"redis://::1:6379", "brackets"}, std::pair{"redis://[::1", "unclosed"},
        std::pair{"redis://[::1]x", "after ']'"}, std::pair{"redis://[]:6379", "no host"},
        std::pair{"redis://host:", "port ''"}}) {
    auto bad = ParseServerUrl(url);
    ASSERT_FALSE(bad) << url;
    EXPECT_EQ(bad.error().kind, core::ErrorKind::kUsage);
    EXPECT_NE(bad.error().message.find(fragment), std::string::npos) << bad.error().message;
  }
}

TEST(ServerUrl, WhatIsWrongIsNamedButNeverThePassword) {
  for (const auto& [url, fragment] :
       {std::pair{"http://host", "use redis://"}, std::pair{"redis://", "no host"},
        std::pair{"redis://u:hunter2@host:0", "port '0'"},
        std::pair{"redis://u:hunter2@host:99999", "port '99999'"},
        std::pair{"redis://u:hunter2@host/x", "database 'x'"},
        std::pair{"redis://:hunter2@::1", "brackets"},
        std::pair{"redis://:hunter2@host?x", "no query"},
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
