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
  v.Field("median", &x.median);
  v.Field("min", &x.min);
  v.Field("max", &x.max);
  v.Field("stddev", &x.stddev);
}

void Fields(auto& v, FieldsOf<TrialResult> auto& x) {
  v.Field("trial", &x.trial);
  v.Field("throughput", &x.throughput);
  v.Field("p50", &x.p50);
  v.Field("p99", &x.p99);
  v.Field("p999", &x.p999);
  v.Field("avg_latency", &x.avg_latency);
  v.Field("ops", &x.ops);
  v.Field("errors", &x.errors);
  v.Field("duration_sec", &x.duration_sec);
  v.Field("raw_file", &x.raw_file);
}

void Fields(auto& v, FieldsOf<MemtierConfig> auto& x) {
  v.Field("threads", &x.threads);
  v.Field("clients", &x.clients);
  v.Field("requests", &x.requests);
  v.Field("ratio", &x.ratio);
  v.Field("data_size", &x.data_size);
  v.Field("pipeline", &x.pipeline);
  v.Field("distinct_client_seed", &x.distinct_client_seed);
}

void Fields(auto& v, FieldsOf<EngineResult> auto& x) {
  v.Field("engine", &x.engine);
  v.Field("version", &x.version);
  v.Optional("origin", &x.origin);
  v.Optional("sha256", &x.sha256);
  v.Field("trials", &x.trials);
  v.Field("throughput", &x.throughput);
  v.Field("p50", &x.p50);
  v.Field("p99", &x.p99);
  v.Field("p999", &x.p999);
  v.Field("avg_latency", &x.avg_latency);
  v.Optional("error", &x.error);
  v.Optional("tuning", &x.tuning);
  v.Optional("approximate", &x.approximate);
  v.Field("server_ops", &x.server_ops);
  v.Field("warmup_ops", &x.warmup_ops);
}

void Fields(auto& v, FieldsOf<HostFacts> auto& x) {
  v.Field("role", &x.role);
  v.Field("name", &x.name);
  v.Field("address", &x.address);
  v.Field("private_address", &x.private_address);
  v.Field("cpu_model", &x.cpu_model);
  v.Field("vcpus", &x.vcpus);
  v.Field("memory_bytes", &x.memory_bytes);
  v.Field("kernel", &x.kernel);
  v.Field("os", &x.os);
  v.Field("arch", &x.arch);
  v.Field("cpus", &x.cpus);
  v.Optional("nic", &x.nic);
  v.Optional("rx_queues", &x.rx_queues);
}

void Fields(auto& v, FieldsOf<Context> auto& x) {
  v.Field("tool", &x.tool);
  v.Field("tool_version", &x.tool_version);
  v.Field("build_type", &x.build_type);
  v.Field("provider", &x.provider);
  v.Field("load_generator", &x.load_generator);
  v.Field("hosts", &x.hosts);
}

void Fields(auto& v, FieldsOf<RunResults> auto& x) {
  VisitRunFields(v, x);
  v.Field("aws_account", &x.aws_account);
  v.Field("server_instance", &x.server_instance);
  v.Field("client_instance", &x.client_instance);
  v.Field("memtier", &x.memtier);
  v.Field("warmup_requests", &x.warmup_requests);
  v.Field("trials", &x.trials);
  v.Field("engines", &x.engines);
  v.Field("context", &x.context);
}

void Fields(auto& v, FieldsOf<RepSample> auto& x) {
  v.Field("t_sec", &x.t_sec);
  v.Field("rps", &x.rps);
  v.Field("p99_us", &x.p99_us);
}

}  // namespace dfbench::results
