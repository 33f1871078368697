#include "cli/loadgen/loadgen_options.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/tls.h"

namespace dfbench::cli {
namespace {

using core::ErrorKind;
using loadgen::Config;
using loadgen::Protocol;

Config ParseOk(const LoadgenOptions& o) {
  auto c = ParseLoadgenOptions(o);
  EXPECT_TRUE(c) << c.error().message;
  return c ? *c : Config{};
}

void ExpectUsage(const LoadgenOptions& o, const std::string& fragment) {
  auto c = ParseLoadgenOptions(o);
  ASSERT_FALSE(c) << "accepted; expected an error containing '" << fragment << "'";
  EXPECT_EQ(c.error().kind, ErrorKind::kUsage);
  EXPECT_NE(c.error().message.find(fragment), std::string::npos) << c.error().message;
}

// `o` with the flags that land in Config directly set by `given`.
LoadgenOptions Given(const std::function<void(Config&)>& given, LoadgenOptions o = {}) {
  given(o.config);
  return o;
}

TEST(LoadgenOptions, ParsesValues) {
  LoadgenOptions o;
  o.test_time = "2m";
  o.ratio = "1:0";
  o.key_pattern = "S:G";
  o.data_size_range = "10-20";
  o.expiry_range = "5-9";
  o.rate = "50k";
  o.warmup_time = "500ms";
  o.protocol = "memcache_text";
  Config c = ParseOk(o);
  EXPECT_EQ(c.pass.test_time, std::chrono::minutes(2));
  EXPECT_EQ(c.pass.requests_per_client, 0u);
  EXPECT_EQ(c.load.ratio.set, 1u);
  EXPECT_EQ(c.load.ratio.get, 0u);
  EXPECT_EQ(c.set_pattern, core::KeyPattern::kSequential);
  EXPECT_EQ(c.get_pattern, core::KeyPattern::kGaussian);
  EXPECT_EQ(c.data_size_min, 10u);
  EXPECT_EQ(c.data_size_max, 20u);
  EXPECT_EQ(c.expiry_min_s, 5u);
  EXPECT_EQ(c.expiry_max_s, 9u);
  EXPECT_DOUBLE_EQ(c.pass.rate_per_sec, 50000);
  EXPECT_EQ(c.pass.warmup_time, std::chrono::milliseconds(500));
  EXPECT_EQ(c.protocol, Protocol::kMemcacheText);
  EXPECT_EQ(*ParsePercentiles("50,99.99,100"), (std::vector<double>{50, 99.99, 100}));
}

TEST(LoadgenOptions, ParsesValueShapes) {
  Config c = ParseOk({.data_size_list = "10:2,300:0,4096:1", .data_size_pattern = "R"});
  ASSERT_EQ(c.data_size_list.size(), 3u);
  EXPECT_EQ(c.data_size_list[0].size, 10u);
  EXPECT_EQ(c.data_size_list[0].weight, 2u);
  EXPECT_EQ(c.data_size_list[1].weight, 0u);
  EXPECT_EQ(c.data_size_list[2].size, 4096u);
  EXPECT_FALSE(c.data_size_by_key);
  EXPECT_EQ(ParseOk({.data_size_list = "10:1,"}).data_size_list.size(), 1u);  // as memtier
  c = ParseOk({.data_size_range = "10-20", .data_size_pattern = "S"});
  EXPECT_TRUE(c.data_size_by_key);
  EXPECT_EQ(c.data_size_max, 20u);
}

// memtier's --tls-protocols: any case, empty items skipped.
TEST(LoadgenOptions, TlsProtocolsAreTheVersionsListed) {
  LoadgenOptions o = Given([](Config& c) { c.tls.enabled = true; });
  o.tls_protocols = "tlsv1.2,,TLSv1.3";
  EXPECT_EQ(ParseOk(o).tls.protocols, protocol::kTlsV1_2 | protocol::kTlsV1_3);
  o.tls_protocols = "TLSv1,TLSv1.1";
  EXPECT_EQ(ParseOk(o).tls.protocols, protocol::kTlsV1 | protocol::kTlsV1_1);
  o.tls_protocols = "";
  EXPECT_EQ(ParseOk(o).tls.protocols, 0U);
}

// memtier's --rate-limiting N is per connection: the open loop at N x connections in total.
TEST(LoadgenOptions, RateLimitingIsTheOpenLoopAtNPerConnection) {
  LoadgenOptions o = Given([](Config& c) {
    c.load.threads = 2;
    c.load.clients = 3;
  });
  o.rate_limiting = "100";
  const Config c = ParseOk(o);
  EXPECT_TRUE(c.open_loop());
  EXPECT_DOUBLE_EQ(c.pass.rate_per_sec, 600);
  EXPECT_EQ(c.rate_limit_per_connection, 100u);
  EXPECT_DOUBLE_EQ(c.ClientIntervalNs(), 1e7);  // 1/100 s between one connection's requests
}

TEST(LoadgenOptions, TestTimeBareNumberIsSeconds) {
  EXPECT_EQ(ParseOk({.test_time = "10"}).pass.test_time, std::chrono::seconds(10));
}

// --start-at lands in the pass, whatever length --test-time or --requests gives it.
TEST(LoadgenOptions, TheLengthKeepsTheStartInstant) {
  const auto starting = [](LoadgenOptions o) {
    return Given([](Config& c) { c.pass.start_at_us = 42; }, std::move(o));
  };
  EXPECT_EQ(ParseOk(starting({.test_time = "10"})).pass.start_at_us, 42);
  EXPECT_EQ(ParseOk(starting({.requests = "allkeys"})).pass.start_at_us, 42);
}

// memtier's reconnect flags given as text: an attempt count (0 is memtier's unlimited) and the
// backoff factor (0 is memtier's default: 1 s each); refused when they cannot apply.
TEST(LoadgenOptions, MemtiersReconnectFlags) {
  Config c = ParseOk({.max_reconnect_attempts = "0", .reconnect_backoff_factor = "0"});
  EXPECT_EQ(c.max_reconnect_attempts, 0U);
  EXPECT_EQ(c.reconnect_backoff_factor, 0.0);
  c = ParseOk({.reconnect_on_error = true, .reconnect_backoff_factor = "2.5"});
  EXPECT_EQ(c.reconnect, loadgen::ReconnectPolicy::kOn);
  EXPECT_EQ(c.reconnect_backoff_factor, 2.5);
  const std::vector<std::pair<LoadgenOptions, std::string>> cases = {
      {{.max_reconnect_attempts = "many"}, "invalid --max-reconnect-attempts 'many'"},
      {{.max_reconnect_attempts = "4294967296"}, "invalid --max-reconnect-attempts"},
      {{.reconnect_backoff_factor = "-1"}, "invalid --reconnect-backoff-factor '-1'"},
      {{.reconnect_backoff_factor = "inf"}, "invalid --reconnect-backoff-factor"},
      {{.reconnect = "off", .reconnect_on_error = true}, "contradicts --reconnect off"},
      {{.reconnect = "off", .max_reconnect_attempts = "3"}, "need reconnects"},
      {Given([](Config& c) {
         c.reconnect_interval = 10;
         c.cluster_mode = true;
       }),
       "--reconnect-interval does not work with --cluster-mode"},
  };
  for (const auto& [options, fragment] : cases) {
    SCOPED_TRACE(fragment);
    ExpectUsage(options, fragment);
  }
}

TEST(LoadgenOptions, RejectsBadInput) {
  // Each case: options that differ from the defaults, and a part of the one-line error.
  const std::vector<std::pair<LoadgenOptions, std::string>> cases = {
      {{.ratio = "1-10"}, "--ratio"},
      {{.ratio = "0:0"}, "both sides are 0"},
      {Given([](Config& c) {
         c.load.key_minimum = 10;
         c.load.key_maximum = 5;
       }),
       "--key-minimum (10) is greater than --key-maximum (5)"},
      {Given([](Config& c) { c.load.data_size = 0; }), "--data-size must be greater than 0"},
      {{.key_pattern = "P:R"}, "P:P"},
      {{.key_pattern = "X:R"}, "unknown key pattern letter 'X'"},
      {{.key_pattern = "RR"}, "--key-pattern"},
      {{.protocol = "memcache_binary"}, "--protocol"},
      {{.requests = "100", .test_time = "10s"}, "mutually exclusive"},
      {{.requests = "lots"}, "--requests"},
      {{.expiry_range = "0-10"}, "--expiry-range"},
      {{.data_size_range = "20-10"}, "--data-size-range"},
      // memtier's refusals of mixed value sizes and of a malformed list or pattern.
      {{.data_size_range = "1-2", .data_size_list = "10:1"},
       "--data-size-list cannot be used with --data-size-range"},
      {{.data_size_given = true, .data_size_list = "10:1"},
       "--data-size cannot be used with --data-size-list or --data-size-range"},
      {{.data_size_range = "1-2", .data_size_given = true},
       "--data-size cannot be used with --data-size-list or --data-size-range"},
      {{.data_size_list = "10"}, "invalid --data-size-list '10'"},
      {{.data_size_list = "10:1,,"}, "invalid --data-size-list"},
      {{.data_size_list = "10:x"}, "invalid --data-size-list"},
      {{.data_size_list = "-1:1"}, "invalid --data-size-list"},
      {{.data_size_list = "10:0"}, "--data-size-list needs a weight above 0"},
      {{.data_size_pattern = "G"}, "invalid --data-size-pattern 'G' (use R or S)"},
      {{.tls_protocols = "TLSv1.3"}, "--tls-protocols need --tls"},
      {{.rate = "1000", .rate_limiting = "10"}, "--rate-limiting (per connection) and --rate"},
      {{.rate_limiting = "0"}, "--rate-limiting must be greater than 0"},
      {Given([](Config& c) { c.tls.enabled = true; }, {.tls_protocols = "TLSv1.2,SSLv3"}),
       "invalid --tls-protocols 'TLSv1.2,SSLv3' (use a combination of TLSv1, TLSv1.1, TLSv1.2 "
       "and TLSv1.3)"},
      {Given([](Config& c) { c.key_zipf_exp = 0; }), "--key-zipf-exp"},
      {Given([](Config& c) { c.load.threads = 0; }), "--threads"},
      {Given([](Config& c) { c.load.pipeline = 0; }), "--pipeline"},
      {{.rate = "0"}, "--rate"},
      {{.reconnect = "maybe"}, "--reconnect"},
      {{.progress = "loud"}, "--progress"},
      {{.options_error = "--command-ratio must follow the --command it applies to"},
       "--command-ratio must follow"},
      {{.password = "x", .protocol = "memcache_text"}, "--authenticate"},
      {{.protocol = "resp4"}, "use redis, resp2, resp3 or memcache_text"},
      {Given([](Config& c) { c.user = "bench"; }), "--user bench needs its password (-a)"},
      {Given([](Config& c) {
         c.unix_socket = "/tmp/r.sock";
         c.cluster_mode = true;
       }),
       "--unix-socket does not work"},
      {Given([](Config& c) {
         c.unix_socket = "/tmp/r.sock";
         c.tls.enabled = true;
       }),
       "--tls works over TCP only"},
      {Given([](Config& c) { c.tls.cacert = "ca.crt"; }), "need --tls"},
      {{.uri = "http://cache"}, "--uri: server URL: use redis://"},
      {{.uri = "redis://u:pw@cache/x"}, "--uri: server URL: database 'x' is not a number"},
  };
  for (const auto& [options, fragment] : cases) {
    SCOPED_TRACE(fragment);
    ExpectUsage(options, fragment);
  }
  const auto percentiles = ParsePercentiles("50,abc");
  ASSERT_FALSE(percentiles);
  EXPECT_EQ(percentiles.error().kind, ErrorKind::kUsage);
  EXPECT_NE(percentiles.error().message.find("--print-percentiles"), std::string::npos);
}

// memtier's -a: PASS, USER:PASS, or :PASS for a password with a colon; --user takes -a whole.
TEST(LoadgenOptions, CredentialsAndTheCommandEveryConnectionOpensWith) {
  using Args = std::vector<std::string>;
  // The one command a setup without a database opens with (empty when none).
  const auto only = [](const Config& c) {
    const auto setup = c.ConnectionSetup();
    EXPECT_LE(setup.size(), 1u);
    return setup.empty() ? Args{} : setup.front();
  };
  const auto setup = [&](const LoadgenOptions& o) { return only(ParseOk(o)); };
  const auto as_bench = [](LoadgenOptions o) {
    return Given([](Config& c) { c.user = "bench"; }, std::move(o));
  };
  EXPECT_EQ(setup({}), Args{});
  EXPECT_EQ(setup({.password = "pw"}), (Args{"AUTH", "pw"}));
  EXPECT_EQ(setup({.password = "bench:pw"}), (Args{"AUTH", "bench", "pw"}));
  EXPECT_EQ(setup({.password = ":a:b"}), (Args{"AUTH", "a:b"}));
  EXPECT_EQ(setup(as_bench({.password = "a:b"})), (Args{"AUTH", "bench", "a:b"}));
  EXPECT_EQ(setup({.protocol = "resp3"}), (Args{"HELLO", "3"}));
  EXPECT_EQ(setup({.password = "pw", .protocol = "resp3"}),
            (Args{"HELLO", "3", "AUTH", "default", "pw"}));
  EXPECT_EQ(setup({.password = "bench:pw", .protocol = "resp2"}),
            (Args{"HELLO", "2", "AUTH", "bench", "pw"}));
  EXPECT_EQ(ParseOk({.protocol = "redis"}).resp_version, 0);
  // --uri, as memtier: it names the server, TLS and the user, over -s, -p and -a.
  const Config uri = ParseOk(Given([](Config& c) { c.server = "ignored"; },
                                   {.uri = "rediss://bench:pw@cache:6380", .password = "other"}));
  EXPECT_EQ(uri.Where(), "cache:6380");
  EXPECT_TRUE(uri.tls.enabled);
  EXPECT_EQ(only(uri), (Args{"AUTH", "bench", "pw"}));
  EXPECT_EQ(only(ParseOk({.uri = "redis://cache", .password = "pw"})), (Args{"AUTH", "pw"}));
  // ":pw@" is the default user's password, never a user name.
  EXPECT_EQ(only(ParseOk({.uri = "redis://:S3cr3tPa55@cache"})), (Args{"AUTH", "S3cr3tPa55"}));
  EXPECT_EQ(ParseOk(Given([](Config& c) { c.unix_socket = "/run/redis.sock"; })).Where(),
            "/run/redis.sock");
}

// --select-db as memtier's: SELECT after AUTH/HELLO on every connection; --uri's /N over it.
TEST(LoadgenOptions, SelectDbOpensEveryConnection) {
  using Cmds = std::vector<std::vector<std::string>>;
  const auto in_db = [](int db, LoadgenOptions o = {}) {
    return Given([db](Config& c) { c.select_db = db; }, std::move(o));
  };
  EXPECT_EQ(ParseOk(in_db(5)).ConnectionSetup(), (Cmds{{"SELECT", "5"}}));
  EXPECT_EQ(ParseOk(in_db(5, {.password = "pw"})).ConnectionSetup(),
            (Cmds{{"AUTH", "pw"}, {"SELECT", "5"}}));
  EXPECT_EQ(ParseOk(in_db(2, {.protocol = "resp3"})).ConnectionSetup(),
            (Cmds{{"HELLO", "3"}, {"SELECT", "2"}}));
  EXPECT_EQ(ParseOk(in_db(3, {.uri = "redis://:pw@cache/7"})).ConnectionSetup(),
            (Cmds{{"AUTH", "pw"}, {"SELECT", "7"}}));
  EXPECT_EQ(ParseOk(in_db(3, {.uri = "redis://cache"})).select_db, 3);
  EXPECT_TRUE(ParseOk(in_db(0)).ConnectionSetup().empty());
  ExpectUsage(in_db(-1), "--select-db");
  ExpectUsage(in_db(1, {.protocol = "memcache_text"}), "--select-db");
  const auto in_cluster = [](LoadgenOptions o) {
    return Given([](Config& c) { c.cluster_mode = true; }, std::move(o));
  };
  ExpectUsage(in_cluster(in_db(1)), "database 0 only");
  ExpectUsage(in_cluster({.uri = "redis://cache/1"}), "database 0 only");
}

TEST(LoadgenOptions, RatioAndKeyPatternAreNotForCommands) {
  LoadgenOptions o = Given([](Config& c) { c.commands = {{"GET __key__"}}; });
  o.ratio = "1:1";
  ExpectUsage(o, "--ratio cannot be combined with --command");
  o.ratio.clear();
  o.key_pattern = "R:R";
  ExpectUsage(o, "--key-pattern cannot be combined with --command");
}

TEST(LoadgenOptions, PercentileList) {
  EXPECT_EQ(*ParsePercentiles("99"), std::vector<double>{99});
  EXPECT_FALSE(ParsePercentiles(""));
  EXPECT_FALSE(ParsePercentiles("50,"));
  // memtier's ends: p0 is the fastest request, p100 the slowest.
  EXPECT_EQ(*ParsePercentiles("0,50,100"), (std::vector<double>{0, 50, 100}));
  EXPECT_FALSE(ParsePercentiles("-1"));
  EXPECT_FALSE(ParsePercentiles("100.5"));
}

}  // namespace
}  // namespace dfbench::cli
