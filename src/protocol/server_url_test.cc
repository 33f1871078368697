#include "protocol/server_url.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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
       {std::pair{"redis://cache.invalid/-1", "database '-1'"},
        std::pair{"redis://cache.invalid/5x", "database"},
        std::pair{"redis://cache.invalid?db=5", "no query"},
        std::pair{"redis://cache.invalid/5?db=6", "no query"},
        std::pair{"redis://::1:6379", "brackets"}, std::pair{"redis://[::1", "unclosed"},
        std::pair{"redis://[::1]x", "after ']'"}, std::pair{"redis://[]:6379", "no host"},
        std::pair{"redis://cache.invalid:", "port ''"},
        std::pair{"redis://cache.invalid/99999999999", "database"}}) {
    auto bad = ParseServerUrl(url);
    ASSERT_FALSE(bad) << url;
    EXPECT_EQ(bad.error().kind, core::ErrorKind::kUsage);
    EXPECT_NE(bad.error().message.find(fragment), std::string::npos) << bad.error().message;
  }
}

TEST(ServerUrl, WhatIsWrongIsNamedButNeverThePassword) {
  for (const auto& [url, fragment] :
       {std::pair{"http://cache.invalid", "use redis://"}, std::pair{"redis://", "no host"},
        std::pair{"valkey://u:hunter2@cache.invalid", "use redis://"},
        std::pair{"redis://u:hunter2@cache.invalid:0", "port '0'"},
        std::pair{"redis://u:hunter2@cache.invalid:99999", "port '99999'"},
        std::pair{"redis://u:hunter2@cache.invalid:-1", "port '-1'"},
        std::pair{"redis://u:hunter2@cache.invalid:18446744073709551616",
                  "port '18446744073709551616'"},
        std::pair{"redis://u:hunter2@cache.invalid/x", "database 'x'"},
        std::pair{"redis://:hunter2@::1", "brackets"},
        std::pair{"redis://:hunter2@cache.invalid?x", "no query"},
        std::pair{"redis://u:hun%zzter2@cache.invalid", "%-escape"},
        std::pair{"redis://u:hunter2@a\nb.invalid", "control character"}}) {
    auto u = ParseServerUrl(url);
    ASSERT_FALSE(u) << url;
    EXPECT_EQ(u.error().kind, core::ErrorKind::kUsage);
    EXPECT_NE(u.error().message.find(fragment), std::string::npos) << u.error().message;
    EXPECT_EQ(u.error().message.find("hunter2"), std::string::npos) << u.error().message;
    EXPECT_EQ(u.error().message.find("hun%zzter2"), std::string::npos) << u.error().message;
  }
}

TEST(ServerUrl, EmptyUserIsTheDefaultUser) {
  // "user:" and ":" around the password: an empty user is the default user, never a user
  // named "" sent with AUTH.
  for (const char* url : {"redis://:pw@cache.invalid", "redis://%3Apw@cache.invalid:6379"}) {
    auto u = ParseServerUrl(url);
    ASSERT_TRUE(u) << url;
    EXPECT_EQ(u->user, "") << url;
  }
  auto u = ParseServerUrl("redis://:@cache.invalid");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->user.empty() && u->password.empty());
  EXPECT_FALSE(u->bare_userinfo);
}

TEST(ServerUrl, Ipv6WithPortAndDatabase) {
  auto u = ParseServerUrl("redis://[::1]:6379");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 6379);
  EXPECT_EQ(u->db, 0);
  u = ParseServerUrl("redis://bench:pw@[::1]/7");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 6379);
  EXPECT_EQ(u->db, 7);
  EXPECT_EQ(Redacted(*u), "redis://bench@[::1]:6379/7");
}

// A host with a space or a control character is no name or address: refused before any lookup,
// whose error would carry it (a line feed would split the error's one line).
TEST(ServerUrl, ControlCharactersInTheHostAreRefused) {
  for (const std::string& url : std::vector<std::string>{
           "redis://a\nb.invalid", "redis://a\rb.invalid:6379", "redis://tab\t.invalid/0",
           "redis://sp ace.invalid", std::string("redis://nul\0.invalid", 20),
           "redis://del\x7f.invalid", "redis://esc\x1b[2J.invalid"}) {
    auto u = ParseServerUrl(url);
    ASSERT_FALSE(u) << url;
    EXPECT_EQ(u.error().kind, core::ErrorKind::kUsage);
    EXPECT_NE(u.error().message.find("control character in the host"), std::string::npos)
        << u.error().message;
    EXPECT_EQ(u.error().message.find('\n'), std::string::npos) << u.error().message;
  }
  // In the password they are the password's: never shown, so never a second line.
  auto u = ParseServerUrl("redis://u:p%0Aw\x01@cache.invalid");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->password, "p\nw\x01");
  // In a user name they are escaped where the user is shown.
  u = ParseServerUrl("redis://us%0Aer:pw@cache.invalid");
  ASSERT_TRUE(u);
  EXPECT_EQ(Redacted(*u), "redis://us%0Aer@cache.invalid:6379");
  // A host outside ASCII is a name to look up, as given.
  u = ParseServerUrl("redis://h\xc3\xa9te.invalid");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "h\xc3\xa9te.invalid");
}

}  // namespace
}  // namespace dfbench::protocol
