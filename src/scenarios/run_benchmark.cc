#include "scenarios/run_benchmark.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "results/writers.h"
#include "scenarios/bench_session.h"
#include "scenarios/engine_turn.h"
#include "scenarios/run_record.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;

nlohmann::json ConfigJson(const results::RunResults& r, const RunOptions& o) {
  nlohmann::json engines = nlohmann::json::array();
  for (const auto* e : o.engines) engines.push_back(e->name);
  return {{"run_id", r.run_id},
          {"setup_id", r.setup_id},
          {"created_at", r.created_at},
          {"engines", engines},
          {"load_generator", o.driver->Name()},
          {"memtier", results::ToJson(r).at("memtier")},
          {"warmup_requests", o.warmup_requests},
          {"trials", o.trials},
          {"cooldown_sec", std::chrono::duration<double>(o.cooldown).count()},
          {"context", results::ToJson(r.context)}};
}

// One engine: start, warm up, trials, cross-check, stop. Fills `row`; returns false when the
// run was interrupted.
bool RunEngine(const RunOptions& o, providers::Fleet& fleet, const fs::path& dir,
               const state::EngineInstall& install, const engines::EngineSpec& spec,
               results::EngineResult* row, const std::function<void()>& publish) {
  auto turn = EngineTurn::Start(fleet, install, spec, o.tuning, row);
  if (!turn) return !core::InterruptRequested();
  const drivers::Target target = turn->target();
  drivers::Workload workload{.threads = o.memtier.threads,
                             .clients = o.memtier.clients,
                             .requests_per_client = o.memtier.requests,
                             .ratio = o.memtier.ratio,
                             .data_size = o.memtier.data_size,
                             .pipeline = o.memtier.pipeline,
                             .distinct_client_seed = o.memtier.distinct_client_seed};
  if (o.warmup_requests > 0) {
    drivers::Workload warm = workload;
    warm.requests_per_client = o.warmup_requests;
    core::Notef("[{}] warmup: {} requests per connection, {} in all (discarded)", spec.name,
                o.warmup_requests, warm.TotalRequests());
    auto w = o.driver->Run(*fleet.client, target, warm, fleet.client_cpus,
                           dir / "memtier" / (spec.name + "-warmup.json"));
    if (!w) return turn->Failed("warmup", w.error());
    row->warmup_ops = w->ops + w->errors;
  }
  for (int t = 1; t <= o.trials; ++t) {
    if (!turn->Healthy(fmt::format("trial {}", t))) return true;
    const std::string raw = fmt::format("{}-t{}.json", spec.name, t);
    core::Notef("[{}] trial {}/{}", spec.name, t, o.trials);
    auto trial =
        o.driver->Run(*fleet.client, target, workload, fleet.client_cpus, dir / "memtier" / raw);
    if (!trial) return turn->Failed(fmt::format("trial {}", t), trial.error());
    trial->trial = t;
    trial->raw_file = "memtier/" + raw;
    row->trials.push_back(*trial);
    row->Aggregate();
    core::Notef("[{}] trial {}/{}: {:.0f} ops/s, p50 {:.3f} ms, p99 {:.3f} ms, p99.9 {:.3f} ms{}",
                spec.name, t, o.trials, trial->throughput, trial->p50, trial->p99, trial->p999,
                trial->errors ? fmt::format(", {} errors", trial->errors) : std::string());
    publish();
  }
  uint64_t client_ops = row->warmup_ops;
  for (const auto& t : row->trials) client_ops += t.ops + t.errors;
  turn->CrossCheck(client_ops);
  turn->Stop();
  return true;
}

}  // namespace

core::Result<results::RunResults> RunBenchmark(state::SetupState* setup, providers::Fleet& fleet,
                                               const RunOptions& options) {
  if (!options.driver) return core::Fail(core::ErrorKind::kUsage, "no load generator");
  if (options.engines.empty()) return core::Fail(core::ErrorKind::kUsage, "no engine to run");
  if (auto st = CheckRunnable(*setup, fleet, *options.driver, options.engines); !st) {
    return tl::unexpected(st.error());
  }
  results::RunResults r;
  auto opened = OpenResults(*setup, *options.driver, state::SetupDir(setup->id) / "benchmarks",
                            "memtier", &r);
  if (!opened) return tl::unexpected(opened.error());
  const fs::path& dir = *opened;
  r.memtier = options.memtier;
  r.warmup_requests = options.warmup_requests;
  r.trials = options.trials;
  if (auto st = core::WriteFileAtomic(dir / "config.json", ConfigJson(r, options).dump(2) + "\n");
      !st) {
    return tl::unexpected(st.error());
  }
  const auto& m = options.memtier;
  core::Notef(
      "run {}: {} engine(s), {} trial(s) each of {} threads × {} clients × {} requests "
      "= {} requests, results in {}",
      r.run_id, options.engines.size(), options.trials, m.threads, m.clients, m.requests,
      static_cast<uint64_t>(m.threads) * static_cast<uint64_t>(m.clients) * m.requests,
      dir.string());

  const auto publish =
      Publisher(r, dir, {&results::RenderRunJson, "results.csv", &results::RenderRunCsv});
  const std::string path = "benchmarks/" + r.run_id + "/results.json";
  if (auto st = StartResults(setup, "run", path, publish, r); !st) {
    return tl::unexpected(st.error());
  }
  const bool interrupted = TakeEngineTurns(
      options.engines, options.cooldown, &r.engines,
      [&](const engines::EngineSpec& spec, results::EngineResult* row) {
        return RunEngine(options, fleet, dir, *setup->FindEngine(spec.name), spec, row, publish);
      },
      publish);
  CloseResults(setup, interrupted, RowPointers(r.engines), "run", path, publish, &r);
  return r;
}

core::Result<int> RunOnSetup(const std::string& id, const RunOptions& options,
                             OutputFormat format) {
  return RunScenarioOnSetup(id, options, format, RunBenchmark);
}

}  // namespace dfbench::scenarios
