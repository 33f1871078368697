// Runs of the load generator against real redis-server and memcached processes. Assertions are
// on counters (the server's and ours), never on speed.
#include "loadgen/loadgen.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "loadgen/run_ok_test_support.h"
#include "protocol/blocking_client.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench::loadgen {
namespace {

using testing::TestServer;

Config BaseConfig(const TestServer& server) {
  Config config = QuietRun(2, 3);
  config.port = server.port();
  return config;
}

std::string Info(const TestServer& server, const std::string& section) {
  auto client = server.Client();
  auto reply = client.Command({"INFO", section});
  EXPECT_TRUE(reply);
  return reply ? reply->str : "";
}

int64_t Integer(protocol::BlockingClient& client, const std::vector<std::string>& args) {
  auto reply = client.Command(args);
  EXPECT_TRUE(reply);
  return reply ? reply->integer : -1;
}

// The server's clock, in whole seconds (TIME).
int64_t ServerTimeSec(protocol::BlockingClient& client) {
  auto reply = client.Command({"TIME"});
  EXPECT_TRUE(reply && reply->elements.size() == 2);
  return reply && reply->elements.size() == 2 ? std::stoll(reply->elements[0].str) : -1;
}

const SectionStats* Section(const Report& r, const std::string& name) {
  for (const auto& s : r.sections) {
    if (s.section == name) return &s;
  }
  return nullptr;
}

// Waits until `server` has run `n` SETs and GETs: the load is under way, whatever the
// machine's speed.
::testing::AssertionResult LoadReached(const TestServer& server, uint64_t n) {
  return testing::WaitUntil([&] { return server.Calls("set") + server.Calls("get") >= n; },
                            std::chrono::seconds(30), std::to_string(n) + " SETs and GETs");
}

uint64_t SeriesCount(const std::vector<SeriesPoint>& series) {
  uint64_t n = 0;
  for (const auto& p : series) n += p.latency.count;
  return n;
}

// Each test starts the server it needs (Start) and runs the generator with a Config aimed at it.
class Loadgen : public ::testing::Test {
 protected:
  // Keeps `server` and aims `config_` at it: 2 threads x 3 clients, no progress line. A fatal
  // failure when the server did not start.
  void Start(core::Result<TestServer> server) {
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    config_ = BaseConfig(*server_);
  }

  // A redis that obeys DEBUG (to stall or slow it on purpose) and an open loop aimed at it:
  // `rate` ops/s over `threads` x `clients` for `test_time`.
  void StartDebuggableOpenLoop(double rate, int threads, int clients,
                               std::chrono::seconds test_time) {
    ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis({"--enable-debug-command", "local"})));
    config_.load.threads = threads;
    config_.load.clients = clients;
    config_.pass = core::Pass::Time(test_time);
    config_.pass.rate_per_sec = rate;
  }

  std::optional<TestServer> server_;
  Config config_;
};

TEST_F(Loadgen, CountsMatchTheServersCommandStats) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.pass.requests_per_client = 500;
  config_.load.ratio = {1, 3};
  config_.load.pipeline = 4;
  config_.load.key_maximum = 1000;
  Report r = RunOk(config_);
  EXPECT_EQ(r.totals.count, 2u * 3 * 500);
  EXPECT_EQ(r.totals.count, server_->Calls("set") + server_->Calls("get"));
  ASSERT_NE(Section(r, "Sets"), nullptr);
  EXPECT_EQ(Section(r, "Sets")->count, server_->Calls("set"));
  EXPECT_EQ(Section(r, "Gets")->count, server_->Calls("get"));
  EXPECT_EQ(Section(r, "Gets")->hits + Section(r, "Gets")->misses, Section(r, "Gets")->count);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.unanswered, 0u);
  EXPECT_EQ(r.connection_errors, 0u);
  EXPECT_FALSE(r.interrupted);
  EXPECT_GT(r.duration_ms, 0);
  // The time series accounts for every operation.
  EXPECT_EQ(SeriesCount(r.totals.series), r.totals.count);
  EXPECT_GT(r.totals.bytes_tx, 0u);
  EXPECT_EQ(r.totals.bytes_rx, Section(r, "Sets")->bytes_rx + Section(r, "Gets")->bytes_rx);
  // The server's own hit counter agrees with ours.
  const std::string stats = Info(*server_, "stats");
  EXPECT_EQ(std::to_string(Section(r, "Gets")->hits), protocol::InfoField(stats, "keyspace_hits"));
}

TEST_F(Loadgen, RatioIsHonoured) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.pass.requests_per_client = 1100;
  config_.load.ratio = {1, 10};
  Report r = RunOk(config_);
  const double sets = static_cast<double>(server_->Calls("set"));
  const double gets = static_cast<double>(server_->Calls("get"));
  EXPECT_NEAR(sets / (sets + gets), 1.0 / 11, 0.01 / 11);
  EXPECT_EQ(r.totals.count, static_cast<uint64_t>(sets + gets));
}

TEST_F(Loadgen, ParallelAllKeysWritesEveryKeyOnce) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.set_pattern = config_.get_pattern = core::KeyPattern::kParallel;
  config_.load.ratio = {1, 0};
  config_.pass = core::Pass::Fill();
  config_.load.key_minimum = 1;
  config_.load.key_maximum = 10001;
  config_.load.pipeline = 8;
  Report r = RunOk(config_);
  auto client = server_->Client();
  EXPECT_EQ(Integer(client, {"DBSIZE"}), 10001);
  EXPECT_EQ(server_->Calls("set"), 10001u);
  EXPECT_EQ(r.totals.count, 10001u);
  EXPECT_EQ(Integer(client, {"EXISTS", "memtier-1"}), 1);
  EXPECT_EQ(Integer(client, {"EXISTS", "memtier-10001"}), 1);
  EXPECT_EQ(Integer(client, {"EXISTS", "memtier-0"}), 0);
}

TEST_F(Loadgen, DataSizeAndExpiryAreHonoured) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.load.ratio = {1, 0};
  config_.pass.requests_per_client = 50;
  config_.set_pattern = config_.get_pattern = core::KeyPattern::kParallel;
  config_.load.key_maximum = 299;
  config_.load.data_size = 100;
  Report r = RunOk(config_);
  auto client = server_->Client();
  EXPECT_EQ(Integer(client, {"STRLEN", "memtier-0"}), 100);
  EXPECT_EQ(Integer(client, {"STRLEN", "memtier-299"}), 100);
  EXPECT_EQ(Integer(client, {"TTL", "memtier-0"}), -1);

  config_.load.key_prefix = "ex-";
  config_.data_size_min = 10;
  config_.data_size_max = 20;
  config_.expiry_min_s = 100;
  config_.expiry_max_s = 200;
  // Each key expires 100 to 200 s after its SETEX, which ran between these two instants on the
  // server's clock (the one its expiry is on): exact bounds, however long the run took.
  const int64_t before_sec = ServerTimeSec(client);
  r = RunOk(config_);
  const int64_t after_sec = ServerTimeSec(client);
  EXPECT_EQ(server_->Calls("setex"), 300u);
  for (int k : {0, 57, 150, 299}) {
    const std::string key = "ex-" + std::to_string(k);
    const int64_t expires_sec = Integer(client, {"EXPIRETIME", key});
    EXPECT_GE(expires_sec, before_sec + 100) << key;
    EXPECT_LE(expires_sec, after_sec + 200) << key;
    const int64_t len = Integer(client, {"STRLEN", key});
    EXPECT_GE(len, 10) << key;
    EXPECT_LE(len, 20) << key;
  }
}

TEST_F(Loadgen, ClientsShareOneKeySequenceUnlessSeedsAreDistinct) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.load.threads = 1;
  config_.load.clients = 2;
  config_.load.ratio = {1, 0};
  config_.pass.requests_per_client = 300;
  config_.load.key_maximum = 1000000000;  // collisions within one sequence are negligible
  RunOk(config_);
  auto client = server_->Client();
  EXPECT_EQ(Integer(client, {"DBSIZE"}), 300);  // both clients wrote the same keys

  ASSERT_TRUE(client.Command({"FLUSHALL"}));
  config_.load.distinct_client_seed = true;
  RunOk(config_);
  EXPECT_EQ(Integer(client, {"DBSIZE"}), 600);

  ASSERT_TRUE(client.Command({"FLUSHALL"}));
  config_.set_pattern = config_.get_pattern = core::KeyPattern::kSequential;
  config_.load.key_maximum = 99;
  RunOk(config_);
  EXPECT_EQ(Integer(client, {"DBSIZE"}), 100);  // S: each client walks the whole range
}

TEST_F(Loadgen, GaussianAndZipfAreSkewed) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  auto client = server_->Client();
  config_.load.ratio = {1, 0};
  // 6000 SETs over 10000 keys: ~4500 distinct keys if uniform.
  config_.pass.requests_per_client = 1000;
  config_.load.key_maximum = 9999;
  config_.load.distinct_client_seed = true;
  config_.set_pattern = config_.get_pattern = core::KeyPattern::kGaussian;
  config_.key_median = 5000;
  config_.key_stddev = 100;
  RunOk(config_);
  const int64_t gaussian_keys = Integer(client, {"DBSIZE"});
  EXPECT_LT(gaussian_keys, 700);  // +-3.5 sigma holds nearly everything
  EXPECT_EQ(Integer(client, {"EXISTS", "memtier-5000"}), 1);
  EXPECT_EQ(Integer(client, {"EXISTS", "memtier-0"}), 0);

  ASSERT_TRUE(client.Command({"FLUSHALL"}));
  config_.set_pattern = config_.get_pattern = core::KeyPattern::kZipf;
  RunOk(config_);
  const int64_t zipf_keys = Integer(client, {"DBSIZE"});
  EXPECT_LT(zipf_keys, 3000);  // rank 1 alone takes ~10% of the requests
  EXPECT_EQ(Integer(client, {"EXISTS", "memtier-0"}), 1);  // the hottest key

  ASSERT_TRUE(client.Command({"FLUSHALL"}));
  config_.set_pattern = config_.get_pattern = core::KeyPattern::kRandom;
  RunOk(config_);
  EXPECT_GT(Integer(client, {"DBSIZE"}), 4000);
}

TEST_F(Loadgen, CommandTemplatesRunAsWritten) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.pass.requests_per_client = 600;
  config_.load.key_maximum = 99;
  config_.commands = {{"LPUSH list:__key__ __data__", 2, core::KeyPattern::kSequential},
                      {"LPOP list:__key__", 1, core::KeyPattern::kSequential}};
  Report r = RunOk(config_);
  EXPECT_EQ(server_->Calls("lpush"), 2400u);
  EXPECT_EQ(server_->Calls("lpop"), 1200u);
  ASSERT_EQ(r.sections.size(), 2u);
  EXPECT_EQ(r.sections[0].section, "Lpushs");
  EXPECT_EQ(r.sections[0].count, 2400u);
  EXPECT_EQ(r.sections[1].section, "Lpops");
  EXPECT_EQ(r.sections[1].count, 1200u);
  auto client = server_->Client();
  // Each client pushes every key 4 times and pops it twice (S walks 0..99 per command).
  EXPECT_EQ(Integer(client, {"LLEN", "list:memtier-0"}), 6 * (4 - 2));
}

// Apart: an error reply is an error, not an operation.
TEST_F(Loadgen, ErrorRepliesApartAreCountedNotSuccesses) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.pass.requests_per_client = 100;
  config_.commands = {{"SET __key__ __data__"}, {"LPUSH __key__ __data__"}};
  config_.load.key_maximum = 0;  // one key: LPUSH on a string fails
  config_.error_replies_are_ops = false;
  Report r = RunOk(config_);
  EXPECT_EQ(r.errors, 300u);
  EXPECT_EQ(r.totals.count, 300u);
  EXPECT_EQ(r.sections[1].errors, 300u);
  EXPECT_EQ(r.sections[1].count, 0u);
  ASSERT_FALSE(r.error_samples.empty());
  EXPECT_NE(r.error_samples[0].find("WRONGTYPE"), std::string::npos);
  EXPECT_EQ(r.totals.count + r.errors, server_->Calls("set") + server_->Calls("lpush"));
}

// memtier's way (the default): an error reply is an operation of its command and an error.
TEST_F(Loadgen, ErrorRepliesAreOperationsAndErrors) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.pass.requests_per_client = 100;
  config_.commands = {{"SET __key__ __data__"}, {"LPUSH __key__ __data__"}};
  config_.load.key_maximum = 0;
  Report r = RunOk(config_);
  EXPECT_EQ(r.errors, 300u);
  EXPECT_EQ(r.sections[1].errors, 300u);
  EXPECT_EQ(r.sections[1].count, 300u);
  EXPECT_EQ(r.sections[1].latency.count, 300u);
  EXPECT_EQ(r.totals.count, server_->Calls("set") + server_->Calls("lpush"));
}

TEST_F(Loadgen, WarmupIsMeasuredSeparately) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.pass = core::Pass::Time(std::chrono::seconds(1));
  config_.pass.warmup_time = std::chrono::milliseconds(500);
  config_.load.key_maximum = 1000;
  Report r = RunOk(config_);
  EXPECT_GT(r.warmup_count, 0u);
  EXPECT_GT(r.totals.count, 0u);
  EXPECT_EQ(r.warmup_duration_ms, 500);
  EXPECT_EQ(r.totals.count + r.warmup_count, server_->Calls("set") + server_->Calls("get"));
  EXPECT_EQ(SeriesCount(r.totals.series), r.totals.count);
  // The pass ran its full time (its length on a clock is the pacer's: pacer_test.cc).
  EXPECT_TRUE(r.ended_early.empty()) << r.ended_early;
}

TEST_F(Loadgen, MemcacheTextAgainstMemcached) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartMemcached()));
  config_.protocol = Protocol::kMemcacheText;
  config_.pass.requests_per_client = 400;
  config_.load.ratio = {1, 1};
  config_.set_pattern = config_.get_pattern = core::KeyPattern::kSequential;
  config_.load.key_maximum = 199;
  config_.load.pipeline = 3;
  Report r = RunOk(config_);
  auto client = server_->Client();
  auto stats = client.MemcacheCommand("stats");
  ASSERT_TRUE(stats);
  auto stat = [&](const std::string& name) -> uint64_t {
    for (const auto& line : *stats) {
      const std::string prefix = "STAT " + name + " ";
      if (line.rfind(prefix, 0) == 0) return std::stoull(line.substr(prefix.size()));
    }
    ADD_FAILURE() << "no stat " << name;
    return 0;
  };
  ASSERT_NE(Section(r, "Sets"), nullptr);
  EXPECT_EQ(Section(r, "Sets")->count, stat("cmd_set"));
  EXPECT_EQ(Section(r, "Gets")->count, stat("cmd_get"));
  EXPECT_EQ(Section(r, "Gets")->hits, stat("get_hits"));
  EXPECT_EQ(Section(r, "Gets")->misses, stat("get_misses"));
  EXPECT_EQ(r.totals.count, 2400u);
  EXPECT_EQ(r.errors, 0u);
}

// The wrk2 rule: latency counts from when a request was due, so a stalled server shows up in
// the percentiles even though few requests were in flight during the stall.
TEST_F(Loadgen, OpenLoopCountsStallsFromTheDueTime) {
  ASSERT_NO_FATAL_FAILURE(StartDebuggableOpenLoop(2000, 2, 5, std::chrono::seconds(6)));
  config_.load.key_maximum = 1000;
  std::thread staller([&] {
    // One stall of 200 ms, a tenth of the way into the load.
    EXPECT_TRUE(LoadReached(*server_, 1200));
    auto client = server_->Client();
    client.set_timeout(std::chrono::seconds(5));
    EXPECT_TRUE(client.Command({"DEBUG", "SLEEP", "0.2"}));
  });
  Report r = RunOk(config_);
  staller.join();
  EXPECT_TRUE(r.open_loop);
  // The stall shows: a request fell due in its first half, and its latency counts from then
  // to the stall's end, however busy the machine (a bound the server's sleep sets; what the
  // stall adds to each queued request, exactly: open_loop_stall_test.cc).
  EXPECT_GE(r.totals.latency.max_ms, 100.0);
  // Every request that fell due was answered or counted unanswered, and the server ran each
  // answered one and none that never left. (The schedule's exact rate: pacer_test.cc.)
  EXPECT_EQ(r.errors, 0u);
  const uint64_t calls = server_->Calls("set") + server_->Calls("get");
  EXPECT_GE(calls, r.totals.count);
  EXPECT_LE(calls, r.totals.count + r.unanswered);
  EXPECT_EQ(SeriesCount(r.totals.series), r.totals.count);
  EXPECT_EQ(r.totals.uncorrected.count, r.totals.count);
  // Every measured request's send lag was recorded. (How the lag is timed: meter_test.cc.)
  EXPECT_GE(r.send_lag.count, r.totals.count);
  // The generator measured its own CPU use, for telling when it was the limit.
  EXPECT_GT(r.client_cpu.cpu_sec, 0);
  EXPECT_GT(r.client_cpu.wall_sec, 0);
  EXPECT_GE(r.client_cpu.usable_cpus, 1);
  EXPECT_LE(r.client_cpu.usable_cpus, 2);
}

// The open loop reads a connection's replies at its next due time (one wake-up per tick, the
// replies waiting in the socket buffer), so each read may bring a reply long after it came:
// every one is still counted once. (Timed by its arrival, not its read: clock_test.cc.)
TEST_F(Loadgen, OpenLoopReadsRepliesAtItsTicksAndCountsEveryOne) {
  ASSERT_NO_FATAL_FAILURE(StartDebuggableOpenLoop(20, 1, 1, std::chrono::seconds(2)));
  config_.commands = {{"DEBUG SLEEP 0.003"}};
  Report r = RunOk(config_);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_GT(r.totals.count, 0u);
  EXPECT_EQ(r.totals.count, server_->Calls("debug"));
  EXPECT_EQ(r.totals.uncorrected.count, r.totals.count);
  EXPECT_GE(r.send_lag.count, r.totals.count);
}

TEST_F(Loadgen, LostConnectionsAreCountedAndReconnected) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.pass = core::Pass::Time(std::chrono::seconds(2));
  config_.load.key_maximum = 1000;
  std::thread killer([&] {
    EXPECT_TRUE(LoadReached(*server_, 1000));
    auto client = server_->Client();
    client.Command({"CLIENT", "KILL", "TYPE", "normal"});
  });
  Report r = RunOk(config_);
  killer.join();
  EXPECT_GE(r.connection_errors, 6u);
  EXPECT_GE(r.reconnects, 6u);
  EXPECT_TRUE(r.aborted_reason.empty());
  EXPECT_GT(r.totals.count, 0u);
  // The requests in flight when the connections dropped are errors of their commands, and the
  // load was cut where the first connection went.
  EXPECT_GT(r.lost_requests, 0u);
  EXPECT_EQ(r.totals.errors, r.lost_requests);
  uint64_t section_errors = 0;
  for (const auto& s : r.sections) section_errors += s.errors;
  EXPECT_EQ(section_errors, r.lost_requests);
  EXPECT_NE(r.ended_early.find("a connection was lost"), std::string::npos) << r.ended_early;
  EXPECT_GT(r.ended_at_sec, 0);
  EXPECT_GE(r.duration_ms, 2000.0);  // the window ran its whole test time, on past the cut
  EXPECT_EQ(SeriesCount(r.totals.series), r.totals.count);
  // Every operation we count, the server executed; lost requests may have run too.
  EXPECT_LE(r.totals.count, server_->Calls("set") + server_->Calls("get"));
  EXPECT_LE(server_->Calls("set") + server_->Calls("get"), r.totals.count + r.unanswered);
}

TEST_F(Loadgen, WithoutReconnectTheRunEndsWhenTheServerGoesAway) {
  ASSERT_NO_FATAL_FAILURE(Start(TestServer::StartRedis()));
  config_.pass = core::Pass::Time(std::chrono::seconds(30));
  config_.reconnect = ReconnectPolicy::kOff;
  // From the load's first call to the server's end: the least the window can have lasted.
  std::chrono::steady_clock::duration served{};
  std::thread stopper([&] {
    EXPECT_TRUE(LoadReached(*server_, 1));
    const auto first_call = std::chrono::steady_clock::now();
    EXPECT_TRUE(LoadReached(*server_, 1000));
    served = std::chrono::steady_clock::now() - first_call;
    server_->Stop();
  });
  Report r = RunOk(config_);
  stopper.join();
  EXPECT_FALSE(r.aborted_reason.empty());
  EXPECT_FALSE(r.ended_early.empty());
  EXPECT_EQ(r.connection_errors, 6u);
  EXPECT_EQ(r.reconnects, 0u);
  // The window lasts to when the server went, not to its last reply only.
  const double served_ms = std::chrono::duration<double, std::milli>(served).count();
  EXPECT_GE(r.duration_ms, served_ms);
}

TEST_F(Loadgen, EnvironmentFailuresBeforeTheLoad) {
  Config config;
  config.port = testing::FreePort();
  config.progress = ProgressMode::kNever;
  const core::Error refused = RunFails(config);
  EXPECT_EQ(refused.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(refused.message.find("cannot connect"), std::string::npos) << refused.message;

  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  {
    auto client = server->Client();
    ASSERT_TRUE(client.Command({"CONFIG", "SET", "requirepass", "sekret"}));
  }
  config.port = server->port();
  const core::Error no_password = RunFails(config);
  EXPECT_EQ(no_password.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(no_password.message.find("requires a password"), std::string::npos)
      << no_password.message;
  config.password = "wrong";
  const core::Error wrong_password = RunFails(config);
  EXPECT_EQ(wrong_password.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(wrong_password.message.find("authentication"), std::string::npos)
      << wrong_password.message;
  config.password = "sekret";
  config.pass.requests_per_client = 10;
  config.load.threads = 1;
  config.load.clients = 2;
  EXPECT_EQ(RunOk(config).totals.count, 20u);
}

}  // namespace
}  // namespace dfbench::loadgen
