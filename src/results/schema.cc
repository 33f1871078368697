#include "results/schema.h"

#include <algorithm>
#include <cmath>

#include "results/json_util.h"
#include "results/run_fields.h"

namespace dfbench::results {

Stats Summarize(const std::vector<double>& values) {
  Stats s;
  if (values.empty()) return s;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (n >= 2) {
    double mean = 0;
    for (double v : sorted) mean += v;
    mean /= static_cast<double>(n);
    double sum_sq = 0;
    for (double v : sorted) sum_sq += (v - mean) * (v - mean);
    s.stddev = std::sqrt(sum_sq / static_cast<double>(n - 1));
  }
  return s;
}

void EngineResult::Aggregate() {
  auto summarize = [this](double TrialResult::*field) {
    std::vector<double> values;
    values.reserve(trials.size());
    for (const auto& t : trials) values.push_back(t.*field);
    return Summarize(values);
  };
  throughput = summarize(&TrialResult::throughput);
  p50 = summarize(&TrialResult::p50);
  p99 = summarize(&TrialResult::p99);
  p999 = summarize(&TrialResult::p999);
  avg_latency = summarize(&TrialResult::avg_latency);
}

// ---- Writing ----

nlohmann::json ToJson(const Stats& s) {
  return {{"median", JsonNumber(s.median)},
          {"min", JsonNumber(s.min)},
          {"max", JsonNumber(s.max)},
          {"stddev", JsonNumber(s.stddev)}};
}

nlohmann::json ToJson(const TrialResult& t) {
  return {{"trial", t.trial},
          {"throughput", JsonNumber(t.throughput)},
          {"p50", JsonNumber(t.p50)},
          {"p99", JsonNumber(t.p99)},
          {"p999", JsonNumber(t.p999)},
          {"avg_latency", JsonNumber(t.avg_latency)},
          {"ops", t.ops},
          {"errors", t.errors},
          {"duration_sec", JsonNumber(t.duration_sec)},
          {"raw_file", t.raw_file}};
}

nlohmann::json ToJson(const MemtierConfig& m) {
  return {{"threads", m.threads},
          {"clients", m.clients},
          {"requests", m.requests},
          {"ratio", m.ratio},
          {"data_size", m.data_size},
          {"pipeline", m.pipeline},
          {"distinct_client_seed", m.distinct_client_seed}};
}

nlohmann::json ToJson(const EngineResult& e) {
  nlohmann::json trials = nlohmann::json::array();
  for (const auto& t : e.trials) trials.push_back(ToJson(t));
  nlohmann::json j = {{"engine", e.engine},          {"version", e.version},
                      {"trials", std::move(trials)}, {"throughput", ToJson(e.throughput)},
                      {"p50", ToJson(e.p50)},        {"p99", ToJson(e.p99)},
                      {"p999", ToJson(e.p999)},      {"avg_latency", ToJson(e.avg_latency)}};
  if (!e.origin.empty()) j["origin"] = e.origin;
  if (!e.sha256.empty()) j["sha256"] = e.sha256;
  if (!e.error.empty()) j["error"] = e.error;
  if (!e.tuning.is_null()) j["tuning"] = e.tuning;
  if (e.approximate) j["approximate"] = true;
  j["server_ops"] = e.server_ops;
  j["warmup_ops"] = e.warmup_ops;
  return j;
}

nlohmann::json ToJson(const HostFacts& h) {
  nlohmann::json j = {{"role", h.role},
                      {"name", h.name},
                      {"address", h.address},
                      {"private_address", h.private_address},
                      {"cpu_model", h.cpu_model},
                      {"vcpus", h.vcpus},
                      {"memory_bytes", h.memory_bytes},
                      {"kernel", h.kernel},
                      {"os", h.os},
                      {"arch", h.arch},
                      {"cpus", h.cpus}};
  if (!h.nic.empty()) j["nic"] = h.nic;
  if (h.rx_queues > 0) j["rx_queues"] = h.rx_queues;
  return j;
}

nlohmann::json ToJson(const Context& c) {
  nlohmann::json hosts = nlohmann::json::array();
  for (const auto& h : c.hosts) hosts.push_back(ToJson(h));
  return {
      {"tool", c.tool},         {"tool_version", c.tool_version},     {"build_type", c.build_type},
      {"provider", c.provider}, {"load_generator", c.load_generator}, {"hosts", std::move(hosts)}};
}

nlohmann::json ToJson(const RunResults& r) {
  nlohmann::json engines = nlohmann::json::array();
  for (const auto& e : r.engines) engines.push_back(ToJson(e));
  nlohmann::json j = RunFieldsToJson(r);
  j.update({{"aws_account", r.aws_account},
            {"server_instance", r.server_instance},
            {"client_instance", r.client_instance},
            {"memtier", ToJson(r.memtier)},
            {"warmup_requests", r.warmup_requests},
            {"trials", r.trials},
            {"engines", std::move(engines)},
            {"context", ToJson(r.context)}});
  return j;
}

KeyOrder SharedKeyOrder() {
  const std::vector<std::string> stats = {"median", "min", "max", "stddev"};
  return {
      {"trials",
       {"trial", "throughput", "p50", "p99", "p999", "avg_latency", "ops", "errors", "duration_sec",
        "raw_file"}},
      {"throughput", stats},
      {"p50", stats},
      {"p99", stats},
      {"p999", stats},
      {"avg_latency", stats},
      {"context", {"tool", "tool_version", "build_type", "provider", "load_generator", "hosts"}},
      {"hosts",
       {"role", "name", "address", "private_address", "cpu_model", "vcpus", "memory_bytes",
        "kernel", "os", "arch", "cpus"}},
  };
}

// ---- Reading ----
// Each reader takes the path of its object so errors name the full field path.

namespace {

bool Read(const nlohmann::json& j, const std::string& path, Stats* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("median", &out->median);
  r.Field("min", &out->min);
  r.Field("max", &out->max);
  r.Field("stddev", &out->stddev);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, TrialResult* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("trial", &out->trial);
  r.Field("throughput", &out->throughput);
  r.Field("p50", &out->p50);
  r.Field("p99", &out->p99);
  r.Field("p999", &out->p999);
  r.Field("avg_latency", &out->avg_latency);
  r.Field("ops", &out->ops);
  r.Field("errors", &out->errors);
  r.Field("duration_sec", &out->duration_sec);
  r.Field("raw_file", &out->raw_file);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, EngineResult* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("engine", &out->engine);
  r.Field("version", &out->version);
  r.Field("origin", &out->origin);
  r.Field("sha256", &out->sha256);
  r.Array("trials", &out->trials, Read);
  r.Object("throughput", &out->throughput, Read);
  r.Object("p50", &out->p50, Read);
  r.Object("p99", &out->p99, Read);
  r.Object("p999", &out->p999, Read);
  r.Object("avg_latency", &out->avg_latency, Read);
  r.Field("error", &out->error);
  r.Field("tuning", &out->tuning);
  r.Field("approximate", &out->approximate);
  r.Field("server_ops", &out->server_ops);
  r.Field("warmup_ops", &out->warmup_ops);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, MemtierConfig* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("threads", &out->threads);
  r.Field("clients", &out->clients);
  r.Field("requests", &out->requests);
  r.Field("ratio", &out->ratio);
  r.Field("data_size", &out->data_size);
  r.Field("pipeline", &out->pipeline);
  r.Field("distinct_client_seed", &out->distinct_client_seed);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, HostFacts* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("role", &out->role);
  r.Field("name", &out->name);
  r.Field("address", &out->address);
  r.Field("private_address", &out->private_address);
  r.Field("cpu_model", &out->cpu_model);
  r.Field("vcpus", &out->vcpus);
  r.Field("memory_bytes", &out->memory_bytes);
  r.Field("kernel", &out->kernel);
  r.Field("os", &out->os);
  r.Field("arch", &out->arch);
  r.Field("cpus", &out->cpus);
  r.Field("nic", &out->nic);
  r.Field("rx_queues", &out->rx_queues);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, Context* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("tool", &out->tool);
  r.Field("tool_version", &out->tool_version);
  r.Field("build_type", &out->build_type);
  r.Field("provider", &out->provider);
  r.Field("load_generator", &out->load_generator);
  r.Array("hosts", &out->hosts, Read);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, RunResults* out, std::string* error) {
  JsonReader r(j, path, error);
  ReadRunFields(r, out);
  r.Field("aws_account", &out->aws_account);
  r.Field("server_instance", &out->server_instance);
  r.Field("client_instance", &out->client_instance);
  r.Object("memtier", &out->memtier, Read);
  r.Field("warmup_requests", &out->warmup_requests);
  r.Field("trials", &out->trials);
  r.Array("engines", &out->engines, Read);
  r.Object("context", &out->context, Read);
  return r.ok();
}

// Reads into a fresh value so a failed read leaves `*out` untouched. A document root must be
// an object; a null element inside one reads as defaults.
template <class T>
bool ReadInto(const nlohmann::json& j, const std::string& path, T* out, std::string* error) {
  if (path.empty() && !j.is_object()) return JsonReader::Mismatch(path, "an object", error);
  T value;
  if (!Read(j, path, &value, error)) return false;
  *out = std::move(value);
  return true;
}

}  // namespace

bool FromJson(const nlohmann::json& j, Stats* out, std::string* error) {
  return ReadInto(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, TrialResult* out, std::string* error) {
  return ReadInto(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, EngineResult* out, std::string* error) {
  return ReadInto(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, MemtierConfig* out, std::string* error) {
  return ReadInto(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, HostFacts* out, std::string* error) {
  return ReadInto(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, Context* out, std::string* error) {
  return ReadInto(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, RunResults* out, std::string* error) {
  return ReadInto(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, const std::string& path, HostFacts* out,
              std::string* error) {
  return ReadInto(j, path, out, error);
}

}  // namespace dfbench::results
