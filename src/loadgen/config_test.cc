#include "loadgen/config.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "loadgen/schedule_grid.h"

namespace dfbench::loadgen {
namespace {

using core::ErrorKind;

// A Config that Validate takes.
Config ValidOk(Config c) {
  const auto valid = Validate(c);
  EXPECT_TRUE(valid) << valid.error().message;
  return c;
}

void ExpectUsage(const Config& c, const std::string& fragment) {
  const auto valid = Validate(c);
  ASSERT_FALSE(valid) << "accepted; expected an error containing '" << fragment << "'";
  EXPECT_EQ(valid.error().kind, ErrorKind::kUsage);
  EXPECT_NE(valid.error().message.find(fragment), std::string::npos) << valid.error().message;
}

// `c` with `change` made to it: a case that differs from the defaults in one or two fields.
template <class Change>
Config With(Change change) {
  Config c;
  change(c);
  return c;
}

TEST(LoadgenConfig, DefaultsAreMemtiers) {
  Config c = ValidOk(Config{});
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

TEST(LoadgenConfig, RejectsBadInput) {
  // Each case: a Config that differs from the defaults, and a part of the one-line error. (The
  // flags' own refusals: cli/loadgen_options_test.cc.)
  const std::vector<std::pair<Config, std::string>> cases = {
      {With([](Config& c) {
         c.load.ratio = {0, 0};
       }),
       "both sides are 0"},
      {With([](Config& c) {
         c.load.key_minimum = 10;
         c.load.key_maximum = 5;
       }),
       "--key-minimum (10) is greater than --key-maximum (5)"},
      {With([](Config& c) { c.load.data_size = 0; }), "--data-size must be greater than 0"},
      {With([](Config& c) { c.run_count = 0; }), "--run-count must be greater than 0"},
      {With([](Config& c) { c.set_pattern = core::KeyPattern::kParallel; }), "P:P"},
      {With([](Config& c) {
         c.data_size_min = 20;
         c.data_size_max = 10;
       }),
       "--data-size-range"},
      {With([](Config& c) {
         c.data_size_list = {{10, 1}};
         c.data_size_min = 1;
         c.data_size_max = 10;
       }),
       "--data-size-list cannot be used with --data-size-range"},
      {With([](Config& c) {
         c.data_size_list = {{10, 0}, {20, 0}};
       }),
       "--data-size-list needs a weight above 0"},
      {With([](Config& c) {
         c.data_size_list = {{(64 << 20) + 1, 1}};
       }),
       "--data-size-list sizes must be at most"},
      {With([](Config& c) { c.data_offset = kMaxDataOffset + 1; }), "--data-offset too long"},
      {With([](Config& c) {
         c.data_offset = 4;
         c.expiry_min_s = 1;
         c.expiry_max_s = 2;
       }),
       "--data-offset can only be used with --protocol redis, and not with --expiry-range"},
      {With([](Config& c) {
         c.data_offset = 4;
         c.protocol = Protocol::kMemcacheText;
       }),
       "--data-offset can only be used with --protocol redis"},
      {With([](Config& c) {
         c.conn_start_jitter_min_us = 5;
         c.conn_start_jitter_max_us = 4;
       }),
       "--thread-conn-start-min-jitter-micros (5) cannot be greater than "
       "--thread-conn-start-max-jitter-micros (4)"},
      {With([](Config& c) { c.key_zipf_exp = 0; }), "--key-zipf-exp"},
      {With([](Config& c) { c.key_median = -1; }), "--key-median must not be negative"},
      {With([](Config& c) { c.load.threads = 0; }), "--threads"},
      {With([](Config& c) { c.load.pipeline = 0; }), "--pipeline"},
      {With([](Config& c) { c.load.percentiles.clear(); }), "--print-percentiles"},
      {With([](Config& c) { c.pass.requests_per_client = 0; }), "--requests"},
      {With([](Config& c) { c.pass.rate_per_sec = -1; }), "--rate"},
      {With([](Config& c) {
         c.password = "x";
         c.protocol = Protocol::kMemcacheText;
       }),
       "--authenticate"},
      {With([](Config& c) { c.user = "bench"; }), "--user bench needs its password (-a)"},
      {With([](Config& c) {
         c.unix_socket = "/tmp/r.sock";
         c.cluster_mode = true;
       }),
       "--unix-socket does not work"},
      {With([](Config& c) {
         c.unix_socket = "/tmp/r.sock";
         c.tls.enabled = true;
       }),
       "--tls works over TCP only"},
      {With([](Config& c) { c.tls.cacert = "ca.crt"; }), "need --tls"},
  };
  for (const auto& [config, fragment] : cases) {
    SCOPED_TRACE(fragment);
    ExpectUsage(config, fragment);
  }
}

// The commands every connection opens with: HELLO (with AUTH in it) when a RESP version is asked,
// else AUTH; then SELECT. (How -a, --user, --uri and --protocol read into these: cli's tests.)
TEST(LoadgenConfig, ConnectionSetupAuthenticatesThenSelects) {
  using Cmds = std::vector<std::vector<std::string>>;
  EXPECT_TRUE(ValidOk(Config{}).ConnectionSetup().empty());
  EXPECT_EQ(ValidOk(With([](Config& c) { c.password = "pw"; })).ConnectionSetup(),
            (Cmds{{"AUTH", "pw"}}));
  EXPECT_EQ(ValidOk(With([](Config& c) {
              c.user = "bench";
              c.password = "pw";
              c.resp_version = 2;
            })).ConnectionSetup(),
            (Cmds{{"HELLO", "2", "AUTH", "bench", "pw"}}));
  EXPECT_EQ(ValidOk(With([](Config& c) { c.select_db = 5; })).ConnectionSetup(),
            (Cmds{{"SELECT", "5"}}));
  EXPECT_EQ(ValidOk(With([](Config& c) {
              c.password = "pw";
              c.select_db = 5;
            })).ConnectionSetup(),
            (Cmds{{"AUTH", "pw"}, {"SELECT", "5"}}));
  EXPECT_EQ(ValidOk(With([](Config& c) {
              c.select_db = 2;
              c.resp_version = 3;
            })).ConnectionSetup(),
            (Cmds{{"HELLO", "3"}, {"SELECT", "2"}}));
  EXPECT_EQ(ValidOk(With([](Config& c) { c.unix_socket = "/run/redis.sock"; })).Where(),
            "/run/redis.sock");
  ExpectUsage(With([](Config& c) { c.select_db = -1; }), "--select-db");
  ExpectUsage(With([](Config& c) {
                c.select_db = 1;
                c.protocol = Protocol::kMemcacheText;
              }),
              "--select-db");
  ExpectUsage(With([](Config& c) {
                c.select_db = 1;
                c.cluster_mode = true;
              }),
              "database 0 only");
}

TEST(LoadgenConfig, CommandTemplates) {
  Config c;
  c.commands = {{"LPUSH __key__ __data__", 2, core::KeyPattern::kSequential}, {"LPOP __key__"}};
  c = ValidOk(c);
  ASSERT_EQ(c.commands.size(), 2u);
  EXPECT_EQ(c.KeyPatternString(), "S,R");

  c.commands = {{"SET __key__ __dta__"}};
  ExpectUsage(c, "unknown placeholder '__dta__'");
  c.commands = {{"SET \"__key__"}};
  ExpectUsage(c, "unterminated quote");
  c.commands = {{"   "}};
  ExpectUsage(c, "--command");
  c.commands = {{"SET __key__ __data__", 1, core::KeyPattern::kParallel}, {"GET __key__"}};
  ExpectUsage(c, "P:P");
  c.commands = {{"GET __key__"}};
  c.protocol = Protocol::kMemcacheText;
  ExpectUsage(c, "--command is only supported with --protocol redis");
}

TEST(LoadgenConfig, ParallelNeedsAKeyPerClient) {
  Config c;
  c.set_pattern = c.get_pattern = core::KeyPattern::kParallel;
  c.load.key_maximum = 9;  // 10 keys
  c.load.threads = 2;
  c.load.clients = 6;
  ExpectUsage(c, "at least one key per client");
  c.load.clients = 5;
  ValidOk(c);
}

TEST(LoadgenConfig, AllKeysWithParallelCoversTheRangeOnce) {
  Config c;
  c.set_pattern = c.get_pattern = core::KeyPattern::kParallel;
  c.pass = core::Pass::Fill();
  c.load.key_minimum = 1;
  c.load.key_maximum = 10001;  // 10001 keys over 12 clients: uneven slices
  c.load.threads = 3;
  c.load.clients = 4;
  c = ValidOk(c);
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
  Config c;
  c.pass = core::Pass::Fill();
  c.load.key_maximum = 999;
  c = ValidOk(c);
  EXPECT_EQ(c.RequestsForClient(0), 1000u);
  EXPECT_EQ(c.RequestsForClient(7), 1000u);
}

// `threads` x `clients` at `rate` ops/s.
Config OpenLoop(int threads, int clients, double rate) {
  Config c;
  c.load.threads = threads;
  c.load.clients = clients;
  c.pass.rate_per_sec = rate;
  return ValidOk(c);
}

TEST(LoadgenConfig, AScheduleTickIsOneClientIntervalAndAtMostTwoMilliseconds) {
  // 1 thread x 10 clients at 30,000 ops/s: a client's request every 333,333 ns.
  Config fast = OpenLoop(1, 10, 30000);
  EXPECT_DOUBLE_EQ(fast.ClientIntervalNs(), 1e9 / 3000);
  EXPECT_EQ(fast.ScheduleTickNs(), 333'333);
  Config eight_k = OpenLoop(1, 10, 8000);
  EXPECT_EQ(eight_k.ScheduleTickNs(), 1'250'000);
  // At 2,000 ops/s a client's interval is 5 ms: the tick stays at 2 ms.
  Config slow = OpenLoop(1, 10, 2000);
  EXPECT_EQ(slow.ScheduleTickNs(), 2'000'000);
}

TEST(LoadgenConfig, OnlyTheOpenLoopOverPlainTcpTimesRepliesByTheKernelsStamps) {
  EXPECT_FALSE(
      ValidOk(Config{}).RepliesStampedByKernel());  // closed loop: every reply read at once
  Config open = OpenLoop(4, 50, 1000);
  EXPECT_TRUE(open.RepliesStampedByKernel());
  Config unix_socket = open;
  unix_socket.unix_socket = "/tmp/s";
  EXPECT_FALSE(ValidOk(unix_socket).RepliesStampedByKernel());
  Config tls = open;
  tls.tls.enabled = true;
  EXPECT_FALSE(ValidOk(tls).RepliesStampedByKernel());
  Config cluster = open;
  cluster.cluster_mode = true;
  EXPECT_FALSE(ValidOk(cluster).RepliesStampedByKernel());
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

}  // namespace
}  // namespace dfbench::loadgen
