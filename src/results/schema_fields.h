// The field lists of the structs every result file shares (see json_fields.h): each key of an
// engine's row, its trials and summaries, the load settings of `run` and the context block is
// named here once, for writing and reading alike.
#pragma once

#include "results/json_fields.h"
#include "results/replication_schema.h"
#include "results/run_fields.h"
#include "results/schema.h"

namespace dfbench::results {

void Fields(auto& v, FieldsOf<Stats> auto& x) {
  DFBENCH_FIELDS(median, min, max, stddev)
}

void Fields(auto& v, FieldsOf<TrialResult> auto& x) {
  DFBENCH_FIELDS(trial, throughput, p50, p99, p999, avg_latency, ops, errors, duration_sec,
                 raw_file)
}

void Fields(auto& v, FieldsOf<MemtierConfig> auto& x) {
  DFBENCH_FIELDS(threads, clients, requests, ratio, data_size, pipeline, distinct_client_seed)
}

void Fields(auto& v, FieldsOf<EngineResult> auto& x) {
  DFBENCH_FIELDS(engine, version)
  DFBENCH_OPTIONAL_FIELDS(origin, sha256)
  DFBENCH_FIELDS(trials, throughput, p50, p99, p999, avg_latency)
  DFBENCH_OPTIONAL_FIELDS(error, tuning, approximate)
  DFBENCH_FIELDS(server_ops, warmup_ops)
}

void Fields(auto& v, FieldsOf<HostFacts> auto& x) {
  DFBENCH_FIELDS(role, name, address, private_address, cpu_model, vcpus, memory_bytes, kernel, os,
                 arch, cpus)
  DFBENCH_OPTIONAL_FIELDS(nic, rx_queues)
}

void Fields(auto& v, FieldsOf<Context> auto& x) {
  DFBENCH_FIELDS(tool, tool_version, build_type, provider, load_generator, hosts)
}

void Fields(auto& v, FieldsOf<RunResults> auto& x) {
  VisitRunFields(v, x);
  DFBENCH_FIELDS(aws_account, server_instance, client_instance, memtier, warmup_requests, trials,
                 engines, context)
}

void Fields(auto& v, FieldsOf<RepSample> auto& x) {
  DFBENCH_FIELDS(t_sec, rps, p99_us)
}

}  // namespace dfbench::results
