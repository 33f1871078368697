// results.json of the memory scenario (`run-memory`): per engine, idle memory and bytes per key
// after a populate, then memory over time under update traffic while a snapshot (BGSAVE) runs,
// with the peak, the snapshot's duration and the load's throughput and p99 around it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "results/replication_schema.h"
#include "results/run_status.h"
#include "results/schema.h"

namespace dfbench::results {

// One read of the engine's process tree on the server host. t_sec counts from the trial's
// first sample (right after the populate), the clock of every *_sec field of a trial.
struct MemorySample {
  double t_sec = 0;
  uint64_t pss_bytes = 0;  // the tree's PSS: a forked snapshot child counts, shared pages once
  uint64_t rss_bytes = 0;  // the tree's RSS sum (shared pages counted in each process)
  int processes = 0;
  uint64_t mem_available_bytes = 0;  // the host's MemAvailable
};

// Throughput and p99 of the update traffic over whole seconds of one phase.
struct PhaseLoad {
  double ops_per_sec = 0;  // mean of the seconds' counts
  double p99_ms = 0;       // median of the seconds' p99
  int seconds = 0;         // how many seconds fell in the phase
};

// Values of MemoryTrial::snapshot_status.
inline constexpr const char* kSnapshotOk = "ok";
inline constexpr const char* kSnapshotFailed = "failed";
inline constexpr const char* kSnapshotSkipped = "skipped";  // --snapshot none, or no snapshots

struct MemoryTrial {
  int trial = 0;
  std::string populate;  // "debug_populate" or "set" (pipelined SETs of the load generator)
  uint64_t keys = 0;     // as the engine counts them after the populate
  double populate_sec = 0;
  uint64_t empty_pss_bytes = 0;  // the fresh engine before the populate
  uint64_t idle_pss_bytes = 0;   // settled after the populate, no traffic
  uint64_t idle_rss_bytes = 0;
  // The engine's own figure (INFO memory used_memory; memcached total_malloced), fresh and idle.
  uint64_t empty_info_bytes = 0;
  uint64_t idle_info_bytes = 0;
  double bytes_per_key = 0;       // (idle - empty PSS) / keys
  double info_bytes_per_key = 0;  // (idle - empty engine figure) / keys
  uint64_t peak_pss_bytes = 0;    // over idle, the traffic and the snapshot
  uint64_t peak_rss_bytes = 0;
  int peak_processes = 0;                 // processes in the peak PSS sample (2: the child too)
  uint64_t mem_available_drop_bytes = 0;  // idle MemAvailable minus its lowest value after
  std::string snapshot_status;
  std::string snapshot_error;  // the engine's own message when it failed
  double load_start_sec = 0;
  double load_end_sec = 0;
  double snapshot_start_sec = 0;  // BGSAVE accepted
  double snapshot_end_sec = 0;    // persistence INFO says it is over
  double snapshot_duration_ms = 0;
  double snapshot_info_sec = 0;  // the engine's own figure (rdb_last_bgsave_time_sec)
  PhaseLoad before, during, after;
  std::string load_args;
  uint64_t load_ops = 0;     // update requests answered
  uint64_t load_errors = 0;  // update requests that failed
  // Why the trial counts as failed (TrialFailure of the updates), "" when it passed. A failed
  // trial is kept in the file and left out of the engine's summaries.
  std::string failed;
  std::vector<MemorySample> memory;
  std::vector<RepSample> load;  // t_sec on the trial's clock (end of each second)
};

// NOLINTNEXTLINE(bugprone-exception-escape): EngineRecord's nlohmann::json member, as there.
struct MemoryEngineResult : EngineRecord {
  std::vector<std::string> engine_args;  // added for this scenario (--enable-debug-command yes)
  std::vector<MemoryTrial> trials;
  // Over the trials:
  Stats idle_bytes;     // idle_pss_bytes
  Stats bytes_per_key;  // process
  Stats info_bytes_per_key;
  Stats peak_bytes;  // peak_pss_bytes
  Stats snapshot_duration_ms;

  void Aggregate();
};

struct MemorySettings {
  uint64_t keys = 0;
  int value_size = 1024;
  std::string snapshot = "bgsave";  // bgsave | none
  double update_rate = 0;           // requests per second in all; 0: closed loop
  double test_time_sec = 0;
  double snapshot_delay_sec = 0;  // traffic before the BGSAVE
  std::string ratio = "1:0";
  int threads = 0;
  int clients = 0;
  int pipeline = 0;
  int trials = 1;
  std::string snapshot_dir;  // "" : per engine and run under the server's work directory
  double max_error_pct = kDefaultMaxErrorPct;  // of a trial's updates (MemoryTrial::failed)
};

struct MemoryRunResults : RunFields {
  std::string scenario = "memory";
  std::string server_instance;  // an aws setup's instance types; empty otherwise
  std::string client_instance;
  MemorySettings settings;
  std::vector<MemoryEngineResult> engines;
  Context context;
};

// The field lists (json_fields.h): ToJson writes these structs and FromJson reads them; a
// `scenario` other than "memory" is an error.
void Fields(auto& v, FieldsOf<MemorySample> auto& x) {
  DFBENCH_FIELDS(t_sec, pss_bytes, rss_bytes, processes, mem_available_bytes)
}

void Fields(auto& v, FieldsOf<PhaseLoad> auto& x) {
  DFBENCH_FIELDS(ops_per_sec, p99_ms, seconds)
}

void Fields(auto& v, FieldsOf<MemoryTrial> auto& x) {
  DFBENCH_FIELDS(trial, populate, keys, populate_sec, empty_pss_bytes, idle_pss_bytes,
                 idle_rss_bytes, empty_info_bytes, idle_info_bytes, bytes_per_key,
                 info_bytes_per_key, peak_pss_bytes, peak_rss_bytes, peak_processes,
                 mem_available_drop_bytes, snapshot_status, snapshot_error, load_start_sec,
                 load_end_sec, snapshot_start_sec, snapshot_end_sec, snapshot_duration_ms,
                 snapshot_info_sec, before, during, after, load_args, load_ops, load_errors, failed,
                 memory, load)
}

void Fields(auto& v, FieldsOf<MemoryEngineResult> auto& x) {
  DFBENCH_FIELDS(engine, version)
  DFBENCH_OPTIONAL_FIELDS(origin, sha256)
  DFBENCH_FIELDS(tuning, engine_args, error, idle_bytes, bytes_per_key, info_bytes_per_key,
                 peak_bytes, snapshot_duration_ms, trials)
}

void Fields(auto& v, FieldsOf<MemorySettings> auto& x) {
  DFBENCH_FIELDS(keys, value_size, snapshot, update_rate, test_time_sec, snapshot_delay_sec, ratio,
                 threads, clients, pipeline, trials, snapshot_dir, max_error_pct)
}

void Fields(auto& v, FieldsOf<MemoryRunResults> auto& x) {
  DFBENCH_FIELDS(scenario)
  VisitRunFields(v, x);
  DFBENCH_FIELDS(server_instance, client_instance, settings, engines, context)
}

// The seconds of `load` (t_sec = the second's end) that lie wholly within [from_sec, to_sec]
// (kInside: before and after a snapshot) or touch it (kOverlapping: during one, which may be
// shorter than a second).
enum class PhaseSeconds { kInside, kOverlapping };
PhaseLoad SummarizePhase(const std::vector<RepSample>& load, double from_sec, double to_sec,
                         PhaseSeconds which = PhaseSeconds::kInside);

// The fields of a trial that are one value each, in the order files write them (results.csv's
// columns after the engine's).
const std::vector<std::string>& MemoryTrialScalars();

// results.json: two-space indented, a stable key order, trailing newline.
std::string RenderMemoryJson(const MemoryRunResults& r);
// results.csv: one row per trial.
std::string RenderMemoryCsv(const MemoryRunResults& r);
// The table on stdout: one row per engine (medians over the trials).
std::string RenderMemoryTable(const MemoryRunResults& r);

}  // namespace dfbench::results
