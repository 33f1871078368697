#include "results/replication_schema.h"

#include "results/json_util.h"
#include "results/run_fields.h"
#include "results/schema_fields.h"
#include "results/writers.h"

namespace dfbench::results {
void Fields(auto& v, FieldsOf<ReplicationCase> auto& x) {
  DFBENCH_FIELDS(run_name, preload_args, load_args, master_flags, replica_flags, series,
                 sync_duration_ms, termination_reason)
  DFBENCH_OPTIONAL_FIELDS(engine, error)
}

void Fields(auto& v, FieldsOf<ReplicationRunResults> auto& x) {
  DFBENCH_FIELDS(scenario)
  VisitRunFields(v, x);
  DFBENCH_FIELDS(master_instance, replica_instance, client_instance, dfly_bench_ref, cases, context)
}

namespace {

Stats SeriesStats(const ReplicationCase& c, double RepSample::*field) {
  std::vector<double> values;
  values.reserve(c.series.size());
  for (const auto& s : c.series) values.push_back(s.*field);
  return Summarize(values);
}

const KeyOrder& ReplicationKeyOrder() {
  static const KeyOrder order = [] {
    KeyOrder order = SharedKeyOrder();
    order.insert({
        {"", FieldKeys::Of<ReplicationRunResults>()},
        {"cases", FieldKeys::Of<ReplicationCase>()},
        {"series", FieldKeys::Of<RepSample>()},
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
  return FieldsToJson(s);
}
nlohmann::json ToJson(const ReplicationCase& c) {
  return FieldsToJson(c);
}
nlohmann::json ToJson(const ReplicationRunResults& r) {
  return FieldsToJson(r);
}

bool FromJson(const nlohmann::json& j, RepSample* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, ReplicationCase* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, ReplicationRunResults* out, std::string* error) {
  return ReadScenarioDocument(j, "replication", out, error);
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
