// `dfbench setup / run / quickstart / info / list / destroy` against real engines.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

void ExpectStats(const json& s, const std::string& where) {
  ASSERT_TRUE(s.is_object()) << where;
  for (const char* k : {"median", "min", "max", "stddev"}) {
    EXPECT_TRUE(s.contains(k) && s[k].is_number()) << where << "." << k;
  }
  EXPECT_LE(s["min"].get<double>(), s["median"].get<double>()) << where;
  EXPECT_LE(s["median"].get<double>(), s["max"].get<double>()) << where;
}

// Field names and types of the reference RunResults schema.
void ExpectRunResultsSchema(const json& r, int trials) {
  for (const char* k : {"run_id", "created_at", "completed_at", "status", "region", "aws_account",
                        "server_instance", "client_instance"}) {
    EXPECT_TRUE(r.contains(k) && r[k].is_string()) << k;
  }
  const json& m = r["memtier"];
  for (const char* k : {"threads", "clients", "requests", "data_size", "pipeline"}) {
    EXPECT_TRUE(m.contains(k) && m[k].is_number_integer()) << "memtier." << k;
  }
  EXPECT_TRUE(m["ratio"].is_string());
  EXPECT_TRUE(m["distinct_client_seed"].is_boolean());
  EXPECT_TRUE(r["warmup_requests"].is_number_integer());
  EXPECT_EQ(r["trials"], trials);
  ASSERT_TRUE(r["engines"].is_array());
  for (const json& e : r["engines"]) {
    EXPECT_TRUE(e["engine"].is_string());
    EXPECT_TRUE(e["version"].is_string());
    ASSERT_TRUE(e["trials"].is_array());
    EXPECT_EQ(e["trials"].size(), static_cast<size_t>(trials)) << e["engine"];
    for (const json& t : e["trials"]) {
      EXPECT_TRUE(t["trial"].is_number_integer());
      for (const char* k : {"throughput", "p50", "p99", "p999", "avg_latency"}) {
        EXPECT_TRUE(t[k].is_number()) << k;
        EXPECT_GT(t[k].get<double>(), 0) << k;
      }
    }
    for (const char* k : {"throughput", "p50", "p99", "p999", "avg_latency"}) {
      ExpectStats(e[k], e["engine"].get<std::string>() + "." + k);
    }
  }
}

// Each engine's reported operations equal the server's own count minus the warmup, and the
// request count asked for (2 threads x 5 clients x 2000 per connection = 20000 per trial,
// 100 per connection = 1000 for the warmup).
void ExpectCountsMatchServer(const json& r) {
  for (const json& e : r["engines"]) {
    uint64_t trial_ops = 0;
    for (const json& t : e["trials"]) {
      EXPECT_EQ(t["ops"].get<uint64_t>(), 20000u) << e["engine"];
      EXPECT_EQ(t["errors"].get<uint64_t>(), 0u) << e["engine"];
      trial_ops += t["ops"].get<uint64_t>();
    }
    ASSERT_GT(e["server_ops"].get<uint64_t>(), 0u) << e["engine"];
    EXPECT_EQ(e["server_ops"].get<uint64_t>() - e["warmup_ops"].get<uint64_t>(), trial_ops)
        << e["engine"];
    EXPECT_EQ(e["warmup_ops"].get<uint64_t>(), 1000u) << e["engine"];
  }
}

// The config.json of setup `id`'s run whose results are `out`.
json RunConfig(const DfbenchRunner& dfb, const std::string& id, const json& out) {
  return json::parse(*core::ReadFile(dfb.SetupDir(id) / "benchmarks" /
                                     out["run_id"].get<std::string>() / "config.json"));
}

// Starts a run of setup `id` with 50 short trials in the background, to be interrupted.
core::Process StartLongRun(const DfbenchRunner& dfb, const std::string& id) {
  return dfb.Start({"run", "--id", id, "--engines", "redis", "--memtier-threads", "1",
                    "--memtier-clients", "4", "--memtier-pipeline", "1", "--memtier-requests",
                    "7500", "--warmup-requests", "0", "--trials", "50", "--cooldown", "0"});
}

// Without request or cooldown flags a local quickstart uses the local profile and says so;
// explicit flags win (the next test gives them all and sees no such line).
TEST(Quickstart, LocalProfileWhenNoRequestsAreGiven) {
  DfbenchRunner dfb("profile");
  auto r = dfb.Run({"quickstart", "--id", "lp", "--engines", "redis", "--memtier-threads", "1",
                    "--memtier-clients", "2", "--trials", "1", "--output", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("local profile: 1 threads × 2 clients × 5000 requests per connection, "
                       "warmup 500 per connection, cooldown 5s"),
            std::string::npos)
      << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["memtier"]["requests"], 5000);
  EXPECT_EQ(out["warmup_requests"], 500);
  EXPECT_EQ(out["engines"][0]["trials"][0]["ops"], 10000);
  EXPECT_EQ(out["engines"][0]["warmup_ops"], 1000);
  EXPECT_EQ(RunConfig(dfb, "lp", out)["cooldown_sec"], 5);

  r = dfb.Run({"quickstart", "--id", "lp2", "--engines", "redis", "--memtier-threads", "1",
               "--memtier-clients", "2", "--memtier-requests", "50", "--cooldown", "1s", "--trials",
               "1", "--output", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  out = json::parse(r.out);
  EXPECT_EQ(out["memtier"]["requests"], 50);                 // given
  EXPECT_EQ(out["warmup_requests"], 500);                    // from the profile
  EXPECT_EQ(RunConfig(dfb, "lp2", out)["cooldown_sec"], 1);  // given
  EXPECT_NE(r.err.find("local profile"), std::string::npos) << r.err;
}

// --per-client shows each load generator's part in quickstart's table as in run's.
TEST(Quickstart, PerClientShowsEachLoadGeneratorsPart) {
  DfbenchRunner dfb("perclient");
  const auto r = dfb.Run({"quickstart", "--id",
                          "pc",         "--engines",
                          "redis",      "--memtier-threads",
                          "2",          "--memtier-clients",
                          "2",          "--memtier-requests",
                          "200",        "--warmup-requests",
                          "10",         "--cooldown",
                          "0",          "--trials",
                          "1",          "--loadgen-processes",
                          "2",          "--per-client",
                          "--output",   "table"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("load generators:"), std::string::npos) << r.out;
}

TEST(Quickstart, ComparesRedisAndMemcachedAndWritesResults) {
  DfbenchRunner dfb("quickstart");
  auto r = dfb.Run(Concat({"quickstart", "--id", "qs", "--engines", "redis,memcached,valkey",
                           "--valkey_binary", "/nonexistent/valkey-server", "--output", "json"},
                          kSmallRun));
  // An explicitly given binary that does not exist is an error, even for quickstart.
  EXPECT_EQ(r.code, 5) << r.err;

  r = dfb.Run(Concat(
      {"quickstart", "--id", "qs2", "--engines", "redis,memcached,dragonfly", "--output", "json"},
      kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  // dragonfly is not installed on the test machine: skipped with one line.
  EXPECT_NE(r.err.find("skipping dragonfly"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("local profile"), std::string::npos) << r.err;  // flags were given
  json out = json::parse(r.out);  // stdout is a single JSON payload
  ExpectRunResultsSchema(out, 2);
  ASSERT_EQ(out["engines"].size(), 2u);
  EXPECT_EQ(out["engines"][0]["engine"], "redis");
  EXPECT_EQ(out["engines"][1]["engine"], "memcached");
  EXPECT_EQ(out["status"], "completed");
  // memcached's -t is the number of CPUs it was pinned to (the server half of the machine).
  const json& mc_tuning = out["engines"][1]["tuning"];
  ASSERT_TRUE(mc_tuning.contains("threads")) << mc_tuning;
  const json server = dfb.State("qs2")["hosts"][0];
  if (mc_tuning.contains("cpus")) {
    EXPECT_EQ(mc_tuning["threads"], mc_tuning["cpus"].size()) << mc_tuning;
  } else {
    EXPECT_EQ(mc_tuning["threads"], server["vcpus"]) << mc_tuning;
  }
  ExpectCountsMatchServer(out);

  // results.json on disk equals what was printed; per-trial raw reports are kept.
  json st = dfb.State("qs2");
  EXPECT_EQ(st["status"], "destroyed");
  ASSERT_EQ(st["benchmarks"].size(), 1u);
  auto dir = dfb.SetupDir("qs2") / "benchmarks" / out["run_id"].get<std::string>();
  EXPECT_EQ(json::parse(*core::ReadFile(dir / "results.json")), out);
  for (const char* f : {"config.json", "results.csv", "memtier/redis-t1.json",
                        "memtier/redis-t2.json", "memtier/memcached-t2.json"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  }
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty());
}

// The test beds' Dragonfly beside redis-server through quickstart (setup, run, destroy): the
// server's own count equals the load generator's for both, Dragonfly's version is the one its
// INFO names and its tuning is recorded; then compare and report read the file, alone and
// against a copy where Dragonfly lost half its throughput and redis is missing.
TEST(DragonflyRun, QuickstartCountsVersionTuningThenCompareAndReport) {
  if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
  DfbenchRunner dfb("dragonfly-run");
  auto r = dfb.Run(Concat({"quickstart", "--id", "df", "--engines", "dragonfly,redis",
                           "--dragonfly_binary", DragonflyBinary().string()},
                          kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  // The table: one row per engine with its median and [min..max].
  for (const char* engine : {"\ndragonfly  dragonfly v", "\nredis      redis "}) {
    const size_t row = r.out.find(engine);
    ASSERT_NE(row, std::string::npos) << engine << "\n" << r.out;
    const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
    EXPECT_NE(line.find(" ["), std::string::npos) << line;
    EXPECT_NE(line.find(".."), std::string::npos) << line;
  }
  const json st = dfb.State("df");
  ASSERT_EQ(st["benchmarks"].size(), 1u);
  const auto results = dfb.SetupDir("df") / "benchmarks" /
                       st["benchmarks"][0]["run_id"].get<std::string>() / "results.json";
  const json out = ReadJson(results);
  ExpectRunResultsSchema(out, 2);
  ExpectCountsMatchServer(out);
  ASSERT_EQ(out["engines"][0]["engine"], "dragonfly");
  const json& df = out["engines"][0];
  // INFO's dragonfly_version "df-v1.40.0-87-gf8eca6d0b", not its redis_version or --version.
  const std::string version = df["version"].get<std::string>();
  EXPECT_EQ(version.rfind("dragonfly v", 0), 0u) << version;
  EXPECT_EQ(version.find("df-"), std::string::npos) << version;
  EXPECT_EQ(version.find('\x1b'), std::string::npos) << version;
  // Pinned to the server's half of the CPUs: one proactor per CPU, Dragonfly's own shard count.
  const json& tuning = df["tuning"];
  ASSERT_TRUE(tuning.contains("cpus")) << tuning;
  EXPECT_EQ(tuning["proactor_threads"], tuning["cpus"].size()) << tuning;
  EXPECT_EQ(tuning["num_shards"], 0) << tuning;
  EXPECT_EQ(tuning["conn_use_incoming_cpu"], true) << tuning;
  EXPECT_EQ(df["num_shards"], 0);
  EXPECT_EQ(df["conn_use_incoming_cpu"], true);

  r = dfb.Run({"compare", results.string(), results.string()});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ok: no metric regressed beyond 5% (10 compared)"), std::string::npos)
      << r.out;

  json worse = out;
  worse["engines"].erase(1);  // redis
  for (const char* k : {"median", "min", "max"}) {
    worse["engines"][0]["throughput"][k] = df["throughput"][k].get<double>() / 2;
  }
  worse["engines"][0]["tuning"]["num_shards"] = 1;
  const auto candidate = dfb.home() / "dragonfly-half.json";
  std::ofstream(candidate) << worse.dump(2);
  r = dfb.Run({"compare", results.string(), candidate.string()});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("only in baseline: redis"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: dragonfly.tuning.num_shards: 0 -> 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("REGRESSION: 1 metric beyond 5%: dragonfly throughput -50.0%"),
            std::string::npos)
      << r.out;
  // The other way round Dragonfly doubled: an improvement, and redis is new.
  r = dfb.Run({"compare", candidate.string(), results.string()});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("only in candidate: redis"), std::string::npos) << r.out;

  const auto page = dfb.home() / "report.html";
  r = dfb.Run({"report", results.string(), candidate.string(), "-o", page.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string html = core::ReadFile(page).value_or("");
  for (const std::string& text : std::vector<std::string>{
           version, "redis 7", "Only in baseline", "dragonfly throughput -50.0%", "engine flags"}) {
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty());
}

// --memtier-requests is per connection, as memtier's --requests: 2 threads x 5 clients x 1000
// requests is 10,000 commands at the server (its INFO commandstats: SET + GET calls).
TEST(StatefulFlow, RequestsArePerConnection) {
  DfbenchRunner dfb("per-connection");
  ASSERT_EQ(dfb.Run({"setup", "--id", "pc", "--engines", "redis"}).code, 0);
  auto r = dfb.Run({"run", "--id", "pc", "--engines", "redis", "--memtier-threads", "2",
                    "--memtier-clients", "5", "--memtier-requests", "1000", "--warmup-requests",
                    "0", "--trials", "1", "--output", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["memtier"]["requests"], 1000);  // as given, like the reference records it
  const json& redis = out["engines"][0];
  EXPECT_EQ(redis["trials"][0]["ops"], 10000);
  EXPECT_EQ(redis["warmup_ops"], 0);
  EXPECT_EQ(redis["server_ops"], 10000);  // cmdstat_set + cmdstat_get calls
  EXPECT_NE(r.err.find("2 threads × 5 clients × 1000 requests = 10000 requests"), std::string::npos)
      << r.err;
  json config = RunConfig(dfb, "pc", out);
  EXPECT_EQ(config["memtier"]["requests"], 1000);
}

TEST(StatefulFlow, SetupRunInfoListDestroy) {
  DfbenchRunner dfb("stateful");
  auto r = dfb.Run({"setup", "--id", "s1", "--engines", "redis"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(dfb.State("s1")["status"], "ready");
  json host = dfb.State("s1")["hosts"][0];
  EXPECT_GT(host["vcpus"].get<int>(), 0);
  EXPECT_FALSE(host["cpu_model"].get<std::string>().empty());
  EXPECT_FALSE(host["kernel"].get<std::string>().empty());
  EXPECT_FALSE(dfb.State("s1")["engines"][0]["version"].get<std::string>().empty());

  r = dfb.Run(Concat({"run", "--id", "s1", "--engines", "redis"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("redis"), std::string::npos);
  EXPECT_NE(r.out.find("OPS/SEC"), std::string::npos) << r.out;
  r = dfb.Run(Concat({"run", "--id", "s1", "--engines", "redis", "--output", "csv"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("engine,version,trial,throughput", 0), 0u) << r.out;
  EXPECT_EQ(dfb.State("s1")["status"], "ready");
  EXPECT_EQ(dfb.State("s1")["benchmarks"].size(), 2u);

  r = dfb.Run({"info", "--id", "s1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Status:    ready"), std::string::npos) << r.out;
  r = dfb.Run({"list"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("s1"), std::string::npos);

  r = dfb.Run({"destroy", "--id", "s1"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = dfb.Run({"destroy", "--id", "s1"});  // idempotent
  EXPECT_EQ(r.code, 0) << r.err;
  r = dfb.Run({"list"});
  EXPECT_EQ(r.out.find("s1"), std::string::npos) << r.out;
  r = dfb.Run({"list", "--all"});
  EXPECT_NE(r.out.find("destroyed"), std::string::npos) << r.out;
}

TEST(StatefulFlow, LockContentionFailsFastWithItsOwnExitCode) {
  DfbenchRunner dfb("lock");
  ASSERT_EQ(dfb.Run({"setup", "--id", "l1", "--engines", "redis"}).code, 0);
  // Hold the setup's lock from another process, as a concurrent dfbench would.
  const std::string lock = (dfb.SetupDir("l1") / ".lock").string();
  auto holder = core::Spawn({.argv = {"flock", "-n", lock, "sleep", "30"}});
  ASSERT_TRUE(holder);
  // flock runs its command once it holds the lock.
  ASSERT_TRUE(WaitUntil([&] { return !ChildrenNamed(holder->pid(), "sleep").empty(); },
                        std::chrono::seconds(10), "flock to hold the setup's lock"));
  auto r = dfb.Run(Concat({"run", "--id", "l1", "--engines", "redis"}, kSmallRun));
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("locked"), std::string::npos) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  // No waiting: it gave up while the lock was still held.
  EXPECT_FALSE(holder->Poll().has_value()) << "dfbench waited for the lock to be released";
  EXPECT_EQ(dfb.Run({"destroy", "--id", "l1"}).code, 4);
  // Read-only commands never block.
  EXPECT_EQ(dfb.Run({"info", "--id", "l1"}).code, 0);
  EXPECT_EQ(dfb.Run({"list"}).code, 0);
  holder->Terminate(std::chrono::milliseconds(100));
}

TEST(StatefulFlow, SigintDuringATrialRestoresStatusAndKeepsFinishedTrials) {
  DfbenchRunner dfb("sigint");
  ASSERT_EQ(dfb.Run({"setup", "--id", "i1", "--engines", "redis"}).code, 0);
  auto proc = StartLongRun(dfb, "i1");
  // Wait until trial 2 is under way: trial 1's report exists.
  const std::filesystem::path t1 =
      dfb.WaitForRunDir("i1", "benchmarks", [](const std::filesystem::path& run) {
        return std::filesystem::exists(run / "memtier" / "redis-t1.json");
      });
  ASSERT_FALSE(t1.empty());
  EXPECT_EQ(dfb.State("i1")["status"], "benchmarking");
  ASSERT_NO_FATAL_FAILURE(dfb.Interrupt(&proc));
  EXPECT_EQ(dfb.State("i1")["status"], "ready");
  json r = json::parse(*core::ReadFile(t1 / "results.json"));
  EXPECT_EQ(r["status"], "interrupted");
  ASSERT_GE(r["engines"][0]["trials"].size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(t1 / "memtier" / "redis-t1.json"));
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty())
      << "an engine or load generator was left running";
  // The setup is usable again.
  EXPECT_EQ(dfb.Run(Concat({"run", "--id", "i1", "--engines", "redis"}, kSmallRun)).code, 0);
}

// A run killed with SIGKILL leaves the status "benchmarking" and no lock: the next command says
// which command died, marks its run interrupted (keeping its trials) and goes on; nothing the
// killed run started survives it (local children have a parent-death signal).
TEST(StatefulFlow, RunAfterAKilledRunRecovers) {
  DfbenchRunner dfb("killed");
  ASSERT_EQ(dfb.Run({"setup", "--id", "k1", "--engines", "redis"}).code, 0);
  auto proc = StartLongRun(dfb, "k1");
  const int killed_pid = proc.pid();
  // Wait until trial 1 is in results.json (its raw report is written just before).
  const std::filesystem::path run_dir = dfb.WaitForRunDir(
      "k1", "benchmarks",
      [](const std::filesystem::path& run) { return FirstEngineHas(run, "trials", 1); });
  ASSERT_FALSE(run_dir.empty());
  const std::string stderr_before = *core::ReadFile(dfb.home() / "bg.stderr");
  const auto at = stderr_before.find("ready on 127.0.0.1:");
  ASSERT_NE(at, std::string::npos) << stderr_before;
  const std::string port = stderr_before.substr(at + 19, stderr_before.find('\n', at) - at - 19);
  json st = dfb.State("k1");
  EXPECT_EQ(st["status"], "benchmarking");
  EXPECT_EQ(st["active"]["command"], "run");
  EXPECT_EQ(st["active"]["pid"], killed_pid);
  EXPECT_EQ(st["benchmarks"].back()["status"], "running");

  proc.Signal(SIGKILL);
  ASSERT_TRUE(proc.WaitFor(std::chrono::seconds(10)));
  // The engine and the load generator die with it: nothing holds its port or its work dir.
  const std::string work = (dfb.SetupDir("k1") / "work").string();
  auto leftovers = [&] {
    std::vector<int> pids = ProcessesMatching(":" + port);
    for (int pid : ProcessesMatching("--port " + port)) pids.push_back(pid);
    for (int pid : ProcessesMatching(work)) pids.push_back(pid);
    return pids;
  };
  EXPECT_TRUE(WaitUntil([&] { return leftovers().empty(); }, std::chrono::seconds(5),
                        "the killed run's processes to be gone"));
  EXPECT_EQ(dfb.State("k1")["status"], "benchmarking");  // what a killed command leaves

  auto r = dfb.Run(Concat({"run", "--id", "k1", "--engines", "redis"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string line =
      "the previous command on setup \"k1\" (run, pid " + std::to_string(killed_pid) + ", started ";
  EXPECT_NE(r.err.find(line), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("died while benchmarking"), std::string::npos) << r.err;
  st = dfb.State("k1");
  EXPECT_EQ(st["status"], "ready");
  EXPECT_FALSE(st.contains("active")) << st;
  ASSERT_EQ(st["benchmarks"].size(), 2u);
  EXPECT_EQ(st["benchmarks"][0]["status"], "interrupted");
  EXPECT_EQ(st["benchmarks"][1]["status"], "completed");
  json killed = json::parse(*core::ReadFile(run_dir / "results.json"));
  EXPECT_EQ(killed["status"], "interrupted");
  EXPECT_FALSE(killed["completed_at"].get<std::string>().empty());
  EXPECT_GE(killed["engines"][0]["trials"].size(), 1u);  // what it measured is kept
  EXPECT_TRUE(std::filesystem::exists(run_dir / "memtier" / "redis-t1.json"));

  r = dfb.Run({"info", "--id", "k1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("interrupted"), std::string::npos) << r.out;
  EXPECT_TRUE(leftovers().empty());
}

// A socket listening on a port of 127.0.0.1 the kernel picked; closed by the destructor.
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 && listen(fd, 4) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port = ntohs(addr.sin_port);
    }
  }
  ~Listener() { close(fd); }
};

// --port fixes where the setup's engines listen; a port another program holds stops the run
// before anything starts, in one line, with exit code 5.
TEST(StatefulFlow, EnginesListenOnTheSetupsPort) {
  DfbenchRunner dfb("port");
  int port = 0;
  {
    Listener probe;  // a port that is free once the probe closes
    port = probe.port;
  }
  ASSERT_GT(port, 0);
  ASSERT_EQ(dfb.Run({"setup", "--id", "p1", "--engines", "redis,memcached", "--port",
                     std::to_string(port)})
                .code,
            0);
  EXPECT_EQ(dfb.State("p1")["provider_data"]["engine_port"], port);
  auto r = dfb.Run(Concat({"run", "--id", "p1", "--engines", "redis,memcached"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("redis 7"), std::string::npos);
  EXPECT_NE(r.err.find("ready on 127.0.0.1:" + std::to_string(port) + "\n"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("[memcached] memcached"), std::string::npos);

  Listener busy;
  ASSERT_GT(busy.port, 0);
  ASSERT_EQ(
      dfb.Run({"setup", "--id", "p2", "--engines", "redis", "--port", std::to_string(busy.port)})
          .code,
      0);
  r = dfb.Run(Concat({"run", "--id", "p2", "--engines", "redis"}, kSmallRun));
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("port " + std::to_string(busy.port) + " on local (127.0.0.1) is in use"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(dfb.State("p2")["status"], "ready");
  EXPECT_EQ(dfb.Run({"setup", "--id", "p3", "--port", "70000"}).code, 2);
}

TEST(Engines, BinaryThatExitsAtStartGivesItsLogTail) {
  DfbenchRunner dfb("badengine");
  const auto script = dfb.home() / "fake-redis-server";
  {
    std::ofstream out(script);
    out << "#!/bin/sh\n"
           "if [ \"$1\" = --version ]; then echo 'Redis server v=7.0.0 fake'; exit 0; fi\n"
           "echo 'FATAL CONFIG FILE ERROR: boom-at-start' >&2\nexit 1\n";
  }
  chmod(script.c_str(), 0755);
  ASSERT_EQ(dfb.Run({"setup", "--id", "b1", "--engines", "redis,memcached", "--redis_binary",
                     script.string()})
                .code,
            0);
  auto r = dfb.Run(
      Concat({"run", "--id", "b1", "--engines", "redis,memcached", "--output", "json"}, kSmallRun));
  EXPECT_EQ(r.code, 1) << r.err;
  json out = json::parse(r.out);
  EXPECT_NE(out["engines"][0]["error"].get<std::string>().find("boom-at-start"), std::string::npos)
      << out.dump(2);
  // The run went on with the next engine.
  EXPECT_EQ(out["engines"][1]["engine"], "memcached");
  EXPECT_EQ(out["engines"][1]["trials"].size(), 2u);
  EXPECT_EQ(out["status"], "failed");
  EXPECT_EQ(dfb.State("b1")["status"], "ready");
}

TEST(Engines, EngineThatDiesMidRunIsRecordedAndTheRunGoesOn) {
  DfbenchRunner dfb("diesmidrun");
  ASSERT_EQ(dfb.Run({"setup", "--id", "d1", "--engines", "redis,memcached"}).code, 0);
  auto proc = dfb.Start({"run",
                         "--id",
                         "d1",
                         "--engines",
                         "redis,memcached",
                         "--memtier-threads",
                         "1",
                         "--memtier-clients",
                         "4",
                         "--memtier-pipeline",
                         "1",
                         "--memtier-requests",
                         "5000",
                         "--warmup-requests",
                         "0",
                         "--trials",
                         "20",
                         "--cooldown",
                         "0",
                         "--output",
                         "json"});
  // Once redis is under load, kill it the hard way. Ours is the redis-server whose working
  // directory is inside this test's DFBENCH_HOME.
  int redis = -1;
  ASSERT_TRUE(WaitUntil(
      [&] {
        for (int pid : ProcessesMatching("redis-server")) {
          std::error_code ec;
          auto cwd = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/cwd", ec);
          if (!ec && cwd.string().rfind(dfb.home().string(), 0) == 0) redis = pid;
        }
        return redis > 0;
      },
      std::chrono::seconds(30), "the run's redis-server"))
      << core::ReadTail(dfb.home() / "bg.stderr");
  ASSERT_TRUE(WaitUntil(
      [&] {
        return CallsOn("127.0.0.1", RedisPort(redis), {"set", "get"}) >= 1000;
      },
      std::chrono::seconds(60), "1000 SETs and GETs on the run's redis"))
      << core::ReadTail(dfb.home() / "bg.stderr");
  kill(redis, SIGKILL);
  auto status = proc.WaitFor(std::chrono::seconds(120));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 1) << core::ReadTail(dfb.home() / "bg.stderr");
  json out = json::parse(*core::ReadFile(dfb.home() / "bg.stdout"));
  EXPECT_FALSE(out["engines"][0]["error"].get<std::string>().empty());
  EXPECT_EQ(out["engines"][1]["engine"], "memcached");
  EXPECT_EQ(out["engines"][1]["trials"].size(), 20u);
  EXPECT_EQ(out["status"], "failed");
  EXPECT_EQ(dfb.State("d1")["status"], "ready");
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty());
}

TEST(BadInput, OneClearLineAndADocumentedExitCode) {
  DfbenchRunner dfb("badinput");
  ASSERT_EQ(dfb.Run({"setup", "--id", "x1", "--engines", "redis"}).code, 0);
  struct Case {
    std::vector<std::string> args;
    int code;
    const char* needle;
  } cases[] = {
      {{"setup", "--engines", "redis,foodb"}, 2, "unknown engine \"foodb\""},
      {{"run", "--id", "x1", "--memtier-ratio", "1:x"}, 2, "invalid ratio"},
      {{"run", "--id", "nope"}, 3, "not found"},
      {{"info", "--id", "nope"}, 3, "not found"},
      {{"run", "--id", "x1", "--no-such-flag"}, 2, "--no-such-flag"},
      {{"run", "--id", "x1", "--engines", "valkey"}, 2, "not installed"},
      {{"runn"}, 2, "did you mean 'run'"},
      {{"setup", "--id", "x1", "--engines", "redis"}, 2, "already exists"},
  };
  for (const auto& c : cases) {
    auto r = dfb.Run(c.args);
    EXPECT_EQ(r.code, c.code) << c.args[0] << " " << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << r.err;
  }
}

TEST(Version, PrintsVersionCommitAndDate) {
  DfbenchRunner dfb("version");
  auto r = dfb.Run({"version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("dfbench v", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("commit "), std::string::npos);
  EXPECT_NE(r.out.find("built "), std::string::npos);
}

}  // namespace
}  // namespace dfbench::testing
