// `dfbench run-commands` / `run-commands-dfly` end to end: the built binary against real
// redis-server processes, tiny settings (1 s trials, 1000 keys).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// Tiny settings; `overrides` replaces some of their values.
std::vector<std::string> Tiny(const std::map<std::string, std::string>& overrides = {}) {
  std::vector<std::pair<std::string, std::string>> flags = {
      {"--engines", "redis"},     {"--key-maximum", "1000"},   {"--test-time", "1"},
      {"--warmup-time", "0"},     {"--trials", "1"},           {"--memtier-threads", "1"},
      {"--memtier-clients", "4"}, {"--memtier-pipeline", "8"}, {"--cooldown", "0"},
      {"--output", "json"}};
  std::vector<std::string> args;
  for (auto& [flag, value] : flags) {
    auto it = overrides.find(flag);
    args.push_back(flag);
    args.push_back(it == overrides.end() ? value : it->second);
  }
  return args;
}

// A setup with redis, shared by the tests of one fixture.
class CommandsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Its own home per process: ctest runs each test as a process, several at once.
    dfb_ = new DfbenchRunner("commands-" + std::to_string(getpid()));
    auto r = dfb_->Run({"setup", "--id", "c1", "--engines", "redis"});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() { EndSuiteSetup(dfb_, "c1"); }

  // run-commands on redis with tiny settings (some replaced by `overrides`) and `args`; the
  // parsed stdout.
  static json RunCommands(const std::vector<std::string>& args,
                          const std::map<std::string, std::string>& overrides = {}) {
    return SucceededJson(
        dfb_->Run(Concat(Concat({"run-commands", "--id", "c1"}, Tiny(overrides)), args)));
  }

  static std::filesystem::path RunDir(const json& out) {
    return dfb_->SetupDir("c1") / "commands" / out["run_id"].get<std::string>();
  }

  static inline DfbenchRunner* dfb_ = nullptr;
};

// Throughput above zero, ordered percentiles, no error replies: the template is valid for its
// preloaded data type and the generator measured it.
void ExpectSaneTrials(const json& engine, size_t trials, const std::string& what) {
  ASSERT_EQ(engine["trials"].size(), trials) << what << ": " << engine.dump();
  for (const json& t : engine["trials"]) {
    EXPECT_GT(t["throughput"].get<double>(), 0) << what;
    EXPECT_GT(t["p50"].get<double>(), 0) << what;
    EXPECT_GE(t["p99"].get<double>(), t["p50"].get<double>()) << what;
    EXPECT_GE(t["p999"].get<double>(), t["p99"].get<double>()) << what;
    EXPECT_GT(t["avg_latency"].get<double>(), 0) << what;
    EXPECT_GT(t["ops"].get<uint64_t>(), 0u) << what;
    EXPECT_EQ(t["errors"].get<uint64_t>(), 0u) << what;
  }
  EXPECT_GT(engine["throughput"]["median"].get<double>(), 0) << what;
}

class BuiltinCommandsTest : public CommandsTest {
 public:
  void Check(const std::vector<std::string>& names) {
    static const std::set<std::string> kDraining = {"DEL", "LPOP", "RPOP"};
    for (const auto& name : names) {
      json out = RunCommands({"--command", name});
      ASSERT_TRUE(out.contains("commands")) << name;
      EXPECT_EQ(out["scenario"], "commands") << name;
      EXPECT_EQ(out["status"], "completed") << name;
      EXPECT_EQ(out["tool"], "builtin") << name;
      const json& c = out["commands"][0];
      EXPECT_EQ(c["command"], name);
      const json& e = c["engines"][0];
      EXPECT_EQ(e["engine"], "redis");
      ExpectSaneTrials(e, 1, name);
      const bool draining = kDraining.count(name) > 0;
      EXPECT_EQ(e.value("approximate", false), draining) << name;
      EXPECT_EQ(c.value("approximate", false), draining) << name;
      EXPECT_TRUE(std::filesystem::exists(RunDir(out) / "memtier" / ("redis-" + name + "-t1.json")))
          << name;
      EXPECT_TRUE(std::filesystem::exists(RunDir(out) / "results.csv")) << name;
    }
  }
};

TEST_F(BuiltinCommandsTest, StringsAndKeyspace) {
  Check({"SET", "GET", "MSET", "MGET", "INCR", "APPEND", "EXISTS", "EXPIRE", "TTL", "DEL", "PING"});
}

TEST_F(BuiltinCommandsTest, Lists) {
  Check({"LPUSH", "RPUSH", "LPOP", "RPOP", "LRANGE"});
}

TEST_F(BuiltinCommandsTest, HashesSetsSortedSets) {
  Check({"HSET", "HGET", "HGETALL", "SADD", "SISMEMBER", "SMEMBERS", "ZADD", "ZSCORE", "ZRANGE"});
}

TEST_F(CommandsTest, ReadOnlyCommandsKeepTheirKeyspaceAcrossTrials) {
  json out = RunCommands({"--command", "LRANGE"}, {{"--trials", "3"}, {"--warmup-time", "1"}});
  const json& e = out["commands"][0]["engines"][0];
  ExpectSaneTrials(e, 3, "LRANGE");
  ASSERT_EQ(e["preloads"].size(), 1u) << e.dump();  // once, before the warmup
  EXPECT_EQ(e["preloads"][0]["before"], "warmup");
  EXPECT_EQ(e["preloads"][0]["keys"], 1000);
  EXPECT_EQ(e["preloads"][0]["ops"], 10000);  // 1000 keys x 10 passes of 10 elements
  for (const json& k : e["keyspace"]) {
    EXPECT_EQ(k["keys_before"], 1000);
    EXPECT_EQ(k["keys_after"], 1000);
  }
  EXPECT_GT(e["warmup_ops"].get<uint64_t>(), 0u);
  // The server's own count covers the preload, the warmup and the trials.
  uint64_t client = e["warmup_ops"].get<uint64_t>() + 10000;
  for (const json& t : e["trials"]) client += t["ops"].get<uint64_t>();
  EXPECT_GE(e["server_ops"].get<uint64_t>(), client);
}

TEST_F(CommandsTest, MutatingCommandsAreFlushedAndPreloadedBeforeEveryTrial) {
  // LPOP drains its lists: each trial starts from a fresh 1000-key preload.
  json out = RunCommands({"--command", "LPOP"}, {{"--trials", "3"}, {"--warmup-time", "1"}});
  const json& e = out["commands"][0]["engines"][0];
  ExpectSaneTrials(e, 3, "LPOP");
  EXPECT_EQ(e["approximate"], true);
  ASSERT_EQ(e["preloads"].size(), 4u) << e.dump();
  const char* before[] = {"warmup", "trial 1", "trial 2", "trial 3"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(e["preloads"][i]["before"], before[i]);
    EXPECT_EQ(e["preloads"][i]["keys"], 1000);
  }
  ASSERT_EQ(e["keyspace"].size(), 3u);
  for (const json& k : e["keyspace"]) EXPECT_EQ(k["keys_before"], 1000) << k.dump();
  EXPECT_TRUE(
      std::filesystem::exists(RunDir(out) / "memtier" / "preload" / "redis-LPOP-t3-p10.json"));

  // SET needs no preload, only the flush: every trial starts from an empty keyspace.
  out = RunCommands({"--command", "SET"}, {{"--trials", "2"}});
  const json& s = out["commands"][0]["engines"][0];
  EXPECT_TRUE(s["preloads"].empty());
  for (const json& k : s["keyspace"]) {
    EXPECT_EQ(k["keys_before"], 0) << k.dump();
    EXPECT_GT(k["keys_after"].get<uint64_t>(), 0u) << k.dump();
  }
}

TEST_F(CommandsTest, CustomTemplates) {
  json out = RunCommands({"--command-template", "SETEX __key__ 3600 __data__", "--command-name",
                          "SETEX", "--command-mutates"},
                         {{"--trials", "2"}});
  const json& setex = out["commands"][0];
  EXPECT_EQ(setex["command"], "SETEX");
  EXPECT_EQ(setex["template"], "SETEX __key__ 3600 __data__");
  EXPECT_EQ(setex["mutates"], true);
  ExpectSaneTrials(setex["engines"][0], 2, "SETEX");
  EXPECT_EQ(setex["engines"][0]["keyspace"][1]["keys_before"], 0);  // flushed before trial 2

  out = RunCommands({"--command-template", "GETRANGE __key__ 0 50", "--preload-template",
                     "SET __key__ __data__"});
  const json& getrange = out["commands"][0];
  EXPECT_EQ(getrange["command"], "GETRANGE");  // the template's first word
  EXPECT_EQ(getrange["mutates"], false);
  ExpectSaneTrials(getrange["engines"][0], 1, "GETRANGE");
  EXPECT_EQ(getrange["engines"][0]["preloads"][0]["keys"], 1000);

  // A multi-item custom preload over its own key range, with item numbers.
  out = RunCommands({"--command-template", "SISMEMBER __key__ m3", "--preload-template",
                     "SADD __key__ m__item__", "--preload-items", "4", "--command-key-maximum",
                     "200"});
  const json& custom = out["commands"][0];
  EXPECT_EQ(custom["key_maximum"], 200);
  EXPECT_EQ(custom["preload_items"], 4);
  EXPECT_EQ(custom["engines"][0]["preloads"][0]["passes"], 4);
  EXPECT_EQ(custom["engines"][0]["preloads"][0]["keys"], 200);
  ExpectSaneTrials(custom["engines"][0], 1, "SISMEMBER");
}

TEST_F(CommandsTest, OutputFormsAndHistory) {
  auto base = Concat({"run-commands", "--id", "c1", "--engines", "redis", "--command", "GET"},
                     {"--key-maximum", "1000", "--test-time", "1", "--warmup-time", "0", "--trials",
                      "1", "--memtier-threads", "1", "--memtier-clients", "2"});
  auto r = dfb_->Run(base);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("commands ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("OPS/SEC"), std::string::npos) << r.out;
  r = dfb_->Run(Concat(base, {"--output", "csv"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("command,engine,version,trial,throughput", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("GET,redis,"), std::string::npos) << r.out;
  json st = dfb_->State("c1");
  EXPECT_EQ(st["status"], "ready");
  ASSERT_FALSE(st["benchmarks"].empty());
  const json& last = st["benchmarks"].back();
  EXPECT_EQ(last["kind"], "commands");
  EXPECT_EQ(last["path"].get<std::string>().rfind("commands/", 0), 0u);
  EXPECT_TRUE(std::filesystem::exists(dfb_->SetupDir("c1") / last["path"].get<std::string>()));
}

TEST_F(CommandsTest, InvalidCombinationsAreRefusedOneLineEach) {
  struct Case {
    std::vector<std::string> args;
    const char* needle;
  } cases[] = {
      {{"--command", "GET", "--command-template", "GET __key__"}, "mutually exclusive"},
      {{}, "give --command NAME"},
      {{"--command", "GETDEL"}, "unknown command \"GETDEL\""},
      {{"--command", "GET", "--command-mutates"},
       "--command-mutates applies to --command-template"},
      {{"--command", "GET", "--preload-template", "SET __key__ x"},
       "--preload-template applies to --command-template"},
      {{"--command", "GET", "--command-key-maximum", "10"},
       "--command-key-maximum applies to --command-template"},
      {{"--command-template", "GETRANGE __key__ 0 5", "--preload-template", "SET k __data__"},
       "--preload-template must contain __key__"},
      {{"--command-template", "LRANGE __key__ 0 5", "--preload-template", "RPUSH __key__ __data__",
        "--preload-items", "10"},
       "--command-key-maximum is required when --preload-items > 1"},
      {{"--command-template", "LRANGE __key__ 0 5", "--preload-items", "3"},
       "--preload-items needs --preload-template"},
      {{"--command-template", "GET __key__ __nope__"}, "--command-template:"},
      {{"--command-template", "GET __key__", "--command-name", "GET ME"}, "--command-name"},
      {{"--command", "GET", "--engines", "redis,dragonfly"},
       "--dragonfly_num_shards is required when dragonfly is among the engines"},
      {{"--command", "GET", "--engines", "memcached"}, "does not speak the Redis protocol"},
      {{"--command", "GET", "--memtier-command-key-pattern", "P", "--memtier-threads", "4",
        "--memtier-clients", "300"},
       "key pattern P needs at least one key per connection"},
      {{"--command", "GET", "--memtier-command-key-pattern", "X"}, "--memtier-command-key-pattern"},
      {{"--command", "GET", "--memtier-binary", "/bin/true"}, "--memtier-binary needs"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"run-commands", "--id", "c1", "--key-maximum", "1000"};
    if (std::find(c.args.begin(), c.args.end(), "--engines") == c.args.end()) {
      args.insert(args.end(), {"--engines", "redis"});
    }
    auto r = dfb_->Run(Concat(args, c.args));
    EXPECT_EQ(r.code, 2) << c.needle << ": " << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_EQ(dfb_->State("c1")["status"], "ready");
}

// What an ssh or aws setup records when its client could not build the tools (no network):
// the run that needs one says so, with setup's reason, in one line. A local setup builds no
// tools, so the record is written into its state here.
TEST_F(CommandsTest, ToolsSetupCouldNotBuildAreNamedWithItsReason) {
  if (core::FindOnPath("memtier_benchmark") || core::FindOnPath("dfly_bench")) {
    GTEST_SKIP() << "the tools are on this machine";
  }
  ASSERT_EQ(dfb_->Run({"setup", "--id", "offline", "--engines", "redis"}).code, 0);
  nlohmann::json state = dfb_->State("offline");
  const std::string why =
      "it cannot reach github.com, where the source is: install memtier_benchmark there "
      "yourself, or pass --memtier-binary PATH";
  state["provider_data"]["load_generators"] = {
      {"memtier", {{"method", "missing"}, {"version", "2.3.0"}, {"reason", why}}},
      {"dfly_bench", {{"method", "missing"}, {"version", "main"}, {"reason", "no network"}}}};
  std::ofstream(dfb_->SetupDir("offline") / "state.json") << state.dump(2);

  auto r =
      dfb_->Run({"run", "--id", "offline", "--engines", "redis", "--load-generator", "memtier"});
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("memtier_benchmark is not installed on the client host: setup could not "
                       "build it (" +
                       why + ")"),
            std::string::npos)
      << r.err;
  r = dfb_->Run({"run-commands-dfly", "--id", "offline", "--engines", "redis", "--command", "GET"});
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("dfly_bench is not installed on the client host: setup could not build it "
                       "(no network)"),
            std::string::npos)
      << r.err;
  // A binary given by path that is not there is that error, whatever setup recorded.
  r = dfb_->Run({"run", "--id", "offline", "--engines", "redis", "--load-generator", "memtier",
                 "--memtier-binary", "/nonexistent/memtier_benchmark"});
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_NE(r.err.find("not found at /nonexistent/memtier_benchmark"), std::string::npos) << r.err;
  r = dfb_->Run({"info", "--id", "offline"});
  EXPECT_NE(r.out.find("  Load generator: memtier not installed (" + why + ")\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(dfb_->State("offline")["status"], "ready");
  EXPECT_EQ(dfb_->Run({"destroy", "--id", "offline", "-y"}).code, 0);
}

TEST_F(CommandsTest, MissingLoadGeneratorsSayHowToProvideThem) {
  if (!core::FindOnPath("memtier_benchmark")) {
    auto r = dfb_->Run({"run-commands", "--id", "c1", "--engines", "redis", "--command", "GET",
                        "--load-generator", "memtier"});
    EXPECT_EQ(r.code, 5) << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("memtier_benchmark not found"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--memtier-binary PATH"), std::string::npos) << r.err;
    r = dfb_->Run({"run", "--id", "c1", "--engines", "redis", "--load-generator", "memtier"});
    EXPECT_EQ(r.code, 5) << r.err;
  }
  if (!core::FindOnPath("dfly_bench")) {
    auto r =
        dfb_->Run({"run-commands-dfly", "--id", "c1", "--engines", "redis", "--command", "GET"});
    EXPECT_EQ(r.code, 5) << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("dfly_bench not found"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--dfly-bench-binary PATH"), std::string::npos) << r.err;
    // The old spellings still work, with a notice.
    r = dfb_->Run({"run-commands-dfly", "--id", "c1", "--engines", "redis", "--command", "GET",
                   "--dfly-threads", "4"});
    EXPECT_EQ(r.code, 5) << r.err;
    EXPECT_NE(r.err.find("--dfly-threads is deprecated; use --dfly-bench-threads"),
              std::string::npos)
        << r.err;
  }
  EXPECT_EQ(dfb_->State("c1")["status"], "ready");
  EXPECT_TRUE(ProcessesMatching(dfb_->home().string()).empty());
}

// A stand-in for an external tool on the client host: copies a report into its output file and
// prints `printed` (a file) or "<name> stdout".
std::filesystem::path FakeTool(const std::filesystem::path& dir, const std::string& name,
                               const std::string& report_flag, const std::string& report,
                               const std::string& printed = "") {
  std::filesystem::create_directories(dir);
  std::filesystem::path script = dir / name;
  std::ofstream out(script);
  out << "#!/bin/sh\n"
      << "echo \"$@\" >> '" << (dir / (name + ".argv")).string() << "'\n"
      << "next=''\n"
      << "for a in \"$@\"; do\n"
      << "  if [ \"$next\" = 1 ]; then cp '" << report << "' \"$a\"; next=''; fi\n"
      << "  case \"$a\" in\n"
      << "    " << report_flag << ") next=1;;\n"
      << "    " << report_flag << "=*) cp '" << report << "' \"${a#" << report_flag << "=}\";;\n"
      << "  esac\n"
      << "done\n"
      << (printed.empty() ? "echo '" + name + " stdout'" : "cat '" + printed + "'") << "\n";
  out.close();
  chmod(script.c_str(), 0755);
  return script;
}

TEST_F(CommandsTest, ExternalGeneratorsAreDrivenAndTheirReportsKept) {
  const std::string fixture =
      std::string(DFBENCH_FIXTURES_DIR) + "/peers/memtier_d_lpush_command.json";
  const auto tools = dfb_->home() / "tools";
  const auto memtier = FakeTool(tools, "memtier_benchmark", "--json-out-file", fixture);
  // The stand-ins send nothing, so the server's own count of each trial (none) is below the
  // answered operations their reports claim: lost work, a failed trial, exit 1 (as `run`, below).
  auto m = dfb_->Run(Concat(
      Concat({"run-commands", "--id", "c1"}, Tiny({})),
      {"--command", "LPUSH", "--load-generator", "memtier", "--memtier-binary", memtier.string()}));
  ASSERT_EQ(m.code, 1) << m.err;
  json out = json::parse(m.out);
  EXPECT_EQ(out["tool"], "memtier");
  EXPECT_EQ(out["context"]["load_generator"], "memtier");
  const json& e = out["commands"][0]["engines"][0];
  EXPECT_EQ(e["trials"][0]["ops"], 10000);         // the report's Totals.Count
  EXPECT_EQ(e["trials"][0]["throughput"], 10000);  // over the 1 s test time
  EXPECT_EQ(e["trials"][0]["server_ops"], 0);
  EXPECT_NE(e["trials"][0]["failed"].get<std::string>().find("(lost work)"), std::string::npos)
      << e.dump();
  EXPECT_TRUE(std::filesystem::exists(RunDir(out) / "memtier" / "redis-LPUSH-t1.json"));
  EXPECT_EQ(*core::ReadFile(RunDir(out) / "memtier" / "redis-LPUSH-t1.txt"),
            "memtier_benchmark stdout\n");
  const std::string argv = *core::ReadFile(tools / "memtier_benchmark.argv");
  EXPECT_NE(argv.find("--test-time 1 --command LPUSH __key__ __data__ --command-key-pattern R"),
            std::string::npos)
      << argv;

  // run-commands-dfly, printing what the real dfly_bench printed; its own flags on the command
  // line.
  const std::string dfly_fixture = std::string(DFBENCH_FIXTURES_DIR) + "/dfly_bench/get_trial";
  const auto dfly = FakeTool(tools, "dfly_bench", "--json_out_file", dfly_fixture + ".json",
                             dfly_fixture + ".txt");
  auto r = dfb_->Run(SplitArgs(
      "run-commands-dfly --id c1 --engines redis --command LPUSH --dfly-bench-binary '" +
      dfly.string() +
      "' --dfly-bench-threads 2 --dfly-bench-conns 3 --dfly-bench-key-dist Z --dfly-bench-qps 100 "
      "--key-maximum 1000 --test-time 1 --warmup-time 0 --trials 1 --cooldown 0 --output json"));
  ASSERT_EQ(r.code, 1) << r.err;  // lost work, as above
  json d = json::parse(r.out);
  EXPECT_EQ(d["tool"], "dfly_bench");
  EXPECT_EQ(d["dfly_bench_ref"], "main");
  EXPECT_EQ(d["memtier"]["threads"], 2);
  EXPECT_EQ(d["memtier"]["key_pattern"], "Z");
  EXPECT_EQ(d["memtier"]["qps"], 100);
  EXPECT_EQ(d["commands"][0]["engines"][0]["trials"][0]["ops"], 79170);
  EXPECT_NE(
      d["commands"][0]["engines"][0]["trials"][0]["failed"].get<std::string>().find("(lost work)"),
      std::string::npos);
  const std::string dargv = *core::ReadFile(tools / "dfly_bench.argv");
  EXPECT_NE(dargv.find("--proactor_threads=2 --c=3"), std::string::npos) << dargv;
  EXPECT_NE(dargv.find("--key_dist=Z --qps=100 --test_time=1 --command=LPUSH __key__ __data__"),
            std::string::npos)
      << dargv;

  // `run` takes the same --load-generator. The stand-in sends nothing, so the server's own
  // count (none) is below the answered operations its report claims: lost work, a failed trial.
  r = dfb_->Run({"run", "--id", "c1", "--engines", "redis", "--load-generator", "memtier",
                 "--memtier-binary", memtier.string(), "--memtier-requests", "50",
                 "--warmup-requests", "0", "--trials", "1", "--cooldown", "0", "--output", "json"});
  ASSERT_EQ(r.code, 1) << r.err;
  json run = json::parse(r.out);
  EXPECT_EQ(run["context"]["load_generator"], "memtier");
  EXPECT_EQ(run["engines"][0]["trials"][0]["ops"], 10000);
  EXPECT_EQ(run["engines"][0]["trials"][0]["server_ops"], 0);
  EXPECT_NE(run["engines"][0]["trials"][0]["failed"].get<std::string>().find("(lost work)"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace dfbench::testing
