#include "scenarios/memory/run_memory.h"

#include <algorithm>

#include "core/format.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/text.h"
#include "hosts/leftovers.h"
#include "scenarios/frame/bench_session.h"
#include "scenarios/frame/engine_turn.h"
#include "scenarios/frame/preflight.h"
#include "scenarios/frame/run_record.h"
#include "scenarios/memory/memory_trial.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;

// Where one trial's engine writes its snapshot on the server host.
struct SnapshotPlace {
  std::string dir;
  std::string file;
  bool own_dir = false;  // made for this trial: removed whole afterwards
};

core::Result<SnapshotPlace> PrepareSnapshotPlace(hosts::Host& server, const MemoryOptions& o,
                                                 const std::string& stem) {
  SnapshotPlace place{.dir = o.snapshot_dir, .file = "dfbench-" + stem};
  if (place.dir.empty()) {
    auto work = server.WorkDir();
    if (!work) return tl::unexpected(work.error());
    place.dir = *work + "/snapshots/" + stem;
    place.own_dir = true;
  }
  auto made = server.Run({.argv = {"mkdir", "-p", place.dir}});
  if (!made) return tl::unexpected(made.error());
  if (!made->status.ok()) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "snapshot directory " + place.dir + ": " + core::Trim(made->err));
  }
  // Should this command die, the next one removes what the engine wrote (a snapshot child
  // killed mid-write leaves its temporary file).
  if (auto st = hosts::RecordFiles(server, stem, place.dir, place.own_dir ? "" : place.file); !st) {
    return tl::unexpected(st.error());
  }
  return place;
}

void RemoveSnapshot(hosts::Host& server, const SnapshotPlace& place, const std::string& stem) {
  // The engine's file and its temporary ones (temp-<pid>.rdb sits beside it in its own dir;
  // Dragonfly writes <file>-summary.dfs and one <file>-NNNN.dfs per shard). Cleanup: it runs
  // after Ctrl+C too.
  const std::vector<std::string> argv =
      place.own_dir ? std::vector<std::string>{"rm", "-rf", "--", place.dir}
                    : std::vector<std::string>{"sh", "-c",      "rm -rf -- \"$1/$2\"*",
                                               "sh", place.dir, place.file};
  auto removed = server.Run({.argv = argv, .interrupts = core::Interrupts::kIgnore});
  if (!removed || !removed->status.ok()) {
    core::Notef("could not remove the snapshot in {}", place.dir);
    return;  // the record stays: the next command or destroy tries again
  }
  hosts::ForgetFiles(server, stem);
}

// A failed snapshot or failed updates are a failed measurement too: the row says why, the exit
// code says so.
bool MeasurementFailed(const results::MemoryEngineResult& row) {
  return !row.error.empty() ||
         std::any_of(row.trials.begin(), row.trials.end(), [](const results::MemoryTrial& t) {
           return t.snapshot_status == results::kSnapshotFailed || !t.failed.empty();
         });
}

const RunKind<results::MemoryRunResults> kMemory{
    "memory", "memory", "raw", &results::RenderMemoryJson, &results::RenderMemoryCsv};

results::MemorySettings Settings(const MemoryOptions& o) {
  return {.keys = o.keys,
          .value_size = o.load.data_size,
          .snapshot = o.snapshot == SnapshotMode::kBgsave ? "bgsave" : "none",
          .update_rate = o.update_rate,
          .test_time_sec = static_cast<double>(o.test_time.count()),
          .snapshot_delay_sec = static_cast<double>(o.snapshot_delay.count()),
          .ratio = o.load.ratio.ToString(),
          .threads = o.load.threads,
          .clients = o.load.clients,
          .pipeline = o.load.pipeline,
          .trials = o.trials,
          .snapshot_dir = o.snapshot_dir,
          .max_error_pct = o.max_error_pct};
}

// One engine's trials, each on a fresh start. Returns false when the run was interrupted.
bool RunEngine(providers::Fleet& fleet, const MemoryOptions& o, const std::string& run_id,
               const fs::path& raw_dir, const state::EngineInstall& install,
               const engines::EngineSpec& spec, results::MemoryEngineResult* row,
               const std::function<void()>& publish) {
  for (int n = 1; n <= o.trials; ++n) {
    const std::string stem = core::Format("{}-{}-t{}", run_id, spec.name, n);
    engines::Tuning tuning = o.tuning;
    std::optional<SnapshotPlace> place;
    if (spec.snapshots && o.snapshot == SnapshotMode::kBgsave) {
      auto prepared = PrepareSnapshotPlace(*fleet.server, o, stem);
      if (!prepared) {
        row->error = prepared.error().message;
        return true;
      }
      place = *prepared;
      const auto args = engines::SnapshotArgs(place->dir, place->file);
      tuning.extra_args.insert(tuning.extra_args.end(), args.begin(), args.end());
    }
    if (spec.debug_populate) {
      tuning.extra_args.insert(tuning.extra_args.end(), spec.debug_command_args.begin(),
                               spec.debug_command_args.end());
      row->engine_args = spec.debug_command_args;
    }
    auto turn = EngineTurn::Start(fleet, install, spec, tuning, row);
    bool go_on = true;
    if (!turn) {
      go_on = !core::InterruptRequested();
    } else {
      core::Notef("[{}] trial {}/{}", spec.name, n, o.trials);
      auto trial = RunMemoryTrial(fleet, o, *turn, raw_dir, core::Format("{}-t{}", spec.name, n));
      if (trial) {
        trial->trial = n;
        row->trials.push_back(std::move(*trial));
        row->Aggregate();
        turn->Stop();
      } else {
        go_on = turn->Failed(core::Format("trial {}", n), trial.error());
        turn->Stop();
      }
    }
    if (place) RemoveSnapshot(*fleet.server, *place, stem);
    publish();
    if (!go_on) return false;
    if (!row->error.empty()) return true;
  }
  return true;
}

// The usage error of an option (by its field: cli names the flag) that breaks `rule`.
tl::unexpected<core::Error> MustBe(std::string field, std::string_view rule) {
  return core::FailAbout(core::ErrorKind::kUsage, {std::move(field)},
                         "{0} must be " + core::LiteralWording(rule));
}

}  // namespace

core::Status CheckMemoryOptions(const MemoryOptions& o) {
  if (o.keys == 0) return MustBe("keys", "at least 1");
  if (o.load.data_size <= 0) return MustBe("data_size", "> 0");
  if (o.trials < 1) return MustBe("trials", "at least 1");
  if (o.test_time.count() < 1) return MustBe("test_time", "at least 1s");
  if (o.snapshot == SnapshotMode::kBgsave && o.snapshot_delay >= o.test_time) {
    return core::FailAbout(core::ErrorKind::kUsage, {"snapshot_delay", "test_time"},
                           core::Format("{{0}} ({}s) must be shorter than {{1}} ({}s)",
                                        o.snapshot_delay.count(), o.test_time.count()));
  }
  if (o.update_rate < 0) return MustBe("update_rate", ">= 0");
  return core::Ok();
}

core::Result<results::MemoryRunResults> RunMemory(state::SetupState* setup, providers::Fleet& fleet,
                                                  const MemoryOptions& options) {
  if (!options.driver) return core::Fail(core::ErrorKind::kUsage, "no load generator");
  if (options.engines.empty()) return core::Fail(core::ErrorKind::kUsage, "no engine to run");
  if (auto st = CheckMemoryOptions(options); !st) return tl::unexpected(st.error());
  if (auto st = CheckStartsEngines(fleet, "run-memory"); !st) return tl::unexpected(st.error());
  if (auto st = CheckInstalled(*setup, options.engines); !st) return tl::unexpected(st.error());
  if (auto st = CheckEnginePort(fleet); !st) return tl::unexpected(st.error());
  results::MemoryRunResults r;
  auto run = ScenarioRun<results::MemoryRunResults>::Open(setup, *options.driver, kMemory, &r);
  if (!run) return tl::unexpected(run.error());
  r.settings = Settings(options);
  nlohmann::json config = results::ToJson(r);
  config.erase("engines");
  const std::string announcement = core::Format(
      "memory run {}: {} engine(s), {} keys x {} B, {}s of updates, snapshot {}, results in {}",
      r.run_id, options.engines.size(), options.keys, options.load.data_size,
      options.test_time.count(), r.settings.snapshot, run->dir().string());
  if (auto st = run->Start(config, announcement); !st) return tl::unexpected(st.error());
  run->TakeEngineTurns(
      options.engines, options.cooldown, &r.engines,
      [&](const engines::EngineSpec& spec, results::MemoryEngineResult* row) {
        return RunEngine(fleet, options, r.run_id, run->dir() / "raw",
                         *setup->FindEngine(spec.name), spec, row, run->publish());
      },
      MeasurementFailed);
  return r;
}

core::Result<RunOutcome<results::MemoryRunResults>> MemoryOnSetup(const std::string& id,
                                                                  const MemoryOptions& options) {
  if (auto st = CheckMemoryOptions(options); !st) return tl::unexpected(st.error());
  return RunScenarioOnSetup(id, options, RunMemory);
}

}  // namespace dfbench::scenarios
