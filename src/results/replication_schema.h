// results.json of the replication scenario (the reference's ReplicationRunResults,
// ReplicationCase and RepSample). Field names and nesting follow the reference README so files
// from either implementation compare.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "results/run_status.h"
#include "results/schema.h"

namespace dfbench::results {

// One second of load during a case. In `series` (as in the reference) t_sec counts the seconds
// of sustained load after the replica reported stable sync; in `sync_series` the seconds since
// the load started, before the sync was over.
struct RepSample {
  double t_sec = 0;   // end of the interval, in seconds
  double rps = 0;     // requests per second in this interval
  double p99_us = 0;  // p99 latency in this interval, microseconds
  bool operator==(const RepSample&) const = default;
};

// Values of ReplicationCase::termination_reason.
inline constexpr const char* kTerminationTimeout = "timeout";
inline constexpr const char* kTerminationReplicaDisconnect = "replica_disconnect";
inline constexpr const char* kTerminationError = "error";
inline constexpr const char* kTerminationCancelled = "ctx_cancelled";

// One row of the QPS sweep: preload, replica full sync, sustained load.
// NOLINTNEXTLINE(bugprone-exception-escape): EngineRecord's nlohmann::json member, as there.
struct ReplicationCase : EngineRecord {  // the master's engine (empty in reference files)
  std::string run_name;                  // "qps=100000" or "maxload"
  std::string preload_args;
  std::string load_args;
  std::vector<std::string> master_flags;
  std::vector<std::string> replica_flags;
  // The sustained load: one sample per second from the first whole second after stable sync,
  // at most the test time. Its medians are the case's median_rps and median_p99_us.
  std::vector<RepSample> series;
  double sync_duration_ms = 0;  // replica start to stable sync; 0 when never reached
  std::string termination_reason;
  // Beyond the reference schema: EngineRecord (error: why the case failed, termination_reason
  // "error", e.g. the engine's line), and
  // What clients saw while the replica synced (the built-in generator runs through the sync):
  // the seconds from the load's start up to and including the one in which the sync ended.
  // Kept apart from `series` so that it never enters the medians; empty when the load started
  // after the sync (dfly_bench, and reference files).
  std::vector<RepSample> sync_series;
};

// How a case is named in tables and matched between files: "redis qps=1000", or the run_name
// alone when the file names no engine.
std::string CaseName(const ReplicationCase& c);

// The case's load on one time axis, for charts: `sync_series` as it is, then `series` shifted
// to follow it (by SustainedStartSec).
std::vector<RepSample> Timeline(const ReplicationCase& c);
// Where `series` starts on Timeline's axis: the end of the sync window's last second; 0 without
// one.
double SustainedStartSec(const ReplicationCase& c);

struct ReplicationRunResults : RunFields {
  std::string scenario = "replication";
  std::string master_instance;
  std::string replica_instance;
  std::string client_instance;
  std::string dfly_bench_ref;
  std::vector<ReplicationCase> cases;
  // Beyond the reference schema: RunFields::status, and
  Context context;
};

// True when no case names its engine (a file of the reference).
bool NamesNoEngine(const ReplicationRunResults& r);
// True when no run_name occurs twice (a file of one engine, or of the reference).
bool RunNamesUnique(const ReplicationRunResults& r);

// `series`' rps and p99_us summarised (median, min, max, stddev); all zero for no samples. The
// sync window is not part of them.
Stats RpsStats(const ReplicationCase& c);
Stats P99UsStats(const ReplicationCase& c);

// The field lists (json_fields.h): ToJson writes these structs and FromJson reads them, lenient
// as in schema.h: missing fields take defaults, wrong types fail with the field's path
// ("cases[0].series[3].rps: expected a number"). A `scenario` other than "replication" is an
// error.
void Fields(auto& v, FieldsOf<RepSample> auto& x) {
  DFBENCH_FIELDS(t_sec, rps, p99_us)
}

void Fields(auto& v, FieldsOf<ReplicationCase> auto& x) {
  DFBENCH_FIELDS(run_name, preload_args, load_args, master_flags, replica_flags, series,
                 sync_duration_ms, termination_reason)
  DFBENCH_OPTIONAL_FIELDS(engine, version, origin, sha256, error, sync_series)
}

void Fields(auto& v, FieldsOf<ReplicationRunResults> auto& x) {
  DFBENCH_FIELDS(scenario)
  VisitRunFields(v, x);
  DFBENCH_FIELDS(master_instance, replica_instance, client_instance, dfly_bench_ref, cases, context)
}

// results.json of a replication run: the reference's key order, two-space indented, trailing
// newline.
std::string RenderReplicationJson(const ReplicationRunResults& r);

// benchmark_results.csv, the upstream playground's schema: one row per sample of `series`,
// "Run_Name,Time_Seconds,RPS_Now,p99_Latency_us". Run_Name is the case's run_name as the
// reference writes it ("qps=100000"), or CaseName ("redis qps=100000") when the cases are of
// several engines; numbers with at most 3 decimals.
std::string RenderReplicationCsv(const ReplicationRunResults& r);

}  // namespace dfbench::results
