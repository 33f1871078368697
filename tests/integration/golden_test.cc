// What dfbench prints and records, byte for byte, against files kept under tests/fixtures/golden/:
// every command's --help, compare and report of the fixture result files, and for each benchmark
// command the settings it records and the load each load-generator pass was given (the
// "configuration" block of every raw report, which the generator writes from the command line it
// received). Measured numbers, times, ports and host facts vary from run to run and are left out;
// everything else must not change unless a change means it to.
//
// DFBENCH_UPDATE_GOLDEN=1 rewrites the files from the current build instead of comparing. An
// expected HTML page is kept as <name>.html.expected: it is output to compare against, not a
// page of the project's own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/testbed_engines.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path GoldenPath(const std::string& name) {
  return FixturePath("golden/" + name);
}

bool Updating() {
  const char* v = std::getenv("DFBENCH_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// `text` with what differs between two machines or builds written as placeholders: the fixtures'
// folder, the build's version line, the time a report was generated.
std::string Portable(std::string text) {
  const std::string fixtures = FixturePath("").string();
  for (size_t at; (at = text.find(fixtures)) != std::string::npos;) {
    text.replace(at, fixtures.size(), "<fixtures>/");
  }
  text = std::regex_replace(text, std::regex(R"(dfbench v[^ ]+ \(commit [^)]*\))"),
                            "<dfbench version>");
  return std::regex_replace(text, std::regex(R"(generated \d{4}-\d\d-\d\dT[\d:]+Z)"),
                            "generated <time>");
}

// The first line where `got` and `want` differ, numbered, for a failure message.
std::string FirstDifference(const std::string& got, const std::string& want) {
  std::istringstream g(got);
  std::istringstream w(want);
  std::string gl;
  std::string wl;
  for (int n = 1;; ++n) {
    const bool more_g = static_cast<bool>(std::getline(g, gl));
    const bool more_w = static_cast<bool>(std::getline(w, wl));
    if (!more_g && !more_w) return "same lines, other line ends";
    if (gl != wl || more_g != more_w) {
      return "line " + std::to_string(n) + ":\n  now:    " + (more_g ? gl : "<end>") +
             "\n  golden: " + (more_w ? wl : "<end>");
    }
  }
}

// Compares `text` with the golden file `name`, or writes it there when updating.
void ExpectGolden(const std::string& name, const std::string& raw) {
  const std::string text = Portable(raw);
  const fs::path path = GoldenPath(name);
  if (Updating()) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return;
  }
  auto want = core::ReadFile(path);
  ASSERT_TRUE(want) << path << " is missing: run with DFBENCH_UPDATE_GOLDEN=1 to write it";
  EXPECT_TRUE(text == *want) << path << " differs at " << FirstDifference(text, *want);
}

// `j` without the keys whose values differ between two runs of the same command line.
json Stable(json j) {
  static const std::set<std::string> kVolatile = {
      "context", "created_at", "completed_at", "run_id",     "port",      "server",
      "hosts",   "version",    "tool_version", "key_stddev", "started_at"};
  if (j.is_object()) {
    json out = json::object();
    for (auto& [k, v] : j.items()) {
      if (!kVolatile.contains(k)) out[k] = Stable(v);
    }
    return out;
  }
  if (j.is_array()) {
    for (auto& v : j) v = Stable(v);
  }
  return j;
}

// What a replication run records of its settings (it writes no config.json): each case's name,
// engine and the flags its master and replica were started with.
json ReplicationSettings(const json& results) {
  json out = {{"scenario", results["scenario"]}, {"dfly_bench_ref", results["dfly_bench_ref"]}};
  for (const json& c : results["cases"]) {
    out["cases"].push_back({{"run_name", c["run_name"]},
                            {"engine", c["engine"]},
                            {"master_flags", c["master_flags"]},
                            {"replica_flags", c["replica_flags"]}});
  }
  return out;
}

// The run's recorded settings (config.json) and, for each raw report under it, the load its
// generator was given, keyed by the report's path in the run directory.
std::string RecordedLoad(const fs::path& run_dir) {
  json out;
  if (fs::exists(run_dir / "config.json")) {
    out["config.json"] = Stable(ReadJson(run_dir / "config.json"));
  } else {
    out["results.json"] = ReplicationSettings(ReadJson(run_dir / "results.json"));
  }
  std::vector<fs::path> reports;
  for (const auto& e : fs::recursive_directory_iterator(run_dir)) {
    if (e.path().extension() == ".json" && e.path().parent_path() != run_dir) {
      reports.push_back(e.path());
    }
  }
  std::sort(reports.begin(), reports.end());
  for (const fs::path& p : reports) {
    const json report = ReadJson(p);
    if (report.contains("configuration")) {
      out["reports"][fs::relative(p, run_dir).string()] = Stable(report["configuration"]);
    }
  }
  return out.dump(2) + "\n";
}

// The one run directory under `kind` of setup `id` newer than every name in `seen`.
fs::path NewRunDir(const DfbenchRunner& dfb, const std::string& id, const std::string& kind,
                   std::set<std::string>* seen) {
  fs::path found;
  for (const auto& e : fs::directory_iterator(dfb.SetupDir(id) / kind)) {
    if (seen->insert(e.path().filename().string()).second) found = e.path();
  }
  return found;
}

TEST(Golden, HelpTexts) {
  DfbenchRunner dfb("golden-help");
  const std::vector<std::string> commands = {
      "setup", "run",        "run-commands", "run-commands-dfly", "run-memory", "run-replication",
      "sweep", "quickstart", "loadgen",      "compare",           "report",     "info",
      "list",  "cache",      "ssh",          "destroy",           "template",   "version",
      "help",  "completion"};
  auto top = dfb.Run({"--help"});
  ASSERT_EQ(top.code, 0);
  ExpectGolden("help/dfbench.txt", top.out);
  for (const std::string& c : commands) {
    auto r = dfb.Run({c, "--help"});
    EXPECT_EQ(r.code, 0) << c;
    ExpectGolden("help/" + c + ".txt", r.out);
  }
}

TEST(Golden, CompareAndReportOfTheFixtures) {
  DfbenchRunner dfb("golden-compare");
  for (const std::string name :
       {"reference_run", "reference_commands", "reference_replication", "replication", "sweep"}) {
    const std::string file = FixturePath("results/" + name + ".json").string();
    for (const std::string output : {"table", "json"}) {
      auto r = dfb.Run({"compare", file, file, "--format", output});
      EXPECT_EQ(r.code, 0) << name << ": " << r.err;
      ExpectGolden("compare/" + name + "." + output, r.out);
    }
    const fs::path html = dfb.home() / (name + ".html");
    auto r = dfb.Run({"report", file, "-o", html.string()});
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    auto text = core::ReadFile(html);
    ASSERT_TRUE(text);
    ExpectGolden("report/" + name + ".html.expected", *text);
  }
}

// Each benchmark command on one local redis, small: its recorded settings and the load of every
// pass, with the built-in generator and with memtier_benchmark.
class GoldenRuns : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dfb_ = new DfbenchRunner("golden-runs");
    auto r = dfb_->Run(
        {"setup", "--id", "g", "--provider", "local", "--engines", "redis", "--replicas", "1"});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() { EndSuiteSetup(dfb_, "g"); }

  // Runs `args` on the setup and checks the new run directory under `kind` against `golden`.
  static void ExpectRun(const std::vector<std::string>& args, const std::string& kind,
                        const std::string& golden) {
    auto r = dfb_->Run(
        Concat({args.front(), "--id", "g", "--engines", "redis"}, {args.begin() + 1, args.end()}));
    ASSERT_EQ(r.code, 0) << r.err;
    std::set<std::string>& seen = seen_[kind];
    const fs::path dir = NewRunDir(*dfb_, "g", kind, &seen);
    ASSERT_FALSE(dir.empty()) << "no new run under " << kind;
    ExpectGolden("runs/" + golden + ".json", RecordedLoad(dir));
  }

  static DfbenchRunner* dfb_;
  static std::map<std::string, std::set<std::string>> seen_;
};
DfbenchRunner* GoldenRuns::dfb_ = nullptr;
std::map<std::string, std::set<std::string>> GoldenRuns::seen_;

TEST_F(GoldenRuns, Run) {
  ExpectRun(Concat({"run"}, kSmallRun), "benchmarks", "run");
  ExpectRun({"run",
             "--memtier-threads",
             "1",
             "--memtier-clients",
             "3",
             "--memtier-requests",
             "500",
             "--memtier-pipeline",
             "7",
             "--memtier-data-size",
             "100",
             "--memtier-ratio",
             "2:3",
             "--distinct-client-seed",
             "--warmup-requests",
             "0",
             "--trials",
             "1",
             "--cooldown",
             "0"},
            "benchmarks", "run-options");
}

TEST_F(GoldenRuns, RunWithMemtier) {
  if (auto why = MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
  ExpectRun(
      Concat({"run", "--load-generator", "memtier", "--memtier-binary", MemtierBinary().string()},
             kSmallRun),
      "benchmarks", "run-memtier");
}

TEST_F(GoldenRuns, RunCommands) {
  ExpectRun(
      Concat({"run-commands", "--command", "LPUSH", "--memtier-pipeline", "3"}, kSmallCommandRun),
      "commands", "run-commands-lpush");
  ExpectRun(Concat({"run-commands", "--command-template", "SETEX __key__ 60 __data__",
                    "--command-name", "setex", "--preload-template", "SET __key__ __data__"},
                   kSmallCommandRun),
            "commands", "run-commands-setex");
}

TEST_F(GoldenRuns, RunCommandsWithMemtier) {
  if (auto why = MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
  ExpectRun(Concat({"run-commands", "--command", "SADD", "--load-generator", "memtier",
                    "--memtier-binary", MemtierBinary().string()},
                   kSmallCommandRun),
            "commands", "run-commands-memtier");
}

TEST_F(GoldenRuns, RunMemory) {
  ExpectRun({"run-memory", "--keys", "5000", "--value-size", "64", "--test-time", "2s",
             "--snapshot-delay", "1s", "--update-rate", "500", "--memtier-threads", "1",
             "--memtier-clients", "2", "--trials", "1", "--cooldown", "0s"},
            "memory", "run-memory");
}

TEST_F(GoldenRuns, RunReplication) {
  ExpectRun({"run-replication", "--cases", "qps=300", "--test-time", "2", "--preload-keys", "2000",
             "--preload-time", "1s", "--value-size", "64", "--master-flags",
             "--repl-diskless-sync-delay 0"},
            "replications", "run-replication");
}

// The open-loop steps' rates follow the measured capacity, so the sweep's golden holds its
// settings and the closed-loop capacity step's load.
TEST_F(GoldenRuns, Sweep) {
  auto r = dfb_->Run(Concat({"sweep", "--id", "g", "--engines", "redis"}, kSmallSweep));
  ASSERT_EQ(r.code, 0) << r.err;
  const fs::path dir = NewRunDir(*dfb_, "g", "sweeps", &seen_["sweeps"]);
  ASSERT_FALSE(dir.empty());
  json kept = json::parse(RecordedLoad(dir));
  json reports = json::object();
  for (auto& [name, load] : kept["reports"].items()) {
    if (name.find("capacity") != std::string::npos) reports[name] = load;
  }
  EXPECT_EQ(reports.size(), 1u) << kept["reports"].dump();
  kept["reports"] = reports;
  ExpectGolden("runs/sweep.json", kept.dump(2) + "\n");
}

}  // namespace
}  // namespace dfbench::testing
