#include "drivers/memtier_driver.h"

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/subprocess.h"
#include "drivers/driver_test_workloads.h"
#include "hosts/local_host.h"
#include "protocol/blocking_client.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"

namespace dfbench::drivers {
namespace {

using testing::JoinArgs;
using testing::ScopedTempDir;

std::string PeerFixture(const std::string& name) {
  return testing::FixturePath("peers/" + name).string();
}

TEST(ExactFillLayout, LargestConnectionCountThatDividesTheRange) {
  struct Case {
    uint64_t keys;
    int threads, clients;
    int want_threads, want_clients;
  } cases[] = {
      {1000, 32, 5, 25, 5},       // 125 connections x 8 keys
      {100000000, 32, 5, 32, 5},  // the reference's defaults divide evenly
      {1000000, 32, 5, 32, 5},    // the structured-preload range too
      {1009, 4, 5, 1, 1},         // a prime range: one connection
      {7, 4, 50, 1, 7},           // fewer keys than connections
      {1, 8, 8, 1, 1},            //
      {3000, 2, 5, 2, 5},         // already exact
  };
  for (const auto& c : cases) {
    Layout l = ExactFillLayout(c.keys, c.threads, c.clients);
    EXPECT_EQ(l.threads, c.want_threads) << c.keys;
    EXPECT_EQ(l.clients, c.want_clients) << c.keys;
    EXPECT_EQ(c.keys % (static_cast<uint64_t>(l.threads) * l.clients), 0u) << c.keys;
  }
}

TEST(MemtierDriver, SetGetRunCommandLine) {
  // The defaults are the reference's: 4 threads x 50 clients, 1:10, 256 bytes, pipeline 30.
  core::Load load = core::kRunLoad;
  load.distinct_client_seed = true;
  const core::Pass pass = core::Pass::Requests(5000);
  auto args =
      MemtierDriver::BuildArgs("/opt/memtier_benchmark", {"10.0.0.2", 6379, core::Protocol::kRedis},
                               load, pass, "/work/r.json");
  ASSERT_TRUE(args);
  EXPECT_EQ(JoinArgs(*args),
            "/opt/memtier_benchmark --server 10.0.0.2 --port 6379 --protocol redis --threads 4 "
            "--clients 50 --pipeline 30 --requests 5000 --ratio 1:10 --data-size 256 "
            "--distinct-client-seed --print-percentiles 50,99,99.9 --json-out-file /work/r.json");
  auto mc = MemtierDriver::BuildArgs("memtier_benchmark",
                                     {"127.0.0.1", 11211, core::Protocol::kMemcacheText}, load,
                                     pass, "r.json");
  ASSERT_TRUE(mc);
  EXPECT_NE(JoinArgs(*mc).find("--protocol memcache_text"), std::string::npos);
  // memtier's own flag for an endpoint's database.
  auto db = MemtierDriver::BuildArgs(
      "memtier_benchmark", {.address = "10.0.0.2", .port = 6379, .db = 3}, load, pass, "r.json");
  ASSERT_TRUE(db);
  EXPECT_NE(JoinArgs(*db).find(" --select-db 3"), std::string::npos) << JoinArgs(*db);
}

TEST(MemtierDriver, TimeBoxedCommandCommandLine) {
  LoadedPass w = TimedCommand("LRANGE __key__ 0 9", core::KeyPattern::kGaussian, 300);
  w.load.data_size = 128;
  auto args = MemtierDriver::BuildArgs(
      "memtier_benchmark", {"127.0.0.1", 7000, core::Protocol::kRedis}, w.load, w.pass, "r");
  ASSERT_TRUE(args);
  // --command is one argument: no shell ever sees it.
  const auto want = testing::SplitArgs(
      "memtier_benchmark --server 127.0.0.1 --port 7000 --protocol redis --threads 32 --clients 5 "
      "--pipeline 20 --test-time 300 --command 'LRANGE __key__ 0 9' --command-key-pattern G "
      "--data-size 128 --key-minimum 1 --key-maximum 1000000 --distinct-client-seed "
      "--print-percentiles 50,99,99.9 --json-out-file r");
  EXPECT_EQ(*args, want);
}

TEST(MemtierDriver, FillWritesEachKeyExactlyOnce) {
  const LoadedPass w = Fill("RPUSH __key__ __data__", 1000, 32, 5);
  auto args = MemtierDriver::BuildArgs("m", {"127.0.0.1", 7000, core::Protocol::kRedis}, w.load,
                                       w.pass, "r");
  ASSERT_TRUE(args);
  // 125 connections x 8 requests, each connection its own P slice of 8 keys.
  const std::string line = JoinArgs(*args);
  EXPECT_NE(line.find("--threads 25 --clients 5 --pipeline 20 --requests 8 --command RPUSH "
                      "__key__ __data__ --command-key-pattern P"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("--key-minimum 1 --key-maximum 1000"), std::string::npos) << line;
}

TEST(MemtierDriver, RefusesWhatMemtierCannotExpress) {
  core::Load get = core::kRunLoad;
  get.command = "GET __key__";
  core::Pass rate = core::Pass::Requests(10);
  rate.rate_per_connection = 10;
  auto a = MemtierDriver::BuildArgs("m", {"h", 1, core::Protocol::kRedis}, get, rate, "r");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().kind, core::ErrorKind::kUsage);
  core::Load no_command = core::kRunLoad;
  no_command.key_minimum = 1;
  no_command.key_maximum = 10;
  EXPECT_FALSE(MemtierDriver::BuildArgs("m", {"h", 1, core::Protocol::kRedis}, no_command,
                                        core::Pass::Fill(), "r"));
}

// Every real memtier report in tests/fixtures/peers/, with the workload of its command line
// (manifest.tsv): the right Count, and time-boxed throughput from Count over the test time.
TEST(MemtierDriver, ParsesEveryFixtureWithTheRightTotals) {
  struct Case {
    const char* file;
    uint64_t count;
    int test_time_sec;  // 0: by requests
    int runs;
  } cases[] = {
      {"memtier_a_set_pipeline30.json", 1088370, 3, 1},
      {"memtier_b0_preload.json", 10010, 0, 1},
      {"memtier_b1_get_only.json", 114528, 3, 1},
      {"memtier_c_1to10_distinct_seed.json", 96652, 3, 1},
      {"memtier_d_lpush_command.json", 10000, 0, 1},
      {"memtier_e_memcache_text.json", 102005, 3, 1},
      {"memtier_f_percentiles_hdr.json", 111852, 3, 1},
      {"memtier_g_two_runs_print_all.json", 218146, 2, 2},  // aggregate of 114267 + 103879
  };
  size_t fixtures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(DFBENCH_FIXTURES_DIR "/peers")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("memtier_", 0) == 0 && entry.path().extension() == ".json") ++fixtures;
  }
  EXPECT_EQ(fixtures, std::size(cases)) << "a memtier fixture is not covered here";
  for (const auto& c : cases) {
    auto text = core::ReadFile(PeerFixture(c.file));
    ASSERT_TRUE(text) << c.file;
    core::Pass pass;
    if (c.test_time_sec > 0) pass = core::Pass::Time(std::chrono::seconds(c.test_time_sec));
    auto t = MemtierDriver::ParseReport({.report = *text}, pass);
    ASSERT_TRUE(t) << c.file << ": " << t.error().message;
    EXPECT_EQ(t->ops, c.count) << c.file;
    EXPECT_EQ(t->errors, 0u) << c.file;
    if (c.test_time_sec > 0) {
      EXPECT_DOUBLE_EQ(t->throughput, static_cast<double>(c.count) / (c.test_time_sec * c.runs))
          << c.file;
    } else {
      EXPECT_GT(t->throughput, 0) << c.file;
    }
    EXPECT_GT(t->p50, 0) << c.file;
    EXPECT_GE(t->p99, t->p50) << c.file;
    EXPECT_GE(t->p999, t->p99) << c.file;
    EXPECT_GT(t->avg_latency, 0) << c.file;
  }
}

TEST(MemtierDriver, MissingBinaryIsOneLineSayingHowToProvideIt) {
  const ScopedTempDir dir("drivers-missing");
  hosts::LocalHost host(dir.path());
  MemtierDriver driver("/nonexistent/memtier_benchmark");
  auto st = driver.Prepare(host);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(st.error().message.find("--memtier-binary PATH"), std::string::npos);
  EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
}

// A stand-in for memtier_benchmark: its first run leaves `first_report` (an empty report or
// one with zero operations, as memtier occasionally does), later runs copy a real report.
std::filesystem::path WriteFakeMemtier(const std::filesystem::path& dir, const std::string& fixture,
                                       const std::string& first_report = "") {
  EXPECT_TRUE(core::WriteFileAtomic(dir / "first.json", first_report));
  auto script = dir / "memtier_benchmark";
  testing::WriteExecutable(script,
                           "#!/bin/sh\n"
                           "count_file='" +
                               (dir / "runs").string() + "'\n" +
                               "n=$(cat \"$count_file\" 2>/dev/null || echo 0); n=$((n+1)); echo "
                               "$n > \"$count_file\"\n" +
                               "echo \"$@\" > '" + (dir / "argv").string() + "'\n" +
                               "report=''\n"
                               "while [ $# -gt 0 ]; do\n"
                               "  if [ \"$1\" = --json-out-file ]; then report=\"$2\"; fi; shift\n"
                               "done\n"
                               "echo 'ALL STATS (fake)'\n"
                               "if [ $n -eq 1 ]; then cp '" +
                               (dir / "first.json").string() + "' \"$report\"; exit 0; fi\n" +
                               "cp '" + PeerFixture(fixture) + "' \"$report\"\n");
  return script;
}

TEST(MemtierDriver, RetriesOnceOnAnEmptyReportAndKeepsTheRawOutputs) {
  const ScopedTempDir dir("drivers-fake");
  const auto fake = WriteFakeMemtier(dir.path(), "memtier_d_lpush_command.json");
  hosts::LocalHost host(dir / "work");
  MemtierDriver driver(fake.string());
  ASSERT_TRUE(driver.Prepare(host));
  core::Load load = core::kRunLoad;
  load.threads = 1;
  load.clients = 5;
  load.command = "LPUSH __key__ __data__";
  load.key_minimum = 1;
  load.key_maximum = 1000;
  const auto raw = dir / "results" / "memtier" / "redis-LPUSH-t1.json";
  auto t = driver.Run(host, {"127.0.0.1", 6379, core::Protocol::kRedis}, load,
                      core::Pass::Requests(2000), {}, raw);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 10000u);
  EXPECT_EQ(*core::ReadFile(dir / "runs"), "2\n");  // the empty first report was retried
  EXPECT_EQ(*core::ReadFile(raw), *core::ReadFile(PeerFixture("memtier_d_lpush_command.json")));
  EXPECT_EQ(*core::ReadFile(raw.parent_path() / "redis-LPUSH-t1.txt"), "ALL STATS (fake)\n");
  const std::string argv = *core::ReadFile(dir / "argv");
  EXPECT_NE(argv.find("--command LPUSH __key__ __data__ --command-key-pattern R"),
            std::string::npos)
      << argv;
}

TEST(MemtierDriver, RetriesOnceOnZeroOperations) {
  const ScopedTempDir dir("drivers-zero");
  const auto fake = WriteFakeMemtier(dir.path(), "memtier_a_set_pipeline30.json",
                                     R"({"ALL STATS": {"Runtime": {"Total duration": 3000},
                                         "Totals": {"Count": 0, "Ops/sec": 0}}})");
  hosts::LocalHost host(dir / "work");
  MemtierDriver driver(fake.string());
  core::Load load = core::kRunLoad;
  load.threads = 2;
  load.clients = 10;
  auto t = driver.Run(host, {"127.0.0.1", 6379, core::Protocol::kRedis}, load,
                      core::Pass::Time(std::chrono::seconds(3)), {}, dir / "r.json");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 1088370u);
  EXPECT_EQ(*core::ReadFile(dir / "runs"), "2\n");
}

TEST(MemtierDriver, TwoEmptyReportsFail) {
  const ScopedTempDir dir("drivers-fake2");
  const auto script = dir / "memtier_benchmark";
  testing::WriteExecutable(script, "#!/bin/sh\nexit 0\n");
  hosts::LocalHost host(dir / "work");
  MemtierDriver driver(script.string());
  core::Load load = core::kRunLoad;
  load.threads = 1;
  load.clients = 1;
  auto t = driver.Run(host, {"127.0.0.1", 6379, core::Protocol::kRedis}, load,
                      core::Pass::Requests(10), {}, dir / "r.json");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().kind, core::ErrorKind::kFailure);
  EXPECT_NE(t.error().message.find("after one retry"), std::string::npos) << t.error().message;
}

// Against the real tool: the test beds' build.
TEST(MemtierDriver, LiveRunAgainstRedis) {
  if (auto why = testing::MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
  auto server = testing::TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("drivers-live");
  hosts::LocalHost host(dir / "work");
  MemtierDriver driver(testing::MemtierBinary().string());
  ASSERT_TRUE(driver.Prepare(host));
  const Target target{server->host(), server->port(), core::Protocol::kRedis};
  LoadedPass fill = Fill("RPUSH __key__ __data__", 1000, 2, 5);
  fill.load.pipeline = 10;
  auto f = driver.Run(host, target, fill.load, fill.pass, {}, dir / "fill.json");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->ops, 1000u);
  auto client = server->Client();
  EXPECT_EQ(client.Command({"DBSIZE"})->integer, 1000);
  EXPECT_EQ(client.Command({"LLEN", "memtier-1000"})->integer, 1);
  LoadedPass timed = TimedCommand("LRANGE __key__ 0 9", core::KeyPattern::kRandom, 1);
  timed.load.threads = 1;
  timed.load.pipeline = 10;
  timed.load.distinct_client_seed = false;
  timed.load.key_maximum = 1000;
  auto t = driver.Run(host, target, timed.load, timed.pass, {}, dir / "t1.json");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_GT(t->throughput, 0);
  EXPECT_GT(t->p50, 0);
}

}  // namespace
}  // namespace dfbench::drivers
