#include "loadgen/config.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "loadgen/schedule_grid.h"

namespace dfbench::loadgen {
namespace {

using core::ErrorKind;

Config ParseOk(const Options& o) {
  auto c = ParseOptions(o);
  EXPECT_TRUE(c) << c.error().message;
  return c ? *c : Config{};
}

void ExpectUsage(const Options& o, const std::string& fragment) {
  auto c = ParseOptions(o);
  ASSERT_FALSE(c) << "accepted; expected an error containing '" << fragment << "'";
  EXPECT_EQ(c.error().kind, ErrorKind::kUsage);
  EXPECT_NE(c.error().message.find(fragment), std::string::npos) << c.error().message;
}

TEST(LoadgenConfig, DefaultsAreMemtiers) {
  Config c = ParseOk(Options{});
  EXPECT_EQ(c.server, "127.0.0.1");
  EXPECT_EQ(c.port, 6379);
  EXPECT_EQ(c.protocol, Protocol::kRedis);
  EXPECT_EQ(c.load.threads, 4);
  EXPECT_EQ(c.load.clients, 50);
  EXPECT_EQ(c.load.pipeline, 1);
  EXPECT_EQ(c.pass.requests_per_client, 10000u);
  EXPECT_FALSE(c.by_time());
  EXPECT_EQ(c.load.ratio.set, 1u);
  EXPECT_EQ(c.load.ratio.get, 10u);
  EXPECT_EQ(c.load.data_size, 32);
  EXPECT_EQ(c.load.key_prefix, "memtier-");
  EXPECT_EQ(c.load.key_minimum, 0u);
  EXPECT_EQ(c.load.key_maximum, 10000000u);
  EXPECT_EQ(c.KeyPatternString(), "R:R");
  EXPECT_DOUBLE_EQ(c.KeyMedian(), 5000000.0);
  EXPECT_DOUBLE_EQ(c.KeyStddev(), 10000001.0 / 6);
  EXPECT_DOUBLE_EQ(c.key_zipf_exp, 1.0);
  EXPECT_FALSE(c.open_loop());
  EXPECT_EQ(c.load.percentiles, (std::vector<double>{50, 99, 99.9}));
  EXPECT_EQ(c.reconnect, ReconnectPolicy::kOn);
}

TEST(LoadgenConfig, ParsesValues) {
  Options o;
  o.test_time = "2m";
  o.ratio = "1:0";
  o.key_pattern = "S:G";
  o.data_size_range = "10-20";
  o.expiry_range = "5-9";
  o.rate = "50k";
  o.warmup_time = "500ms";
  o.protocol = "memcache_text";
  o.print_percentiles = "50,99.99,100";
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
  EXPECT_EQ(c.load.percentiles, (std::vector<double>{50, 99.99, 100}));
}

TEST(LoadgenConfig, TestTimeBareNumberIsSeconds) {
  Options o;
  o.test_time = "10";
  EXPECT_EQ(ParseOk(o).pass.test_time, std::chrono::seconds(10));
}

TEST(LoadgenConfig, RejectsBadInput) {
  // Each case: options that differ from the defaults, and a part of the one-line error.
  const std::vector<std::pair<Options, std::string>> cases = {
      {{.ratio = "1-10"}, "--ratio"},
      {{.ratio = "0:0"}, "both sides are 0"},
      {{.key_minimum = 10, .key_maximum = 5},
       "--key-minimum (10) is greater than --key-maximum (5)"},
      {{.data_size = 0}, "--data-size must be greater than 0"},
      {{.key_pattern = "P:R"}, "P:P"},
      {{.key_pattern = "X:R"}, "unknown key pattern letter 'X'"},
      {{.key_pattern = "RR"}, "--key-pattern"},
      {{.protocol = "memcache_binary"}, "--protocol"},
      {{.requests = "100", .test_time = "10s"}, "mutually exclusive"},
      {{.requests = "lots"}, "--requests"},
      {{.expiry_range = "0-10"}, "--expiry-range"},
      {{.data_size_range = "20-10"}, "--data-size-range"},
      {{.key_zipf_exp = 0}, "--key-zipf-exp"},
      {{.threads = 0}, "--threads"},
      {{.pipeline = 0}, "--pipeline"},
      {{.print_percentiles = "50,abc"}, "--print-percentiles"},
      {{.rate = "0"}, "--rate"},
      {{.reconnect = "maybe"}, "--reconnect"},
      {{.progress = "loud"}, "--progress"},
      {{.options_error = "--command-ratio must follow the --command it applies to"},
       "--command-ratio must follow"},
      {{.password = "x", .protocol = "memcache_text"}, "--authenticate"},
      {{.protocol = "resp4"}, "use redis, resp2, resp3 or memcache_text"},
      {{.user = "bench"}, "--user bench needs its password (-a)"},
      {{.unix_socket = "/tmp/r.sock", .cluster_mode = true}, "--unix-socket does not work"},
      {{.unix_socket = "/tmp/r.sock", .tls = {.enabled = true}}, "--tls works over TCP only"},
      {{.tls = {.cacert = "ca.crt"}}, "need --tls"},
      {{.uri = "http://cache"}, "--uri: server URL: use redis://"},
      {{.uri = "redis://u:pw@cache/x"}, "--uri: server URL: database 'x' is not a number"},
  };
  for (const auto& [options, fragment] : cases) {
    SCOPED_TRACE(fragment);
    ExpectUsage(options, fragment);
  }
}

// memtier's -a: PASS, USER:PASS, or :PASS for a password with a colon; --user takes -a whole.
TEST(LoadgenConfig, CredentialsAndTheCommandEveryConnectionOpensWith) {
  using Args = std::vector<std::string>;
  // The one command a setup without a database opens with (empty when none).
  const auto only = [](const Config& c) {
    const auto setup = c.ConnectionSetup();
    EXPECT_LE(setup.size(), 1u);
    return setup.empty() ? Args{} : setup.front();
  };
  const auto setup = [&](const Options& o) { return only(ParseOk(o)); };
  EXPECT_EQ(setup({}), Args{});
  EXPECT_EQ(setup({.password = "pw"}), (Args{"AUTH", "pw"}));
  EXPECT_EQ(setup({.password = "bench:pw"}), (Args{"AUTH", "bench", "pw"}));
  EXPECT_EQ(setup({.password = ":a:b"}), (Args{"AUTH", "a:b"}));
  EXPECT_EQ(setup({.password = "a:b", .user = "bench"}), (Args{"AUTH", "bench", "a:b"}));
  EXPECT_EQ(setup({.protocol = "resp3"}), (Args{"HELLO", "3"}));
  EXPECT_EQ(setup({.password = "pw", .protocol = "resp3"}),
            (Args{"HELLO", "3", "AUTH", "default", "pw"}));
  EXPECT_EQ(setup({.password = "bench:pw", .protocol = "resp2"}),
            (Args{"HELLO", "2", "AUTH", "bench", "pw"}));
  EXPECT_EQ(ParseOk({.protocol = "redis"}).resp_version, 0);
  // --uri, as memtier: it names the server, TLS and the user, over -s, -p and -a.
  const Config uri =
      ParseOk({.server = "ignored", .uri = "rediss://bench:pw@cache:6380", .password = "other"});
  EXPECT_EQ(uri.Where(), "cache:6380");
  EXPECT_TRUE(uri.tls.enabled);
  EXPECT_EQ(only(uri), (Args{"AUTH", "bench", "pw"}));
  EXPECT_EQ(only(ParseOk({.uri = "redis://cache", .password = "pw"})), (Args{"AUTH", "pw"}));
  // ":pw@" is the default user's password, never a user name.
  EXPECT_EQ(only(ParseOk({.uri = "redis://:S3cr3tPa55@cache"})), (Args{"AUTH", "S3cr3tPa55"}));
  EXPECT_EQ(ParseOk({.unix_socket = "/run/redis.sock"}).Where(), "/run/redis.sock");
}

// --select-db as memtier's: SELECT after AUTH/HELLO on every connection; --uri's /N over it.
TEST(LoadgenConfig, SelectDbOpensEveryConnection) {
  using Cmds = std::vector<std::vector<std::string>>;
  EXPECT_EQ(ParseOk({.select_db = 5}).ConnectionSetup(), (Cmds{{"SELECT", "5"}}));
  EXPECT_EQ(ParseOk({.password = "pw", .select_db = 5}).ConnectionSetup(),
            (Cmds{{"AUTH", "pw"}, {"SELECT", "5"}}));
  EXPECT_EQ(ParseOk({.select_db = 2, .protocol = "resp3"}).ConnectionSetup(),
            (Cmds{{"HELLO", "3"}, {"SELECT", "2"}}));
  EXPECT_EQ(ParseOk({.uri = "redis://:pw@cache/7", .select_db = 3}).ConnectionSetup(),
            (Cmds{{"AUTH", "pw"}, {"SELECT", "7"}}));
  EXPECT_EQ(ParseOk({.uri = "redis://cache", .select_db = 3}).select_db, 3);
  EXPECT_TRUE(ParseOk({.select_db = 0}).ConnectionSetup().empty());
  ExpectUsage({.select_db = -1}, "--select-db");
  ExpectUsage({.select_db = 1, .protocol = "memcache_text"}, "--select-db");
  ExpectUsage({.select_db = 1, .cluster_mode = true}, "database 0 only");
  ExpectUsage({.uri = "redis://cache/1", .cluster_mode = true}, "database 0 only");
}

TEST(LoadgenConfig, CommandTemplates) {
  Options o;
  o.commands = {{"LPUSH __key__ __data__", 2, core::KeyPattern::kSequential}, {"LPOP __key__"}};
  Config c = ParseOk(o);
  ASSERT_EQ(c.commands.size(), 2u);
  EXPECT_EQ(c.KeyPatternString(), "S,R");

  o.commands = {{"SET __key__ __dta__"}};
  ExpectUsage(o, "unknown placeholder '__dta__'");
  o.commands = {{"SET \"__key__"}};
  ExpectUsage(o, "unterminated quote");
  o.commands = {{"   "}};
  ExpectUsage(o, "--command");
  o.commands = {{"GET __key__"}};
  o.ratio = "1:1";
  ExpectUsage(o, "--ratio cannot be combined with --command");
  o.ratio.clear();
  o.key_pattern = "R:R";
  ExpectUsage(o, "--key-pattern cannot be combined with --command");
  o.key_pattern.clear();
  o.commands = {{"SET __key__ __data__", 1, core::KeyPattern::kParallel}, {"GET __key__"}};
  ExpectUsage(o, "P:P");
  o.commands = {{"GET __key__"}};
  o.protocol = "memcache_text";
  ExpectUsage(o, "--command is only supported with --protocol redis");
}

TEST(LoadgenConfig, ParallelNeedsAKeyPerClient) {
  Options o;
  o.key_pattern = "P:P";
  o.key_maximum = 9;  // 10 keys
  o.threads = 2;
  o.clients = 6;
  ExpectUsage(o, "at least one key per client");
  o.clients = 5;
  ParseOk(o);
}

TEST(LoadgenConfig, AllKeysWithParallelCoversTheRangeOnce) {
  Options o;
  o.key_pattern = "P:P";
  o.requests = "allkeys";
  o.key_minimum = 1;
  o.key_maximum = 10001;  // 10001 keys over 12 clients: uneven slices
  o.threads = 3;
  o.clients = 4;
  Config c = ParseOk(o);
  uint64_t total = 0;
  uint64_t next = c.load.key_minimum;
  for (int i = 0; i < c.total_clients(); ++i) {
    KeySlice s = ParallelSlice(c.load.key_minimum, c.load.key_maximum, i, c.total_clients());
    EXPECT_EQ(s.first, next) << i;
    EXPECT_EQ(c.RequestsForClient(i), s.size());
    next = s.last + 1;
    total += c.RequestsForClient(i);
  }
  EXPECT_EQ(next, c.load.key_maximum + 1);
  EXPECT_EQ(total, 10001u);
}

TEST(LoadgenConfig, AllKeysWithoutParallelIsTheWholeRangePerClient) {
  Options o;
  o.requests = "allkeys";
  o.key_maximum = 999;
  Config c = ParseOk(o);
  EXPECT_EQ(c.RequestsForClient(0), 1000u);
  EXPECT_EQ(c.RequestsForClient(7), 1000u);
}

TEST(LoadgenConfig, AScheduleTickIsOneClientIntervalAndAtMostTwoMilliseconds) {
  // 1 thread x 10 clients at 30,000 ops/s: a client's request every 333,333 ns.
  Config fast = ParseOk({.threads = 1, .clients = 10, .rate = "30000"});
  EXPECT_DOUBLE_EQ(fast.ClientIntervalNs(), 1e9 / 3000);
  EXPECT_EQ(fast.ScheduleTickNs(), 333'333);
  Config eight_k = ParseOk({.threads = 1, .clients = 10, .rate = "8000"});
  EXPECT_EQ(eight_k.ScheduleTickNs(), 1'250'000);
  // At 2,000 ops/s a client's interval is 5 ms: the tick stays at 2 ms.
  Config slow = ParseOk({.threads = 1, .clients = 10, .rate = "2000"});
  EXPECT_EQ(slow.ScheduleTickNs(), 2'000'000);
}

TEST(LoadgenConfig, OnlyTheOpenLoopOverPlainTcpTimesRepliesByTheKernelsStamps) {
  EXPECT_FALSE(ParseOk({}).RepliesStampedByKernel());  // closed loop: every reply read at once
  EXPECT_TRUE(ParseOk({.rate = "1000"}).RepliesStampedByKernel());
  EXPECT_FALSE(ParseOk({.unix_socket = "/tmp/s", .rate = "1000"}).RepliesStampedByKernel());
  EXPECT_FALSE(ParseOk({.tls = {.enabled = true}, .rate = "1000"}).RepliesStampedByKernel());
  EXPECT_FALSE(ParseOk({.rate = "1000", .cluster_mode = true}).RepliesStampedByKernel());
}

TEST(ScheduleGrid, ATicksDueTimesAreItsStartAndNeverLater) {
  const ScheduleGrid grid(1000, 0, 1);
  const int64_t start = 5'000'000;
  EXPECT_EQ(grid.TickStart(start, start), start);
  EXPECT_EQ(grid.TickStart(start, start + 999), start);
  EXPECT_EQ(grid.TickStart(start, start + 1000), start + 1000);
  EXPECT_EQ(grid.TickStart(start, start + 2500), start + 2000);
}

TEST(ScheduleGrid, ThreadsTicksAreSpreadOverATick) {
  const int64_t start = 7'000'000;
  // Thread 1 of 4 ticks a quarter of a tick after thread 0.
  const ScheduleGrid second(1000, 1, 4);
  EXPECT_EQ(second.TickStart(start, start), start - 750);
  EXPECT_EQ(second.TickStart(start, start + 249), start - 750);
  EXPECT_EQ(second.TickStart(start, start + 250), start + 250);
  // Without a grid every instant is its own due time.
  EXPECT_EQ(ScheduleGrid().TickStart(start, start + 123), start + 123);
}

TEST(LoadgenConfig, PercentileList) {
  EXPECT_EQ(*ParsePercentiles("99"), std::vector<double>{99});
  EXPECT_FALSE(ParsePercentiles(""));
  EXPECT_FALSE(ParsePercentiles("50,"));
  EXPECT_FALSE(ParsePercentiles("0"));
  EXPECT_FALSE(ParsePercentiles("100.5"));
}

}  // namespace
}  // namespace dfbench::loadgen
