#include "scenarios/memory/memory_trial.h"

#include <algorithm>

#include "core/format.h"
#include "core/log.h"
#include "results/number_format.h"
#include "scenarios/frame/background_load.h"
#include "scenarios/memory/memory_probes.h"
#include "scenarios/memory/memory_sampler.h"
#include "scenarios/memory/snapshot_deadline.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr seconds kSettleWindow{1};
constexpr seconds kEmptySettleLimit{10};
constexpr seconds kIdleSettleLimit{60};

// The keys DEBUG POPULATE writes ("key:0" ...), so fills and updates hit the same keys.
core::Load KeyRange(const MemoryOptions& o) {
  core::Load load = o.load;
  load.key_minimum = 0;
  load.key_maximum = o.keys - 1;
  load.key_prefix = "key:";
  return load;
}

std::string MiB(uint64_t bytes) {
  return results::Fixed(static_cast<double>(bytes) / (1 << 20), 1);
}

double PerKey(uint64_t full, uint64_t empty, uint64_t keys) {
  if (keys == 0 || full <= empty) return 0;
  return static_cast<double>(full - empty) / static_cast<double>(keys);
}

core::Status Populate(providers::Fleet& fleet, const MemoryOptions& o, EngineTurn& turn,
                      const fs::path& raw_report, results::MemoryTrial* t) {
  const auto& spec = turn.spec();
  const auto& engine = turn.engine().seed();  // run-memory has no topology flags: one process
  const auto start = std::chrono::steady_clock::now();
  if (spec.debug_populate) {
    t->populate = "debug_populate";
    core::Notef("[{}] DEBUG POPULATE {} key {}", spec.name, o.keys, o.load.data_size);
    if (auto st = DebugPopulate(engine.address(), engine.port(), o.keys, o.load.data_size); !st) {
      return st;
    }
  } else {
    t->populate = "set";
    core::Load fill = KeyRange(o);
    fill.pipeline = std::max(o.load.pipeline, 30);  // a fill is throughput, not latency
    core::Notef("[{}] filling {} keys with pipelined SETs", spec.name, o.keys);
    auto r = o.driver->Run(*fleet.client, turn.target(), fill, core::Pass::Fill(),
                           fleet.client_cpus, raw_report);
    if (!r) return tl::unexpected(r.error());
    // A fill with refused SETs leaves keys out: the memory per key would be measured on fewer.
    if (r->errors > 0) {
      return core::Fail(
          core::ErrorKind::kFailure,
          core::Format("the fill had {} error replies (see {})", r->errors, raw_report.string()));
    }
  }
  t->populate_sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return core::Ok();
}

// Keeps sampling while the load runs, until `until_sec` on the sampler's clock.
core::Status SampleUntil(MemorySampler& sampler, BackgroundLoad& load, double until_sec) {
  while (sampler.Now() < until_sec && load.Alive()) {
    if (auto s = sampler.Tick(); !s) return tl::unexpected(s.error());
  }
  return core::Ok();
}

// BGSAVE under the running load; samples until the engine says the snapshot is over, or until
// the snapshot limit, which fails the trial naming what INFO persistence last showed.
core::Status Snapshot(const MemoryOptions& o, EngineTurn& turn, MemorySampler& sampler,
                      results::MemoryTrial* t) {
  auto& engine = turn.engine().seed();
  const std::string log_before = engine.LogTail();
  core::Notef("[{}] BGSAVE", turn.spec().name);
  if (auto st = StartBgsave(engine.address(), engine.port()); !st) {
    if (st.error().kind == core::ErrorKind::kInterrupted) return st;
    t->snapshot_status = results::kSnapshotFailed;
    t->snapshot_error = st.error().message;
    return core::Ok();
  }
  t->snapshot_start_sec = sampler.Now();
  // The engine forked before it answered: catch the child before a short snapshot ends.
  if (auto s = sampler.SampleNow(); !s) return tl::unexpected(s.error());
  const seconds limit = SnapshotLimit(o.keys, o.load.data_size, o.snapshot_timeout);
  PersistenceState state;
  while (true) {
    if (auto s = sampler.Tick(); !s) return tl::unexpected(s.error());
    auto read = ReadPersistence(engine.address(), engine.port());
    if (!read) {
      return tl::unexpected(core::WithContext(read.error(), "waiting for the snapshot's end"));
    }
    state = *read;
    if (!state.in_progress) break;
    if (sampler.Now() - t->snapshot_start_sec > static_cast<double>(limit.count())) {
      return core::Fail(
          core::ErrorKind::kFailure,
          SnapshotStuckMessage(limit, o.snapshot_timeout.count() > 0, state.progress));
    }
  }
  t->snapshot_end_sec = sampler.Now();
  t->snapshot_duration_ms = (t->snapshot_end_sec - t->snapshot_start_sec) * 1000;
  t->snapshot_info_sec = state.last_duration_sec;
  if (!state.last_failed) {
    t->snapshot_status = results::kSnapshotOk;
    return core::Ok();
  }
  t->snapshot_status = results::kSnapshotFailed;
  t->snapshot_error = !state.last_error.empty() ? state.last_error
                                                : SnapshotFailureLine(log_before, engine.LogTail());
  if (t->snapshot_error.empty()) t->snapshot_error = "the engine reports the snapshot failed";
  return core::Ok();
}

// The peak starts at the idle sample: under traffic memory may only shrink (freed pages).
void Summarize(const results::MemorySample& idle, results::MemoryTrial* t) {
  t->peak_pss_bytes = idle.pss_bytes;
  t->peak_rss_bytes = idle.rss_bytes;
  t->peak_processes = idle.processes;
  uint64_t lowest_available = idle.mem_available_bytes;
  for (const auto& s : t->memory) {
    if (s.t_sec < t->load_start_sec) continue;
    if (s.pss_bytes > t->peak_pss_bytes) {
      t->peak_pss_bytes = s.pss_bytes;
      t->peak_processes = s.processes;
    }
    t->peak_rss_bytes = std::max(t->peak_rss_bytes, s.rss_bytes);
    lowest_available = std::min(lowest_available, s.mem_available_bytes);
  }
  t->mem_available_drop_bytes = idle.mem_available_bytes - lowest_available;
  if (t->snapshot_end_sec > 0) {
    t->before = results::SummarizePhase(t->load, t->load_start_sec, t->snapshot_start_sec);
    t->during = results::SummarizePhase(t->load, t->snapshot_start_sec, t->snapshot_end_sec,
                                        results::PhaseSeconds::kOverlapping);
    t->after = results::SummarizePhase(t->load, t->snapshot_end_sec, t->load_end_sec);
  } else {
    t->before = results::SummarizePhase(t->load, t->load_start_sec, t->load_end_sec);
  }
}

}  // namespace

core::Result<results::MemoryTrial> RunMemoryTrial(providers::Fleet& fleet, const MemoryOptions& o,
                                                  EngineTurn& turn, const fs::path& raw_dir,
                                                  const std::string& stem) {
  auto& engine = turn.engine().seed();
  const auto& spec = turn.spec();
  results::MemoryTrial t;
  {
    MemorySampler fresh(*fleet.server, engine.pid());
    auto empty = fresh.WaitUntilSettled(kSettleWindow, kEmptySettleLimit,
                                        "[" + spec.name + "] empty memory");
    if (!empty) return tl::unexpected(empty.error());
    t.empty_pss_bytes = empty->pss_bytes;
  }
  auto empty_info = ServerMemoryBytes(engine.address(), engine.port(), spec.protocol);
  if (!empty_info) return tl::unexpected(empty_info.error());
  t.empty_info_bytes = *empty_info;

  if (auto st = Populate(fleet, o, turn, raw_dir / (stem + "-populate.json"), &t); !st) {
    return tl::unexpected(st.error());
  }
  auto keys = ServerItemCount(engine.address(), engine.port(), spec.protocol);
  if (!keys) return tl::unexpected(keys.error());
  t.keys = *keys;

  MemorySampler sampler(*fleet.server, engine.pid());
  auto idle =
      sampler.WaitUntilSettled(kSettleWindow, kIdleSettleLimit, "[" + spec.name + "] idle memory");
  if (!idle) return tl::unexpected(idle.error());
  t.idle_pss_bytes = idle->pss_bytes;
  t.idle_rss_bytes = idle->rss_bytes;
  auto idle_info = ServerMemoryBytes(engine.address(), engine.port(), spec.protocol);
  if (!idle_info) return tl::unexpected(idle_info.error());
  t.idle_info_bytes = *idle_info;
  t.bytes_per_key = PerKey(t.idle_pss_bytes, t.empty_pss_bytes, t.keys);
  t.info_bytes_per_key = PerKey(t.idle_info_bytes, t.empty_info_bytes, t.keys);
  core::Notef(
      "[{}] {} keys in {:.1f}s; idle {} MiB PSS, {:.0f} bytes per key ({:.0f} by the "
      "engine's own figure)",
      spec.name, t.keys, t.populate_sec, MiB(t.idle_pss_bytes), t.bytes_per_key,
      t.info_bytes_per_key);

  core::Pass updates = core::Pass::Time(o.test_time);
  updates.rate_per_sec = o.update_rate;
  auto load =
      BackgroundLoad::Start(*fleet.client, turn.target(), KeyRange(o), updates, fleet.client_cpus);
  if (!load) return tl::unexpected(load.error());
  t.load_args = load->args();
  t.load_start_sec = sampler.Now();
  const double load_end = t.load_start_sec + static_cast<double>(o.test_time.count());
  const bool snapshot = o.snapshot == SnapshotMode::kBgsave && spec.snapshots;
  t.snapshot_status = snapshot ? results::kSnapshotOk : results::kSnapshotSkipped;
  if (snapshot) {
    const double at = t.load_start_sec + static_cast<double>(o.snapshot_delay.count());
    if (auto st = SampleUntil(sampler, *load, at); !st) return tl::unexpected(st.error());
    if (auto st = Snapshot(o, turn, sampler, &t); !st) return tl::unexpected(st.error());
  }
  if (auto st = SampleUntil(sampler, *load, load_end); !st) return tl::unexpected(st.error());
  auto outcome = load->Finish(raw_dir / (stem + "-load.json"));
  if (!outcome) return tl::unexpected(outcome.error());
  t.load_end_sec = sampler.Now();
  for (auto s : outcome->series) {
    s.t_sec += t.load_start_sec;
    t.load.push_back(s);
  }
  t.load_ops = outcome->ops;
  t.load_errors = outcome->errors;
  t.failed = results::TrialFailure({.ops = t.load_ops, .errors = t.load_errors}, o.max_error_pct);
  t.memory = sampler.samples();
  Summarize(*idle, &t);
  core::Notef("[{}] peak {} MiB PSS ({} process(es)), snapshot {}{}", spec.name,
              MiB(t.peak_pss_bytes), t.peak_processes, t.snapshot_status,
              t.snapshot_status == results::kSnapshotOk
                  ? core::Format(" in {:.2f}s", t.snapshot_duration_ms / 1000)
              : t.snapshot_error.empty() ? ""
                                         : ": " + t.snapshot_error);
  if (!t.failed.empty()) core::Notef("[{}] trial failed: the updates: {}", spec.name, t.failed);
  return t;
}

}  // namespace dfbench::scenarios
