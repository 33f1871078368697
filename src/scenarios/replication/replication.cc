#include "scenarios/replication/replication.h"

#include <algorithm>
#include <sstream>

#include "core/format.h"
#include "core/table.h"
#include "core/units.h"
#include "drivers/builtin_driver.h"
#include "drivers/dfly_bench_driver.h"
#include "results/number_format.h"
#include "scenarios/frame/bench_session.h"
#include "scenarios/frame/engine_turn.h"
#include "scenarios/frame/preflight.h"
#include "scenarios/frame/run_record.h"
#include "scenarios/replication/replication_case.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;

core::Status CheckOptions(const state::SetupState& setup, const providers::Fleet& fleet,
                          const ReplicationOptions& o) {
  if (o.engines.empty()) return core::Fail(core::ErrorKind::kUsage, "no engine to run");
  if (o.cases.empty()) return core::Fail(core::ErrorKind::kUsage, "no case to run");
  if (auto st = CheckStartsEngines(fleet, "run-replication"); !st) return st;
  if (auto st = CheckRedisProtocol(
          o.engines, " has no replication; run-replication takes dragonfly, redis or valkey");
      !st) {
    return st;
  }
  if (fleet.replicas.empty()) {
    return core::Fail(core::ErrorKind::kUsage,
                      "setup \"" + setup.id +
                          "\" has no replica: 'dfbench help setup' shows how to make a setup "
                          "with one on each provider");
  }
  return CheckInstalled(setup, o.engines);
}

const RunKind<results::ReplicationRunResults> kReplication{"replication",
                                                           "replications",
                                                           "raw",
                                                           &results::RenderReplicationJson,
                                                           &results::RenderReplicationCsv,
                                                           "benchmark_results.csv"};

// A multi-line error in a table cell: its first line and, when there are more, its last one (an
// engine that would not start ends with its own words, e.g. "Bad directive or wrong number of
// arguments").
std::string OneLine(std::string error) {
  while (!error.empty() && error.back() == '\n') error.pop_back();
  const size_t first_end = error.find('\n');
  if (first_end == std::string::npos) return error;
  return error.substr(0, first_end) + " … " + error.substr(error.rfind('\n') + 1);
}

}  // namespace

int64_t ReplicationCaseSpec::Connections() {
  const core::Load& load = core::kReplicationLoad;
  return static_cast<int64_t>(load.threads) * load.clients;
}

core::Result<std::vector<ReplicationCaseSpec>> ParseReplicationCases(const std::string& text) {
  std::vector<ReplicationCaseSpec> cases;
  std::stringstream in(text);
  for (std::string token; std::getline(in, token, ',');) {
    if (token == "maxload") {
      cases.push_back({.name = token});
      continue;
    }
    auto qps =
        token.rfind("qps=", 0) == 0 ? core::ParseCount(token.substr(4)) : core::Result<uint64_t>(0);
    if (!qps || *qps == 0) {
      return core::Fail(core::ErrorKind::kUsage,
                        "\"" + token + "\" is neither qps=<n>[k] (n > 0) nor maxload");
    }
    cases.push_back(
        {.name = "qps=" + std::to_string(*qps), .qps_per_connection = static_cast<int64_t>(*qps)});
  }
  if (cases.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "\"" + text + "\" names no case");
  }
  return cases;
}

core::Result<results::ReplicationRunResults> RunReplication(state::SetupState* setup,
                                                            providers::Fleet& fleet,
                                                            const ReplicationOptions& options,
                                                            const drivers::Driver& driver) {
  if (auto st = CheckOptions(*setup, fleet, options); !st) return tl::unexpected(st.error());
  if (auto st = CheckEnginePort(fleet); !st) return tl::unexpected(st.error());

  results::ReplicationRunResults r;
  const fs::path parent = state::SetupDir(setup->id) / kReplication.folder;
  std::string run_id =
      options.output_dir.empty() ? NewRunId(parent) : options.output_dir.filename().string();
  if (run_id.empty()) run_id = options.output_dir.parent_path().filename().string();
  const fs::path dir = options.output_dir.empty() ? parent / run_id : options.output_dir;
  // Relative to the setup when the results lie inside it (--output-dir may point elsewhere).
  const fs::path results_json = fs::absolute(dir / "results.json");
  const std::string relative =
      results_json.lexically_proximate(fs::absolute(state::SetupDir(setup->id))).string();
  const std::string path = relative.rfind("..", 0) != 0 ? relative : results_json.string();
  auto run = ScenarioRun<results::ReplicationRunResults>::OpenAt(setup, driver, kReplication,
                                                                 run_id, dir, path, &r);
  if (!run) return tl::unexpected(run.error());
  r.dfly_bench_ref = options.dfly_ref;
  const std::string announcement = core::Format(
      "replication {}: {} case(s) x {} engine(s), {} s of load each, results in {}", r.run_id,
      options.cases.size(), options.engines.size(), options.test_time.count(), dir.string());
  if (auto st = run->Start(/*config=*/nullptr, announcement); !st) {
    return tl::unexpected(st.error());
  }

  // Every case is a turn of its own (a fresh master and replica), engine after engine, with no
  // cooldown between them (run-replication has no such setting).
  const size_t cases = options.cases.size();
  const bool interrupted = TakeTurns(
      options.engines.size() * cases, std::chrono::milliseconds(0),
      [&](size_t i) {
        const engines::EngineSpec& spec = *options.engines[i / cases];
        r.cases.emplace_back();
        const ReplicationCaseSetting s{.fleet = fleet,
                                       .install = *setup->FindEngine(spec.name),
                                       .spec = spec,
                                       .options = options,
                                       .raw_dir = dir / "raw"};
        return RunReplicationCase(s, options.cases[i % cases], &r.cases.back());
      },
      run->publish());
  run->Close(interrupted, RowPointers(r.cases), [](const results::ReplicationCase& c) {
    return c.termination_reason == results::kTerminationError;
  });
  return r;
}

std::string RenderReplicationTable(const results::ReplicationRunResults& r) {
  using Align = core::Table::Align;
  core::Table table({"ENGINE", "CASE", "TARGET OPS/S", "MEDIAN RPS", "MEDIAN P99 µs", "SYNC ms",
                     "SAMPLES", "END"},
                    {Align::kLeft, Align::kLeft, Align::kRight, Align::kRight, Align::kRight,
                     Align::kRight, Align::kRight, Align::kLeft});
  for (const auto& c : r.cases) {
    const bool any = !c.series.empty();
    auto qps = ParseReplicationCases(c.run_name);
    const int64_t total = qps ? qps->front().TotalRate() : 0;
    table.AddRow({c.engine, c.run_name, total > 0 ? results::WithSeparators(total) : "max",
                  any ? results::WithSeparators(results::RpsStats(c).median) : "-",
                  any ? results::WithSeparators(results::P99UsStats(c).median) : "-",
                  c.sync_duration_ms > 0 ? results::WithSeparators(c.sync_duration_ms) : "-",
                  std::to_string(c.series.size()),
                  c.termination_reason + (c.error.empty() ? "" : " (" + OneLine(c.error) + ")")});
  }
  return table.Render();
}

core::Result<RunOutcome<results::ReplicationRunResults>> ReplicationOnSetup(
    const std::string& id, const ReplicationOptions& options) {
  drivers::BuiltinDriver builtin;
  drivers::DflyBenchDriver dfly_bench(options.dfly_bench_binary);
  const bool use_dfly_bench = options.load_generator == core::LoadGenerator::kDflyBench;
  drivers::Driver* driver = use_dfly_bench ? static_cast<drivers::Driver*>(&dfly_bench) : &builtin;
  return RunScenario({.setup_id = id, .driver = driver, .engines = options.engines},
                     [&](BenchSession& session) {
                       // The cases run dfly_bench by the path the driver found on the client
                       // (Prepare).
                       ReplicationOptions resolved = options;
                       if (use_dfly_bench)
                         resolved.dfly_bench_binary = dfly_bench.resolved_binary();
                       return RunReplication(&session.setup(), session.fleet(), resolved, *driver);
                     });
}

}  // namespace dfbench::scenarios
