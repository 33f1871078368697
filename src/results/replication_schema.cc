#include "results/replication_schema.h"

#include "results/json_util.h"
#include "results/run_fields.h"
#include "results/writers.h"

namespace dfbench::results {
namespace {

Stats SeriesStats(const ReplicationCase& c, double RepSample::*field) {
  std::vector<double> values;
  values.reserve(c.series.size());
  for (const auto& s : c.series) values.push_back(s.*field);
  return Summarize(values);
}

bool Read(const nlohmann::json& j, const std::string& path, RepSample* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("t_sec", &out->t_sec);
  r.Field("rps", &out->rps);
  r.Field("p99_us", &out->p99_us);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, ReplicationCase* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("run_name", &out->run_name);
  r.Field("preload_args", &out->preload_args);
  r.Field("load_args", &out->load_args);
  r.Field("master_flags", &out->master_flags);
  r.Field("replica_flags", &out->replica_flags);
  r.Array("series", &out->series, Read);
  r.Field("sync_duration_ms", &out->sync_duration_ms);
  r.Field("termination_reason", &out->termination_reason);
  r.Field("engine", &out->engine);
  r.Field("error", &out->error);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, ReplicationRunResults* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("scenario", &out->scenario);
  if (r.ok() && out->scenario != "replication") {
    *error = "scenario: expected \"replication\", got \"" + out->scenario + "\"";
    return false;
  }
  ReadRunFields(r, out);
  r.Field("master_instance", &out->master_instance);
  r.Field("replica_instance", &out->replica_instance);
  r.Field("client_instance", &out->client_instance);
  r.Field("dfly_bench_ref", &out->dfly_bench_ref);
  r.Array("cases", &out->cases, Read);
  r.Object("context", &out->context, FromJsonAt<Context>);
  return r.ok();
}

template <class T>
bool ReadInto(const nlohmann::json& j, T* out, std::string* error) {
  if (!j.is_object()) return JsonReader::Mismatch("", "an object", error);
  T value;
  if (!Read(j, "", &value, error)) return false;
  *out = std::move(value);
  return true;
}

const KeyOrder& ReplicationKeyOrder() {
  static const KeyOrder order = [] {
    KeyOrder order = SharedKeyOrder();
    order.insert({
        {"",
         {"scenario", "run_id", "setup_id", "created_at", "completed_at", "status", "region",
          "master_instance", "replica_instance", "client_instance", "dfly_bench_ref", "cases",
          "context"}},
        {"cases",
         {"run_name", "preload_args", "load_args", "master_flags", "replica_flags", "series",
          "sync_duration_ms", "termination_reason", "engine", "error"}},
        {"series", {"t_sec", "rps", "p99_us"}},
    });
    return order;
  }();
  return order;
}

}  // namespace

std::string CaseName(const ReplicationCase& c) {
  return c.engine.empty() ? c.run_name : c.engine + " " + c.run_name;
}

double SyncEndSec(const ReplicationCase& c) {
  return c.engine.empty() ? 0 : c.sync_duration_ms / 1000;
}

Stats RpsStats(const ReplicationCase& c) {
  return SeriesStats(c, &RepSample::rps);
}

Stats P99UsStats(const ReplicationCase& c) {
  return SeriesStats(c, &RepSample::p99_us);
}

nlohmann::json ToJson(const RepSample& s) {
  return {
      {"t_sec", JsonNumber(s.t_sec)}, {"rps", JsonNumber(s.rps)}, {"p99_us", JsonNumber(s.p99_us)}};
}

nlohmann::json ToJson(const ReplicationCase& c) {
  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : c.series) series.push_back(ToJson(s));
  nlohmann::json j = {{"run_name", c.run_name},
                      {"preload_args", c.preload_args},
                      {"load_args", c.load_args},
                      {"master_flags", c.master_flags},
                      {"replica_flags", c.replica_flags},
                      {"series", std::move(series)},
                      {"sync_duration_ms", JsonNumber(c.sync_duration_ms)},
                      {"termination_reason", c.termination_reason}};
  if (!c.engine.empty()) j["engine"] = c.engine;
  if (!c.error.empty()) j["error"] = c.error;
  return j;
}

nlohmann::json ToJson(const ReplicationRunResults& r) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : r.cases) cases.push_back(ToJson(c));
  nlohmann::json j = RunFieldsToJson(r);
  j.update({{"scenario", "replication"},
            {"master_instance", r.master_instance},
            {"replica_instance", r.replica_instance},
            {"client_instance", r.client_instance},
            {"dfly_bench_ref", r.dfly_bench_ref},
            {"cases", std::move(cases)},
            {"context", ToJson(r.context)}});
  return j;
}

bool FromJson(const nlohmann::json& j, RepSample* out, std::string* error) {
  return ReadInto(j, out, error);
}
bool FromJson(const nlohmann::json& j, ReplicationCase* out, std::string* error) {
  return ReadInto(j, out, error);
}
bool FromJson(const nlohmann::json& j, ReplicationRunResults* out, std::string* error) {
  return ReadInto(j, out, error);
}

std::string RenderReplicationJson(const ReplicationRunResults& r) {
  return DumpPretty(Ordered(ToJson(r), ReplicationKeyOrder()));
}

std::string RenderReplicationCsv(const ReplicationRunResults& r) {
  std::string out = "Run_Name,Time_Seconds,RPS_Now,p99_Latency_us\n";
  for (const auto& c : r.cases) {
    for (const auto& s : c.series) {
      out += CsvRow({CaseName(c), CsvNumber(s.t_sec), CsvNumber(s.rps), CsvNumber(s.p99_us)});
    }
  }
  return out;
}

}  // namespace dfbench::results
