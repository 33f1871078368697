// Result files as plain structs. Field names and nesting follow the reference dfbench
// result schemas (docs/results.md) so files from either implementation compare.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/host_facts.h"
#include "core/load.h"
#include "core/load_generator.h"
#include "results/engine_record.h"
#include "results/json_fields.h"
#include "results/run_fields.h"

namespace dfbench::results {

// Median-centred summary of one metric over the trials.
struct Stats {
  double median = 0;
  double min = 0;
  double max = 0;
  double stddev = 0;  // sample standard deviation (n-1); 0 for fewer than two values
};

// Summarises values (any order). All zero for an empty span.
Stats Summarize(const std::vector<double>& values);

// A share of its CPUs at or above which a load generator counts as the limit of its trial.
inline constexpr double kClientBoundCpu = 0.9;

// One load generator's part of a trial measured by several (TrialResult::clients).
struct ClientTrial {
  std::string name;  // the client host's role (core::Role::Name), or "client process 2"
  int threads = 0;
  int clients = 0;           // connections per thread
  uint64_t key_minimum = 0;  // its keys; both 0: the whole range of the load
  uint64_t key_maximum = 0;
  uint64_t ops = 0;
  uint64_t errors = 0;
  double throughput = 0;
  double p50 = 0, p99 = 0, p999 = 0, avg_latency = 0;  // its own, ms
  double client_cpu = 0;  // share of its usable CPUs it used (0..1; 0: unknown)
  // The share it wanted: used, or runnable and waiting for a CPU (starved); >= 1 when its
  // threads outnumbered its CPUs or other processes took them.
  double client_cpu_demand = 0;
  double start_offset_ms = 0;  // its measured part began this long after the earliest one's
  bool client_bound = false;   // client_cpu_demand >= kClientBoundCpu
  std::string raw_file;        // its report, beside the trial's raw_file

  int connections() const { return threads * clients; }
  bool operator==(const ClientTrial&) const = default;
};

// One measured trial. Latencies in milliseconds, throughput in operations per second.
struct TrialResult {
  int trial = 0;
  double throughput = 0;
  double p50 = 0;
  double p99 = 0;
  double p999 = 0;
  double avg_latency = 0;
  // Beyond the reference schema (optional on read):
  uint64_t ops = 0;         // operations answered in the measured window
  uint64_t errors = 0;      // error replies and failed requests
  double duration_sec = 0;  // measured wall time of the trial
  std::string raw_file;     // load generator report, relative to the run directory
  // Why the trial counts as failed (TrialFailure), "" when it passed. A failed trial is kept
  // for the record but left out of its engine's summaries and of any comparison.
  std::string failed;
  // Why the load generator's measured window ended before its load was done (a connection
  // lost, the server silent), "" when it ran whole.
  std::string ended_early;
  // The server's own count of this trial's data operations; nullopt (null) when unknown.
  std::optional<uint64_t> server_ops;
  // The load generator's CPU use (the busiest one's, with several), as a share of its usable
  // CPUs (0: unknown); the share it wanted (used, or runnable and waiting for a CPU); and
  // whether a generator was the limit (demand >= kClientBoundCpu): then the figures say as much
  // about the client as about the server.
  double client_cpu = 0;
  double client_cpu_demand = 0;
  bool client_bound = false;
  // With several load generators: each one's part, and how far apart their measured parts
  // began (the merged percentiles come from their histograms merged bucket by bucket).
  std::vector<ClientTrial> clients;
  double start_skew_ms = 0;
};

// The default of --max-error-pct: the share of a trial's requests that may fail before the
// trial itself counts as failed.
inline constexpr double kDefaultMaxErrorPct = 1.0;

// Why `t` failed, "" when it passed: its measured window ended early, the server counted fewer
// operations than the load generator saw answered (lost work: kServerOpsShortfall), no request
// answered successfully, or more of its requests failed than `max_error_pct` percent (0-100)
// of ops + errors allows.
std::string TrialFailure(const TrialResult& t, double max_error_pct);

// How many fewer operations than the load generator's answered ones the server may count: none.
// Every successful reply was an operation the server ran and counted; a server that counts fewer
// restarted, or another server answered. It may count more (requests in flight when a
// time-boxed trial stops, error replies, other clients of a shared server).
inline constexpr uint64_t kServerOpsShortfall = 0;

// One engine's row: its trials and their summaries.
// NOLINTNEXTLINE(bugprone-exception-escape): EngineRecord's nlohmann::json member, as there.
struct EngineResult : EngineRecord {
  std::vector<TrialResult> trials;
  Stats throughput, p50, p99, p999, avg_latency;
  // Beyond the reference schema: EngineRecord's origin, sha256, error and tuning, and the
  // reference's per-engine fields of the same flags, where it puts them; each only on the
  // engines it applies to (SetReferenceTuning): io_threads (0: the engine's default) and
  // pin_network (pinning applied) on Redis and Valkey, num_shards (as started; 0: Dragonfly's
  // default) and conn_use_incoming_cpu on Dragonfly.
  std::optional<int> io_threads;
  std::optional<int> num_shards;
  std::optional<bool> conn_use_incoming_cpu;
  std::optional<bool> pin_network;
  bool approximate = false;  // per-command draining commands
  // The server's own count of data operations over warmup and trials (INFO commandstats, with
  // the calls it rejected, or memcached stats); null when unknown. Equals warmup + trial ops +
  // errors when nothing was lost.
  std::optional<uint64_t> server_ops;
  uint64_t warmup_ops = 0;  // operations of the discarded warmup pass
  // The engine's own connection shape when the run gave it one (--client-profile): every
  // value as it ran; absent when it ran the run's load like every engine.
  std::optional<core::ClientProfile> client_profile;

  // Recomputes the Stats fields from the trials that did not fail (all zero when none).
  void Aggregate();
  // How many of its trials measured their load generator as much as the engine.
  size_t ClientBoundTrials() const;
};

// The load of a `run` as its result files record it, under the reference's "memtier" key
// whatever generator sent it; a file without a field reads the `run` default.
struct RunLoadRecord {
  int threads = core::kRunLoad.threads;
  int clients = core::kRunLoad.clients;
  uint64_t requests = core::kRunRequestsPerClient;  // per connection, as memtier's --requests
  std::string ratio = core::kRunLoad.ratio.ToString();
  int data_size = core::kRunLoad.data_size;
  int pipeline = core::kRunLoad.pipeline;
  bool distinct_client_seed = core::kRunLoad.distinct_client_seed;
  // Beyond the reference schema: > 0 when trials were time-boxed (memtier's --test-time), and
  // `requests` is then 0; keys 1..key_maximum when given (0: the generator's own range).
  int test_time_sec = 0;
  uint64_t key_maximum = 0;
};
// What a run of `load` whose trials are `pass` records (kRequests or kTestTime).
RunLoadRecord RecordOf(const core::Load& load, const core::Pass& pass);

// Host facts recorded with every result file and in state.json (the struct lives in core so
// that hosts, which produce it, need not include the result schemas).
using HostFacts = core::HostFacts;

// Who produced a file, on what: the context block every result file carries.
struct Context {
  std::string tool = "dfbench";
  std::string tool_version;  // "dfbench v0.1.0 (commit abc1234, built 2026-04-08)"
  std::string build_type;
  std::string provider;                               // local | ssh | aws
  std::optional<core::LoadGenerator> load_generator;  // nullopt in files that name none
  std::vector<HostFacts> hosts;
};

// results.json of `dfbench run` / `quickstart` (the reference's RunResults).
struct RunResults : RunFields {
  std::string aws_account;
  std::string server_instance;
  std::string client_instance;
  RunLoadRecord memtier;
  uint64_t warmup_requests = 100000;
  int trials = 3;
  std::vector<EngineResult> engines;
  Context context;
};

// The field lists of these structs (json_fields.h): each key of an engine's row, its trials and
// summaries, the load settings of `run` and the context block is named here once, for writing
// and reading alike.
void Fields(auto& v, FieldsOf<Stats> auto& x) {
  DFBENCH_FIELDS(median, min, max, stddev)
}

void Fields(auto& v, FieldsOf<ClientTrial> auto& x) {
  DFBENCH_FIELDS(name, threads, clients)
  DFBENCH_OPTIONAL_FIELDS(key_minimum, key_maximum)
  DFBENCH_FIELDS(ops, errors, throughput, p50, p99, p999, avg_latency, client_cpu,
                 client_cpu_demand, start_offset_ms, client_bound, raw_file)
}

void Fields(auto& v, FieldsOf<TrialResult> auto& x) {
  // server_ops is written null when unknown: an unknown count is said, never left out.
  DFBENCH_FIELDS(trial, throughput, p50, p99, p999, avg_latency, ops, errors, duration_sec,
                 raw_file, server_ops)
  DFBENCH_OPTIONAL_FIELDS(failed, ended_early, client_cpu, client_cpu_demand, client_bound, clients,
                          start_skew_ms)
}

void Fields(auto& v, FieldsOf<RunLoadRecord> auto& x) {
  DFBENCH_FIELDS(threads, clients, requests, ratio, data_size, pipeline, distinct_client_seed)
  DFBENCH_OPTIONAL_FIELDS(test_time_sec, key_maximum)
}

void Fields(auto& v, FieldsOf<core::ClientProfile> auto& x) {
  DFBENCH_FIELDS(threads, clients, pipeline)
}

void Fields(auto& v, FieldsOf<EngineResult> auto& x) {
  DFBENCH_FIELDS(engine, version)
  DFBENCH_OPTIONAL_FIELDS(origin, sha256)
  DFBENCH_FIELDS(trials, throughput, p50, p99, p999, avg_latency)
  DFBENCH_OPTIONAL_FIELDS(io_threads, num_shards, conn_use_incoming_cpu, pin_network)
  DFBENCH_OPTIONAL_FIELDS(error, tuning, approximate, client_profile)
  DFBENCH_FIELDS(server_ops, warmup_ops)
}

void Fields(auto& v, FieldsOf<HostFacts> auto& x) {
  DFBENCH_FIELDS(role, name, address, private_address, cpu_model, vcpus, memory_bytes, kernel, os,
                 arch, cpus)
  DFBENCH_OPTIONAL_FIELDS(nic, rx_queues)
}

void Fields(auto& v, FieldsOf<Context> auto& x) {
  DFBENCH_FIELDS(tool, tool_version, build_type, provider)
  v.Enum("load_generator", &x.load_generator, core::kLoadGeneratorNames);
  DFBENCH_FIELDS(hosts)
}

void Fields(auto& v, FieldsOf<RunResults> auto& x) {
  VisitRunFields(v, x);
  DFBENCH_FIELDS(aws_account, server_instance, client_instance, memtier, warmup_requests, trials,
                 engines, context)
}

}  // namespace dfbench::results
