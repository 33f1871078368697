// The benchmark scenarios end to end on a local setup (run, run-commands, quickstart, sweep): a
// real redis-server found on PATH, the built-in load generator (this binary, see
// tests/support/main_as_dfbench.cc), results files, the setup's history and the exit codes,
// with small runs.
#include <gtest/gtest.h>
#include <signal.h>

#include <thread>

#include "core/files.h"
#include "core/log.h"
#include "core/subprocess.h"
#include "drivers/builtin_driver.h"
#include "drivers/generator_report.h"
#include "protocol/blocking_client.h"
#include "scenarios/commands/run_commands.h"
#include "scenarios/frame/bench_session.h"
#include "scenarios/setget/quickstart.h"
#include "scenarios/setget/run_benchmark.h"
#include "scenarios/setup/lifecycle.h"
#include "scenarios/sweep/sweep.h"
#include "state/state.h"
#include "support/dfbench_home.h"
#include "support/processes.h"
#include "support/test_data.h"
#include "support/wait_until.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;
using dfbench::testing::ReadJson;

class ScenarioFlowTest : public dfbench::testing::DfbenchHomeTest {
 protected:
  void SetUp() override {
    DfbenchHomeTest::SetUp();
    core::SetQuiet(true);
  }
  void TearDown() override {
    core::SetQuiet(false);
    DfbenchHomeTest::TearDown();
  }

  SetupOptions LocalRedis(const std::string& id) {
    SetupOptions o;
    o.id = id;
    o.engines = {engines::FindEngine("redis")};
    o.pin_cpus = false;
    return o;
  }

  void CreateLocalRedis(const std::string& id) {
    auto setup = CreateSetup(LocalRedis(id));
    ASSERT_TRUE(setup) << setup.error().message;
  }

  // 1 thread x 2 clients x 300 requests, two trials, no warmup, no cooldown.
  SetGetOptions SmallRun() {
    SetGetOptions o;
    o.engines = {engines::FindEngine("redis")};
    o.load.threads = 1;
    o.load.clients = 2;
    o.requests = 300;
    o.load.pipeline = 4;
    o.warmup_requests = 0;
    o.trials = 2;
    o.cooldown = std::chrono::milliseconds(0);
    o.driver = &driver_;
    return o;
  }

  // GET over 100 keys for one second, one trial.
  CommandOptions SmallGet() {
    CommandOptions o;
    o.engines = {engines::FindEngine("redis")};
    o.command = *FindBuiltinCommand("GET");
    o.load.threads = 1;
    o.load.clients = 2;
    o.load.pipeline = 4;
    o.load.data_size = 32;
    o.load.key_maximum = 100;
    o.test_time = std::chrono::seconds(1);
    o.warmup_time = std::chrono::seconds(0);
    o.trials = 1;
    o.cooldown = std::chrono::milliseconds(0);
    o.driver = &driver_;
    return o;
  }

  static state::SetupState Load(const std::string& id) {
    auto s = state::Load(id);
    EXPECT_TRUE(s) << s.error().message;
    return s.value_or(state::SetupState{});
  }

  // `outcome` is a run saved with status `want` (the command line's exit code stands for it).
  template <class Results>
  static void ExpectStatus(const core::Result<RunOutcome<Results>>& outcome,
                           results::RunStatus want) {
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_FALSE(outcome->unsaved_error) << outcome->unsaved_error->message;
    EXPECT_FALSE(outcome->results_path.empty());
    EXPECT_EQ(outcome->status(), want);
  }

  // The results.json of `record` in setup `id`.
  static nlohmann::json ResultsOf(const std::string& id, const state::BenchmarkRecord& record) {
    return ReadJson(state::SetupDir(id) / record.path);
  }

  // The one run recorded in setup `id`, which is ready again; it must be of `kind` and have
  // ended as `status`.
  static state::BenchmarkRecord OnlyRun(const std::string& id, const std::string& kind,
                                        results::RunStatus status) {
    const auto s = Load(id);
    EXPECT_EQ(s.status, state::SetupStatus::kReady);
    EXPECT_EQ(s.benchmarks.size(), 1u);
    if (s.benchmarks.empty()) return {};
    EXPECT_EQ(s.benchmarks[0].kind, kind);
    EXPECT_EQ(s.benchmarks[0].status, status);
    return s.benchmarks[0];
  }

  // Two rungs far below capacity and one confirmation round, 1 s steps.
  SweepOptions SmallSweep(const std::string& slo) {
    SweepOptions o;
    o.engines = {engines::FindEngine("redis")};
    o.load.threads = 1;
    o.load.clients = 2;
    o.load.pipeline = 4;
    o.load.key_maximum = 1000;
    o.step_time = std::chrono::seconds(1);
    o.objectives = {*ParseObjective(slo)};
    o.search.fractions = {0.02, 0.04};
    o.search.confirm = 1;
    o.search.confirm_step_downs = 1;
    o.cooldown = std::chrono::milliseconds(0);
    o.driver = &driver_;
    return o;
  }

  drivers::BuiltinDriver driver_;
};

TEST_F(ScenarioFlowTest, RunWritesItsFilesAndReturnsTheSetupToReady) {
  CreateLocalRedis("flow-run");
  ExpectStatus(SetGetOnSetup("flow-run", SmallRun()), results::RunStatus::kCompleted);
  const auto record = OnlyRun("flow-run", "run", results::RunStatus::kCompleted);
  EXPECT_EQ(record.engines, std::vector<std::string>{"redis"});

  const fs::path dir = state::SetupDir("flow-run") / "benchmarks" / record.run_id;
  EXPECT_TRUE(fs::exists(dir / "config.json"));
  EXPECT_TRUE(fs::exists(dir / "results.csv"));
  EXPECT_TRUE(fs::exists(dir / "memtier" / "redis-t2.json"));
  const auto results = ResultsOf("flow-run", record);
  EXPECT_EQ(results["status"], "completed");
  ASSERT_EQ(results["engines"].size(), 1u);
  EXPECT_EQ(results["engines"][0]["engine"], "redis");
  EXPECT_EQ(results["engines"][0]["trials"].size(), 2u);
  // 1 x 2 x 300 requests per trial, each answered.
  EXPECT_EQ(results["engines"][0]["trials"][0]["ops"], 600);
  // Its histogram in HdrHistogram's own files too: every request in it.
  EXPECT_TRUE(fs::exists(dir / "memtier" / "redis-t1_FULL_RUN_1.hgrm"));
  auto table = core::ReadFile(dir / "memtier" / "redis-t1_FULL_RUN_1.txt");
  ASSERT_TRUE(table);
  EXPECT_NE(table->find("Total count    =          600]"), std::string::npos) << *table;
}

// Redis's published setup in small: its own client profile and time-boxed trials. The engine's
// row records the profile it ran with, the generator was started with it, and the server's
// count matches the client's within one pipeline per connection per trial.
TEST_F(ScenarioFlowTest, RunDrivesAnEngineWithItsOwnClientProfileForATestTime) {
  CreateLocalRedis("flow-profile");
  SetGetOptions run = SmallRun();
  run.test_time = std::chrono::seconds(1);
  run.client_profiles["redis"] = core::ClientProfile{.threads = 2, .clients = 3, .pipeline = 1};
  ExpectStatus(SetGetOnSetup("flow-profile", run), results::RunStatus::kCompleted);
  const auto record = OnlyRun("flow-profile", "run", results::RunStatus::kCompleted);
  const auto results = ResultsOf("flow-profile", record);
  EXPECT_EQ(results["memtier"]["test_time_sec"], 1);
  EXPECT_EQ(results["memtier"]["requests"], 0);
  EXPECT_EQ(results["memtier"]["threads"], 1);  // the run's load, which the profile replaced
  const auto& redis = results["engines"][0];
  EXPECT_EQ(redis["client_profile"],
            (nlohmann::json{{"threads", 2}, {"clients", 3}, {"pipeline", 1}}));
  const auto raw = ReadJson(state::SetupDir("flow-profile") / "benchmarks" / record.run_id /
                            redis["trials"][1]["raw_file"].get<std::string>());
  EXPECT_EQ(raw["configuration"]["threads"], 2);
  EXPECT_EQ(raw["configuration"]["clients"], 3);
  EXPECT_EQ(raw["configuration"]["test_time"], 1);
  uint64_t client = 0;
  for (const auto& t : redis["trials"]) client += t["ops"].get<uint64_t>();
  const uint64_t server = redis["server_ops"].get<uint64_t>();
  EXPECT_GT(client, 0u);
  EXPECT_GE(server, client);
  EXPECT_LE(server, client + 2 * 3 * 1 * 2);
}

// The merged percentiles of a trial recomputed from its generators' own reports: their
// histograms decoded and merged bucket by bucket.
void ExpectMergedFromTheParts(const fs::path& dir, const nlohmann::json& trial) {
  std::optional<core::HdrHistogram> all;
  uint64_t ops = 0;
  for (const auto& part : trial["clients"]) {
    const auto text = core::ReadFile(dir / part["raw_file"].get<std::string>());
    ASSERT_TRUE(text) << part;
    auto report = drivers::ParseGeneratorReport(*text);
    ASSERT_TRUE(report && report->histogram) << part;
    ops += report->trial.ops;
    if (!all) {
      all = *report->histogram;
    } else {
      ASSERT_TRUE(all->Merge(*report->histogram));
    }
  }
  ASSERT_TRUE(all);
  EXPECT_EQ(trial["ops"].get<uint64_t>(), ops);
  EXPECT_EQ(trial["p50"].get<double>(), static_cast<double>(all->ValueAtPercentile(50)) / 1e6);
  EXPECT_EQ(trial["p99"].get<double>(), static_cast<double>(all->ValueAtPercentile(99)) / 1e6);
  EXPECT_EQ(trial["p999"].get<double>(), static_cast<double>(all->ValueAtPercentile(99.9)) / 1e6);
}

// Two generator processes on the client: the load split between them (a thread each), their
// measured parts started together, the histograms merged exactly, the server's count their sum.
TEST_F(ScenarioFlowTest, TwoLoadgenProcessesMergeTheirHistogramsExactly) {
  CreateLocalRedis("flow-processes");
  SetGetOptions run = SmallRun();
  run.load.threads = 2;
  run.loadgen_processes = 2;
  ExpectStatus(SetGetOnSetup("flow-processes", run), results::RunStatus::kCompleted);
  const auto record = OnlyRun("flow-processes", "run", results::RunStatus::kCompleted);
  const auto results = ResultsOf("flow-processes", record);
  const auto& redis = results["engines"][0];
  const fs::path dir = state::SetupDir("flow-processes") / "benchmarks" / record.run_id / "memtier";
  uint64_t client_ops = 0;
  for (const auto& trial : redis["trials"]) {
    ASSERT_EQ(trial["clients"].size(), 2u) << trial;
    double latest_start = 0;
    for (const auto& part : trial["clients"]) {
      EXPECT_EQ(part["threads"], 1);
      EXPECT_EQ(part["clients"], 2);
      EXPECT_EQ(part["ops"], 600);  // 1 x 2 x 300 requests each
      latest_start = std::max(latest_start, part["start_offset_ms"].get<double>());
    }
    // The skew is the latest start after the earliest (0, and left out, when they agree).
    EXPECT_EQ(trial.value("start_skew_ms", 0.0), latest_start) << trial;
    ExpectMergedFromTheParts(dir, trial);
    const fs::path merged = fs::path(trial["raw_file"].get<std::string>()).stem();
    for (const std::string& stem :
         {merged.string(), merged.string() + "-1", merged.string() + "-2"}) {
      for (const char* ext : {".hgrm", ".txt"}) {
        EXPECT_TRUE(fs::exists(dir / (stem + "_FULL_RUN_1" + ext))) << stem << ext;
      }
    }
    client_ops += trial["ops"].get<uint64_t>() + trial["errors"].get<uint64_t>();
  }
  EXPECT_EQ(client_ops, 2400u);
  EXPECT_EQ(redis["server_ops"].get<uint64_t>(), client_ops);
}

// Busy loops on `cpus` for as long as the object lives: three, so that a generator pinned there
// waits for its CPU most of the time it could run, even when the whole suite slows the server
// too (with one, a generator mostly waiting on a slowed server wanted only 41% of its CPU).
class BusyLoops {
 public:
  explicit BusyLoops(const std::vector<int>& cpus) {
    for (int i = 0; i < 3; ++i) {
      auto loop = core::Spawn({.argv = {"sh", "-c", "while :; do :; done"}, .cpus = cpus});
      EXPECT_TRUE(loop) << loop.error().message;
      if (loop) loops_.push_back(std::move(*loop));
    }
  }
  ~BusyLoops() {
    for (auto& loop : loops_) loop.Terminate(std::chrono::seconds(1));
  }
  BusyLoops(const BusyLoops&) = delete;
  BusyLoops& operator=(const BusyLoops&) = delete;

 private:
  std::vector<core::Process> loops_;
};

// A generator that cannot get its CPU (many threads, and busy loops on the same CPU) is
// marked client-bound: its figures measure it, not the engine.
TEST_F(ScenarioFlowTest, AStarvedLoadGeneratorMarksItsTrialsClientBound) {
  SetupOptions setup = LocalRedis("flow-starved");
  setup.pin_cpus = true;
  ASSERT_TRUE(CreateSetup(setup));
  const state::SetupState setup_state = Load("flow-starved");  // FindHost points into it
  const auto* client = setup_state.FindHost(core::Role::Client());
  ASSERT_NE(client, nullptr);
  const BusyLoops busy(client->cpus);
  SetGetOptions run = SmallRun();
  run.load.threads = 8;
  run.load.clients = 20;
  run.load.pipeline = 1;
  run.requests = 200;
  run.trials = 1;
  run.loadgen_processes = 2;
  ExpectStatus(SetGetOnSetup("flow-starved", run), results::RunStatus::kCompleted);
  const auto record = OnlyRun("flow-starved", "run", results::RunStatus::kCompleted);
  const auto trial = ResultsOf("flow-starved", record)["engines"][0]["trials"][0];
  EXPECT_EQ(trial.value("client_bound", false), true) << trial;
  EXPECT_GE(trial["client_cpu_demand"].get<double>(), results::kClientBoundCpu) << trial;
}

TEST_F(ScenarioFlowTest, RunCommandsWritesItsFilesAndReturnsTheSetupToReady) {
  CreateLocalRedis("flow-commands");
  ExpectStatus(CommandsOnSetup("flow-commands", SmallGet()), results::RunStatus::kCompleted);
  const auto record = OnlyRun("flow-commands", "commands", results::RunStatus::kCompleted);
  const auto results = ResultsOf("flow-commands", record);
  EXPECT_EQ(results["status"], "completed");
  ASSERT_EQ(results["commands"].size(), 1u);
  EXPECT_EQ(results["commands"][0]["command"], "GET");
  const auto& engines = results["commands"][0]["engines"];
  ASSERT_EQ(engines.size(), 1u);
  EXPECT_EQ(engines[0]["engine"], "redis");
  EXPECT_GT(engines[0]["trials"][0]["ops"].get<uint64_t>(), 0u);
}

TEST_F(ScenarioFlowTest, RunAndRunCommandsDriveARedisClusterOfThreeShards) {
  CreateLocalRedis("flow-cluster");
  SetGetOptions run = SmallRun();
  run.tuning.redis_shards = 3;
  ExpectStatus(SetGetOnSetup("flow-cluster", run), results::RunStatus::kCompleted);
  CommandOptions get = SmallGet();
  get.tuning.redis_shards = 3;
  ExpectStatus(CommandsOnSetup("flow-cluster", get), results::RunStatus::kCompleted);

  const auto s = Load("flow-cluster");
  ASSERT_EQ(s.benchmarks.size(), 2u);
  const auto runs = ResultsOf("flow-cluster", s.benchmarks[0]);
  const auto& redis = runs["engines"][0];
  EXPECT_EQ(redis.value("error", ""), "");
  EXPECT_EQ(redis["tuning"]["shards"], 3);
  EXPECT_EQ(redis["tuning"]["shard_ports"].size(), 3u);
  // Two trials of 1 x 2 x 300 requests, summed over the three shards by the server.
  EXPECT_EQ(redis["trials"][0]["ops"], 600);
  EXPECT_EQ(redis["server_ops"], 1200);
  const auto commands = ResultsOf("flow-cluster", s.benchmarks[1]);
  const auto& get_row = commands["commands"][0]["engines"][0];
  EXPECT_EQ(get_row.value("error", ""), "");
  EXPECT_EQ(get_row["tuning"]["shards"], 3);
  // The server also ran the preload (a SET per key) and, the pass being time-boxed, may have
  // answered a pipeline more per connection (2 clients x 3 shards x 4).
  const uint64_t client = get_row["trials"][0]["ops"].get<uint64_t>() + 100;
  const uint64_t server = get_row["server_ops"].get<uint64_t>();
  EXPECT_GE(server, client);
  EXPECT_LE(server, client + 2 * 3 * 4);
}

// The cluster's shards of this test: redis-server retitles itself "... [cluster]", and each
// runs in the setup's work directory under this test's home.
std::vector<int> ShardsUnder(const fs::path& home) {
  std::vector<int> shards;
  for (int pid : dfbench::testing::ProcessesMatching("[cluster]")) {
    std::error_code ec;
    const fs::path cwd = fs::read_symlink("/proc/" + std::to_string(pid) + "/cwd", ec);
    if (!ec && cwd.string().starts_with(home.string())) shards.push_back(pid);
  }
  return shards;
}

// Three shards, each of which has run SETs.
bool LoadOnEveryShard(const std::vector<int>& shards) {
  if (shards.size() < 3) return false;
  for (int pid : shards) {
    auto client = protocol::BlockingClient::Connect("127.0.0.1", dfbench::testing::RedisPort(pid),
                                                    std::chrono::seconds(1));
    if (!client) return false;
    auto stats = client->Command({"INFO", "commandstats"});
    if (!stats || stats->str.find("cmdstat_set:") == std::string::npos) return false;
  }
  return true;
}

TEST_F(ScenarioFlowTest, AShardKilledMidRunFailsItsEngineLikeAKilledEngine) {
  CreateLocalRedis("flow-shard-killed");
  SetGetOptions run = SmallRun();
  run.tuning.redis_shards = 3;
  run.requests = 200000;  // long enough to be killed in
  // Once the load runs on every shard, one of them goes.
  std::thread killer([this] {
    EXPECT_TRUE(dfbench::testing::WaitUntil([this] { return LoadOnEveryShard(ShardsUnder(home_)); },
                                            std::chrono::seconds(30), "SETs on every shard"));
    const auto shards = ShardsUnder(home_);
    if (!shards.empty()) kill(shards.back(), SIGKILL);
  });
  auto outcome = SetGetOnSetup("flow-shard-killed", run);
  killer.join();
  ExpectStatus(outcome, results::RunStatus::kFailed);
  const auto record = OnlyRun("flow-shard-killed", "run", results::RunStatus::kFailed);
  const std::string error = ResultsOf("flow-shard-killed", record)["engines"][0]["error"];
  EXPECT_NE(error.find("shard"), std::string::npos) << error;
  EXPECT_TRUE(ShardsUnder(home_).empty()) << "the other shards were not stopped";
}

TEST_F(ScenarioFlowTest, AnEngineThatDoesNotStartFailsTheRunWithExitOne) {
  CreateLocalRedis("flow-failed");
  // A binary that exits at once: the run goes on to its end and says which engine failed.
  auto s = Load("flow-failed");
  const fs::path broken = home_ / "broken-redis";
  dfbench::testing::WriteExecutable(broken, "#!/bin/sh\nexit 3\n");
  s.engines.at(0).binary = broken.string();
  ASSERT_TRUE(state::Save(&s));

  ExpectStatus(SetGetOnSetup("flow-failed", SmallRun()), results::RunStatus::kFailed);
  const auto record = OnlyRun("flow-failed", "run", results::RunStatus::kFailed);
  const auto results = ResultsOf("flow-failed", record);
  EXPECT_EQ(results["status"], "failed");
  EXPECT_FALSE(results["engines"][0]["error"].get<std::string>().empty());
}

TEST_F(ScenarioFlowTest, ASetupThatIsNotReadyIsNotFound) {
  auto unknown = SetGetOnSetup("flow-none", SmallRun());
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, core::ErrorKind::kNotFound);

  CreateLocalRedis("flow-destroyed");
  ASSERT_TRUE(DestroySetup("flow-destroyed"));
  auto destroyed = CommandsOnSetup("flow-destroyed", SmallGet());
  ASSERT_FALSE(destroyed);
  EXPECT_EQ(destroyed.error().kind, core::ErrorKind::kNotFound);
  EXPECT_EQ(Load("flow-destroyed").status, state::SetupStatus::kDestroyed);
}

TEST_F(ScenarioFlowTest, QuickstartRunsThenDestroysItsSetup) {
  // The run is handed over before the setup goes; its status is what the exit code stands for.
  int published = 0;
  const auto publish = [&](const RunOutcome<results::RunResults>& outcome) {
    ++published;
    EXPECT_FALSE(outcome.unsaved_error);
    EXPECT_EQ(outcome.status(), results::RunStatus::kCompleted);
    EXPECT_EQ(Load("flow-quick").status, state::SetupStatus::kReady);
  };
  const auto ended =
      Quickstart(LocalRedis("flow-quick"), SmallRun(), /*keep_setup=*/false, publish);
  EXPECT_TRUE(ended) << ended.error().message;
  EXPECT_EQ(published, 1);
  const auto s = Load("flow-quick");
  EXPECT_EQ(s.status, state::SetupStatus::kDestroyed);
  ASSERT_EQ(s.benchmarks.size(), 1u);
  EXPECT_EQ(s.benchmarks[0].status, results::RunStatus::kCompleted);
  EXPECT_TRUE(fs::exists(state::SetupDir("flow-quick") / s.benchmarks[0].path));
}

// `sweep`: files, history, status and the search's record, with 1 s steps and a short ladder.
// Assertions are on structure and on the rules, never on the rates measured.
TEST(StepWarmup, AFifthOfTheStepAtMostASecond) {
  EXPECT_EQ(StepWarmup(std::chrono::seconds(1)), std::chrono::milliseconds(200));
  EXPECT_EQ(StepWarmup(std::chrono::seconds(2)), std::chrono::milliseconds(400));
  EXPECT_EQ(StepWarmup(std::chrono::seconds(10)), std::chrono::seconds(1));
  EXPECT_EQ(StepWarmup(std::chrono::seconds(60)), std::chrono::seconds(1));
}

TEST_F(ScenarioFlowTest, SweepRecordsEveryStepAndReturnsTheSetupToReady) {
  ASSERT_TRUE(CreateSetup(LocalRedis("sw")));
  ExpectStatus(SweepOnSetup("sw", SmallSweep("p99<=10s")), results::RunStatus::kCompleted);

  auto s = state::Load("sw");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, state::SetupStatus::kReady);
  ASSERT_EQ(s->benchmarks.size(), 1u);
  EXPECT_EQ(s->benchmarks[0].kind, "sweep");
  EXPECT_EQ(s->benchmarks[0].status, results::RunStatus::kCompleted);
  const fs::path dir = state::SetupDir("sw") / "sweeps" / s->benchmarks[0].run_id;
  EXPECT_TRUE(fs::exists(dir / "config.json"));
  EXPECT_TRUE(fs::exists(dir / "results.csv"));

  const auto j = ReadJson(dir / "results.json");
  results::SweepResults r;
  std::string error;
  ASSERT_TRUE(results::FromJson(j, &r, &error)) << error;
  EXPECT_EQ(j["scenario"], "sweep");
  EXPECT_EQ(r.status, results::RunStatus::kCompleted);
  ASSERT_EQ(r.objectives.size(), 1u);
  EXPECT_EQ(r.objectives[0].text, "p99<=10s");
  EXPECT_EQ(r.settings.step_time_sec, 1);
  EXPECT_EQ(r.settings.warmup_sec, 0.2);  // a fifth of the step
  ASSERT_EQ(r.engines.size(), 1u);
  const auto& e = r.engines[0];
  EXPECT_EQ(e.error, "");
  // The closed-loop capacity first, then open-loop steps at fractions of it.
  ASSERT_GE(e.steps.size(), 3u);
  EXPECT_EQ(e.steps[0].phase, results::StepPhase::kCapacity);
  EXPECT_EQ(e.steps[0].target_rate, 0);
  EXPECT_EQ(e.capacity, e.steps[0].measured.achieved_rate);
  EXPECT_GT(e.capacity, 0);
  EXPECT_EQ(e.steps[1].phase, results::StepPhase::kLadder);
  EXPECT_EQ(e.steps[1].target_rate, std::max(1.0, std::round(e.capacity * 0.02)));
  for (size_t i = 0; i < e.steps.size(); ++i) {
    const auto& step = e.steps[i];
    EXPECT_EQ(step.index, static_cast<int>(i) + 1);
    EXPECT_TRUE(fs::exists(dir / step.measured.raw_file)) << step.measured.raw_file;
    for (double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
      EXPECT_TRUE(step.measured.LatencyAt(p)) << "step " << step.index << " p" << p;
    }
    // The generator reported its own CPU use (how much is a timing, not asserted).
    const auto raw = ReadJson(dir / step.measured.raw_file);
    EXPECT_GE(raw["dfbench"]["client_cpu"]["usable_cpus"].get<int>(), 1) << step.index;
    EXPECT_GE(step.measured.client_cpu, 0) << "step " << step.index;
    if (i == 0) {
      EXPECT_TRUE(step.measured.send_lag.empty()) << "the closed loop sends when it draws";
      continue;
    }
    // The open loop measured its own lateness at the same percentiles.
    for (double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
      EXPECT_TRUE(step.measured.SendLagAt(p)) << "step " << step.index << " p" << p;
    }
    EXPECT_EQ(step.verdict.client_late,
              *step.measured.SendLagAt(99) > results::kClientLateShare * 10000)
        << step.index;
    // The rule: a pass is within 1 % of its target with every objective kept.
    EXPECT_EQ(step.verdict.passed, step.verdict.reason.empty()) << step.verdict.reason;
    if (step.verdict.passed) {
      EXPECT_LE(std::abs(step.measured.achieved_rate - step.target_rate), 0.01 * step.target_rate);
      EXPECT_LE(*step.measured.LatencyAt(99), 10000);
    }
  }
  EXPECT_TRUE(j["engines"][0]["steps"][1].contains("send_lag_ms"));
  // One confirmation round after the search; the found rate is one a round sustained.
  EXPECT_EQ(e.confirmation.round_rates.size(), e.found_rate ? 2u : 0u);
  if (e.found_rate) {
    EXPECT_EQ(e.steps.back().phase, results::StepPhase::kConfirm);
    EXPECT_EQ(*e.found_rate, e.confirmation.min_rate);
    EXPECT_LT(*e.found_rate, e.capacity);
  }
}

// A generator starved on purpose (eight threads on the client's CPUs, shared with busy loops)
// sends late; the steps whose send lag outgrows a tenth of the objective are marked
// client-late, so their latency is not charged to the server without saying so.
TEST_F(ScenarioFlowTest, AStarvedLoadGeneratorMarksItsSweepStepsClientLate) {
  SetupOptions setup = LocalRedis("sw-starved");
  setup.pin_cpus = true;
  ASSERT_TRUE(CreateSetup(setup));
  const state::SetupState setup_state = Load("sw-starved");
  const auto* client = setup_state.FindHost(core::Role::Client());
  ASSERT_NE(client, nullptr);
  std::optional<BusyLoops> busy(client->cpus);
  SweepOptions o = SmallSweep("p99<=1ms");
  o.load.threads = 8;
  o.load.clients = 10;
  o.load.pipeline = 1;
  auto outcome = SweepOnSetup("sw-starved", o);
  busy.reset();
  ASSERT_TRUE(outcome) << outcome.error().message;
  auto s = state::Load("sw-starved");
  ASSERT_TRUE(s);
  results::SweepResults r;
  std::string error;
  ASSERT_TRUE(results::FromJson(
      ReadJson(state::SetupDir("sw-starved") / "sweeps" / s->benchmarks[0].run_id / "results.json"),
      &r, &error))
      << error;
  ASSERT_EQ(r.engines.size(), 1u);
  size_t late = 0;
  for (const auto& step : r.engines[0].steps) {
    if (!step.verdict.client_late) continue;
    ++late;
    EXPECT_GT(*step.measured.SendLagAt(99), results::kClientLateShare * 1.0) << step.index;
    if (!step.verdict.passed) {
      EXPECT_NE(step.verdict.reason.find("the load generator sent late"), std::string::npos)
          << step.verdict.reason;
    }
  }
  EXPECT_GT(late, 0u);
}

}  // namespace
}  // namespace dfbench::scenarios
