// What every benchmark scenario does around its own steps (after CheckRunnable), in one
// ScenarioRun: the opening fields of its results (a new run directory, the fleet's labels, the
// context), config.json and its start in the setup's history, the engines' turns, and the
// closing fields (final status, end time, the history record).
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "core/log.h"
#include "core/time_format.h"
#include "drivers/driver.h"
#include "providers/provider.h"
#include "results/schema.h"
#include "scenarios/frame/engine_turn.h"
#include "scenarios/frame/run_identity.h"
#include "scenarios/frame/unwritten_results.h"
#include "scenarios/setup/history.h"
#include "state/state.h"

namespace dfbench::scenarios {

// Opens a run's results in `dir`, the run `run_id`: <dir>/<raw_folder> created, and the fields
// every result file opens with (setup, the fleet's labels, start time on `clock`, status
// "running", context).
template <class Results>
core::Status OpenResultsAt(const state::SetupState& setup, const drivers::Driver& driver,
                           const std::string& run_id, const std::filesystem::path& dir,
                           const std::string& raw_folder, Results* r,
                           const core::Clock& clock = core::RealClock()) {
  if (auto st = core::MakeDirs(dir / raw_folder); !st) return st;
  r->run_id = run_id;
  r->setup_id = setup.id;
  const providers::FleetLabels labels = providers::RecordedFleetLabels(setup);
  r->region = labels.region;
  if constexpr (requires { r->aws_account; }) r->aws_account = labels.aws_account;
  if constexpr (requires { r->master_instance; }) {
    // A replication run names the server after its role.
    r->master_instance = labels.server_instance;
    r->replica_instance = labels.replica_instance;
  } else {
    r->server_instance = labels.server_instance;
  }
  r->client_instance = labels.client_instance;
  r->created_at = core::NowIso8601(clock);
  r->status = results::RunStatus::kRunning;
  r->context = MakeContext(setup, driver);
  return core::Ok();
}

// What sets a scenario's runs apart: their kind in the setup's history ("run", "commands", ...),
// the folder of their run directories under the setup, the folder of the raw reports in a run
// directory, and the results files: results.json and a CSV file (results.csv, or the
// reference's name for the kind), each rendered from the results.
template <class Results>
struct RunKind {
  std::string kind;
  std::string folder;
  std::string raw_folder;
  std::string (*json)(const Results&);
  std::string (*csv)(const Results&);
  std::string csv_name = "results.csv";
};

// The step that writes `r`'s files of `kind` into `dir`, after every change of `r` (which
// outlives it). A file that cannot be written is a line on stderr when it starts failing: the
// run goes on and writes it again; `*unwritten` holds the last write's error (nullopt once a
// write succeeds again), for the run's close to act on.
template <class Results>
std::function<void()> Publisher(const Results& r, const std::filesystem::path& dir,
                                const RunKind<Results>& kind,
                                const std::shared_ptr<std::optional<core::Error>>& unwritten) {
  return [&r, dir, json = kind.json, csv_name = kind.csv_name, csv = kind.csv, unwritten] {
    core::Status st = core::WriteFileAtomic(dir / "results.json", json(r));
    if (st) st = core::WriteFileAtomic(dir / csv_name, csv(r));
    if (st) {
      unwritten->reset();
      return;
    }
    if (!*unwritten) core::Notef("{} (the run goes on, its numbers kept)", st.error().message);
    *unwritten = st.error();
  };
}

// The fields every config.json opens with (the run, its setup, engines, load generator,
// cooldown and context, and the live metrics when sent); a scenario adds its own settings.
template <class Results, class Options>
nlohmann::json ConfigJson(const Results& r, const Options& o) {
  nlohmann::json engines = nlohmann::json::array();
  for (const auto* e : o.engines) engines.push_back(e->name);
  nlohmann::json config = {{"run_id", r.run_id},
                           {"setup_id", r.setup_id},
                           {"created_at", r.created_at},
                           {"engines", engines},
                           {"load_generator", o.driver->Name()},
                           {"cooldown_sec", std::chrono::duration<double>(o.cooldown).count()},
                           {"context", results::ToJson(r.context)}};
  // Only when asked: where the generators sent live metrics (each pass labelled by its raw
  // report's name). It changes nothing measured, so results.json's load record leaves it out.
  const core::LiveMetrics& m = o.live_metrics;
  if (m.Enabled()) {
    nlohmann::json live = nlohmann::json::object();
    if (!m.statsd_host.empty())
      live["statsd"] = m.statsd_host + ":" + std::to_string(m.statsd_port);
    if (m.prometheus_port > 0) live["prometheus_port"] = m.prometheus_port;
    config["live_metrics"] = live;
  }
  return config;
}

// Pointers to each of `rows`, for ScenarioRun::Close.
template <class Row>
std::vector<const Row*> RowPointers(const std::vector<Row>& rows) {
  std::vector<const Row*> out;
  out.reserve(rows.size());
  for (const auto& row : rows) out.push_back(&row);
  return out;
}

// One run of a scenario, from its opening to its close: its results `r` (which outlive it) in
// their run directory, written again after every change (`publish`), and its record in the
// setup's history. Its id, start and end times and the cooldowns between its engines are on
// the clock it was opened with (which outlives it).
template <class Results>
class ScenarioRun {
 public:
  // Opens `r` in a new run directory <setup>/<kind.folder>/<run id> (OpenResultsAt).
  static core::Result<ScenarioRun> Open(state::SetupState* setup, const drivers::Driver& driver,
                                        const RunKind<Results>& kind, Results* r,
                                        core::Clock& clock = core::RealClock()) {
    const std::filesystem::path parent = state::SetupDir(setup->id) / kind.folder;
    const std::string run_id = NewRunId(parent, clock);
    return OpenAt(setup, driver, kind, run_id, parent / run_id,
                  kind.folder + "/" + run_id + "/results.json", r, clock);
  }

  // Opens `r` as run `run_id` in `dir`, recorded in the history at `path` (relative to the
  // setup, or absolute when the run lies outside it).
  static core::Result<ScenarioRun> OpenAt(state::SetupState* setup, const drivers::Driver& driver,
                                          const RunKind<Results>& kind, const std::string& run_id,
                                          const std::filesystem::path& dir, const std::string& path,
                                          Results* r, core::Clock& clock = core::RealClock()) {
    if (auto st = OpenResultsAt(*setup, driver, run_id, dir, kind.raw_folder, r, clock); !st) {
      return tl::unexpected(st.error());
    }
    auto unwritten = std::make_shared<std::optional<core::Error>>();
    return ScenarioRun(setup, kind.kind, dir, path, r, Publisher(*r, dir, kind, unwritten),
                       kind.json, unwritten, clock);
  }

  const std::filesystem::path& dir() const { return dir_; }
  // Writes the results files (after every change of the results).
  const std::function<void()>& publish() const { return publish_; }

  // Writes `config` as config.json (unless it is null) and says `announcement` on stderr; then
  // publishes the opened run and records it in the setup's history as "running", before the
  // first engine starts: a killed run leaves a results file and a history entry for the next
  // command to mark interrupted.
  core::Status Start(const nlohmann::json& config, const std::string& announcement) {
    if (!config.is_null()) {
      if (auto st = core::WriteFileAtomic(dir_ / "config.json", config.dump(2) + "\n"); !st) {
        return st;
      }
    }
    core::Note(announcement);
    publish_();
    return RecordRunStart(
        setup_, {.kind = kind_, .run_id = r_->run_id, .path = path_, .created_at = r_->created_at});
  }

  // Each of `engines` takes its turn (scenarios::TakeEngineTurns, the files published after
  // each), then the run closes (Close, by `failed`).
  template <class Row, class Turn>
  void TakeEngineTurns(
      const std::vector<const engines::EngineSpec*>& engines, std::chrono::milliseconds cooldown,
      std::vector<Row>* rows, Turn turn,
      const std::type_identity_t<std::function<bool(const Row&)>>& failed = RowHasError<Row>) {
    const bool interrupted =
        scenarios::TakeEngineTurns(engines, cooldown, rows, std::move(turn), publish_, *clock_);
    Close(interrupted, RowPointers(*rows), failed);
  }

  // Closes the run: its final status from its rows (FinalStatus: any kind with an `error` and an
  // `engine`, `failed` saying which failed) and its end time, its files, then its history record
  // naming the engines (the caller saves the state). When the last write of its files failed,
  // the run is "failed" whatever its rows say, its results are kept elsewhere
  // (KeepUnwrittenResults) and the record's `error` says why and where (its `path` pointing
  // there).
  template <class Row>
  void Close(
      bool interrupted, const std::vector<const Row*>& rows,
      const std::type_identity_t<std::function<bool(const Row&)>>& failed = RowHasError<Row>) {
    r_->status = FinalStatus(interrupted, rows, failed);
    r_->completed_at = core::NowIso8601(*clock_);
    publish_();
    if (!*unwritten_) {
      RecordRunEnd(setup_, kind_, path_, *r_, rows);
      return;
    }
    r_->status = results::RunStatus::kFailed;
    std::string error = "results not written: " + (*unwritten_)->message;
    auto kept = KeepUnwrittenResults(setup_->id, r_->run_id, json_(*r_));
    std::string path = path_;
    if (kept) {
      path = kept->string();
      error += "; the numbers measured are in " + path;
    } else {
      error += "; nor kept elsewhere: " + kept.error().message;
    }
    RecordRunEnd(setup_, kind_, path, *r_, rows);
    if (auto* record = setup_->FindBenchmark(r_->run_id)) record->error = error;
  }

 private:
  ScenarioRun(state::SetupState* setup, std::string kind, std::filesystem::path dir,
              std::string path, Results* r, std::function<void()> publish,
              std::string (*json)(const Results&),
              std::shared_ptr<std::optional<core::Error>> unwritten, core::Clock& clock)
      : setup_(setup),
        kind_(std::move(kind)),
        dir_(std::move(dir)),
        path_(std::move(path)),
        r_(r),
        publish_(std::move(publish)),
        json_(json),
        unwritten_(std::move(unwritten)),
        clock_(&clock) {}

  state::SetupState* setup_;
  std::string kind_;
  std::filesystem::path dir_;
  std::string path_;
  Results* r_;
  std::function<void()> publish_;
  std::string (*json_)(const Results&);
  std::shared_ptr<std::optional<core::Error>> unwritten_;
  core::Clock* clock_;
};

}  // namespace dfbench::scenarios
