#include "results/schema.h"

#include <algorithm>
#include <cmath>

#include "results/json_util.h"
#include "results/run_fields.h"
#include "results/schema_fields.h"

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

nlohmann::json ToJson(const Stats& s) {
  return FieldsToJson(s);
}
nlohmann::json ToJson(const TrialResult& t) {
  return FieldsToJson(t);
}
nlohmann::json ToJson(const MemtierConfig& m) {
  return FieldsToJson(m);
}
nlohmann::json ToJson(const EngineResult& e) {
  return FieldsToJson(e);
}
nlohmann::json ToJson(const HostFacts& h) {
  return FieldsToJson(h);
}
nlohmann::json ToJson(const Context& c) {
  return FieldsToJson(c);
}
nlohmann::json ToJson(const RunResults& r) {
  return FieldsToJson(r);
}

KeyOrder SharedKeyOrder() {
  const std::vector<std::string> stats = FieldKeys::Of<Stats>();
  return {
      {"trials", FieldKeys::Of<TrialResult>()},
      {"throughput", stats},
      {"p50", stats},
      {"p99", stats},
      {"p999", stats},
      {"avg_latency", stats},
      {"context", FieldKeys::Of<Context>()},
      {"hosts", FieldKeys::Of<HostFacts>()},
  };
}

bool FromJson(const nlohmann::json& j, Stats* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, TrialResult* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, EngineResult* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, MemtierConfig* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, HostFacts* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, Context* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}
bool FromJson(const nlohmann::json& j, RunResults* out, std::string* error) {
  return FieldsFromJson(j, "", out, error);
}

}  // namespace dfbench::results
