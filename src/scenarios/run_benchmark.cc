#include "scenarios/run_benchmark.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/time_format.h"
#include "core/version.h"
#include "results/writers.h"
#include "scenarios/server_counters.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;

std::string ProtocolName(engines::Protocol p) {
  return p == engines::Protocol::kMemcacheText ? "memcache_text" : "redis";
}

// benchmarks/<timestamp>, with a suffix when two runs start within the same second.
std::string NewRunId(const fs::path& benchmarks_dir) {
  const std::string base = core::FormatTimestampId(std::chrono::system_clock::now());
  std::string id = base;
  for (int n = 2; fs::exists(benchmarks_dir / id); ++n) id = base + "-" + std::to_string(n);
  return id;
}

core::Status WriteResults(const results::RunResults& r, const fs::path& dir) {
  if (auto st = core::WriteFileAtomic(dir / "results.json", results::RenderRunJson(r)); !st) {
    return st;
  }
  return core::WriteFileAtomic(dir / "results.csv", results::RenderRunCsv(r));
}

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

std::string Millions(double ops) {
  return fmt::format("{:.0f}", ops);
}

// One engine: start, warm up, trials, cross-check, stop. Fills `row`; returns false when
// the run was interrupted.
class EngineRun {
 public:
  EngineRun(const RunOptions& o, providers::Fleet& fleet, const fs::path& dir,
            std::function<void()> publish)
      : o_(o), fleet_(fleet), dir_(dir), publish_(std::move(publish)) {}

  bool Run(const state::EngineInstall& install, const engines::EngineSpec& spec,
           results::EngineResult* row) {
    engines::Tuning tuning = o_.tuning;
    tuning.cpus = fleet_.server_cpus;
    row->tuning = engines::TuningJson(spec, tuning);
    core::Notef("[{}] starting {}", spec.name, install.binary);
    auto engine = engines::Start(*fleet_.server, spec, install.binary, tuning);
    if (!engine) {
      row->error = engine.error().message;
      core::Notef("[{}] {}", spec.name, row->error);
      return engine.error().kind != core::ErrorKind::kInterrupted && !core::InterruptRequested();
    }
    row->version = engine->version();
    row->tuning = engine->tuning();  // with derived values resolved
    core::Notef("[{}] {} ready on {}:{}", spec.name, row->version, engine->address(),
                engine->port());
    const drivers::Target target{engine->address(), engine->port(), ProtocolName(spec.protocol)};
    drivers::Workload workload{.threads = o_.memtier.threads,
                               .clients = o_.memtier.clients,
                               .total_requests = o_.memtier.requests,
                               .ratio = o_.memtier.ratio,
                               .data_size = o_.memtier.data_size,
                               .pipeline = o_.memtier.pipeline,
                               .distinct_client_seed = o_.memtier.distinct_client_seed};
    if (o_.warmup_requests > 0) {
      core::Notef("[{}] warmup: {} requests (discarded)", spec.name, o_.warmup_requests);
      drivers::Workload warm = workload;
      warm.total_requests = o_.warmup_requests;
      auto w = o_.driver->Run(*fleet_.client, target, warm, fleet_.client_cpus,
                              dir_ / "memtier" / (spec.name + "-warmup.json"));
      if (!w) return Failed(*engine, "warmup", w.error(), row);
      row->warmup_ops = w->ops + w->errors;
    }
    for (int t = 1; t <= o_.trials; ++t) {
      if (auto hc = engine->HealthCheck(); !hc) {
        row->error = fmt::format("before trial {}: {}", t, hc.error().message);
        core::Notef("[{}] {}", spec.name, row->error);
        return true;
      }
      const std::string raw = fmt::format("{}-t{}.json", spec.name, t);
      core::Notef("[{}] trial {}/{}", spec.name, t, o_.trials);
      auto trial = o_.driver->Run(*fleet_.client, target, workload, fleet_.client_cpus,
                                  dir_ / "memtier" / raw);
      if (!trial) return Failed(*engine, fmt::format("trial {}", t), trial.error(), row);
      trial->trial = t;
      trial->raw_file = "memtier/" + raw;
      row->trials.push_back(*trial);
      row->Aggregate();
      core::Notef("[{}] trial {}/{}: {} ops/s, p50 {:.3f} ms, p99 {:.3f} ms, p99.9 {:.3f} ms{}",
                  spec.name, t, o_.trials, Millions(trial->throughput), trial->p50, trial->p99,
                  trial->p999,
                  trial->errors ? fmt::format(", {} errors", trial->errors) : std::string());
      publish_();
    }
    CrossCheck(*engine, spec, row);
    if (auto st = engine->Stop(); !st) core::Notef("[{}] stop: {}", spec.name, st.error().message);
    return true;
  }

 private:
  // Records a failed warmup or trial; false when it was an interrupt.
  bool Failed(engines::RunningEngine& engine, const std::string& what, const core::Error& e,
              results::EngineResult* row) {
    if (e.kind == core::ErrorKind::kInterrupted || core::InterruptRequested()) {
      row->error = what + ": interrupted";
      return false;
    }
    row->error = what + ": " + e.message;
    if (!engine.Alive()) {
      std::string tail = engine.LogTail();
      row->error = what + ": " + engine.spec().name + " exited during the run" +
                   (tail.empty() ? "" : "; last log lines: " + tail);
    }
    core::Notef("[{}] {}", engine.spec().name, row->error);
    return true;
  }

  // The load generator's count must match the server's own; a mismatch means lost or
  // duplicated requests, which would make the throughput figure wrong.
  void CrossCheck(engines::RunningEngine& engine, const engines::EngineSpec& spec,
                  results::EngineResult* row) {
    auto server = ServerDataOps(engine.address(), engine.port(), spec.protocol);
    if (!server) {
      core::Notef("[{}] could not read the server's operation count: {}", spec.name,
                  server.error().message);
      return;
    }
    row->server_ops = *server;
    uint64_t client = row->warmup_ops;
    for (const auto& t : row->trials) client += t.ops + t.errors;
    if (client != *server) {
      core::Notef("[{}] warning: the server counted {} operations, the load generator {}",
                  spec.name, *server, client);
    }
  }

  const RunOptions& o_;
  providers::Fleet& fleet_;
  fs::path dir_;
  std::function<void()> publish_;
};

}  // namespace

core::Result<results::RunResults> RunBenchmark(state::SetupState* setup, providers::Fleet& fleet,
                                               const RunOptions& options) {
  if (!options.driver) return core::Fail(core::ErrorKind::kUsage, "no load generator");
  if (options.engines.empty()) return core::Fail(core::ErrorKind::kUsage, "no engine to run");
  for (const auto* spec : options.engines) {
    const auto* install = setup->FindEngine(spec->name);
    if (!install || install->status != "installed") {
      std::string have;
      for (const auto& e : setup->engines) {
        if (e.status == "installed") have += (have.empty() ? "" : ", ") + e.name;
      }
      return core::Fail(core::ErrorKind::kUsage,
                        "engine " + spec->name + " is not installed in setup \"" + setup->id +
                            "\" (installed: " + (have.empty() ? "none" : have) + ")");
    }
  }
  const fs::path benchmarks = state::SetupDir(setup->id) / "benchmarks";
  results::RunResults r;
  r.run_id = NewRunId(benchmarks);
  const fs::path dir = benchmarks / r.run_id;
  if (auto st = core::MakeDirs(dir / "memtier"); !st) return tl::unexpected(st.error());
  r.setup_id = setup->id;
  r.created_at = core::NowIso8601();
  r.status = "running";
  r.memtier = options.memtier;
  r.warmup_requests = options.warmup_requests;
  r.trials = options.trials;
  r.context.tool_version = core::VersionLine();
  r.context.build_type = core::GetBuildInfo().build_type;
  r.context.provider = setup->provider;
  r.context.load_generator = options.driver->Name();
  r.context.hosts = setup->hosts;
  if (auto st = core::WriteFileAtomic(dir / "config.json", ConfigJson(r, options).dump(2) + "\n");
      !st) {
    return tl::unexpected(st.error());
  }
  core::Notef("run {}: {} engine(s), {} trial(s) each, results in {}", r.run_id,
              options.engines.size(), options.trials, dir.string());

  auto publish = [&] {
    if (auto st = WriteResults(r, dir); !st) core::Note(st.error().message);
  };
  EngineRun engine_run(options, fleet, dir, publish);
  bool interrupted = false;
  for (size_t i = 0; i < options.engines.size() && !interrupted; ++i) {
    const auto* spec = options.engines[i];
    r.engines.push_back(results::EngineResult{.engine = spec->name});
    interrupted = !engine_run.Run(*setup->FindEngine(spec->name), *spec, &r.engines.back()) ||
                  core::InterruptRequested();
    publish();
    if (!interrupted && i + 1 < options.engines.size() && options.cooldown.count() > 0) {
      core::Notef("cooling down for {}s before the next engine",
                  std::chrono::duration_cast<std::chrono::seconds>(options.cooldown).count());
      interrupted = !core::SleepUnlessInterrupted(options.cooldown);
    }
  }
  bool failed = false;
  for (const auto& e : r.engines) failed |= !e.error.empty();
  r.status = interrupted ? "interrupted" : failed ? "failed" : "completed";
  r.completed_at = core::NowIso8601();
  publish();

  state::BenchmarkRecord record{.kind = "run",
                                .run_id = r.run_id,
                                .path = "benchmarks/" + r.run_id + "/results.json",
                                .created_at = r.created_at,
                                .completed_at = r.completed_at,
                                .status = r.status};
  for (const auto& e : r.engines) record.engines.push_back(e.engine);
  setup->benchmarks.push_back(record);
  return r;
}

}  // namespace dfbench::scenarios
