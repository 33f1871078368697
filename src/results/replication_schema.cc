#include "results/replication_schema.h"

#include <algorithm>
#include <set>

#include "results/key_order.h"
#include "results/writers.h"

namespace dfbench::results {
namespace {

Stats SeriesStats(const ReplicationCase& c, double RepSample::*field) {
  std::vector<double> values;
  values.reserve(c.series.size());
  for (const auto& s : c.series) values.push_back(s.*field);
  return Summarize(values);
}

}  // namespace

std::string CaseName(const ReplicationCase& c) {
  return c.engine.empty() ? c.run_name : c.engine + " " + c.run_name;
}

bool NamesNoEngine(const ReplicationRunResults& r) {
  return std::all_of(r.cases.begin(), r.cases.end(),
                     [](const ReplicationCase& c) { return c.engine.empty(); });
}

bool RunNamesUnique(const ReplicationRunResults& r) {
  std::set<std::string> names;
  for (const auto& c : r.cases) {
    if (!names.insert(c.run_name).second) return false;
  }
  return true;
}

double SustainedStartSec(const ReplicationCase& c) {
  return c.sync_series.empty() ? 0 : c.sync_series.back().t_sec;
}

std::vector<RepSample> Timeline(const ReplicationCase& c) {
  std::vector<RepSample> all = c.sync_series;
  const double offset = SustainedStartSec(c);
  for (RepSample s : c.series) {
    s.t_sec += offset;
    all.push_back(s);
  }
  return all;
}

Stats RpsStats(const ReplicationCase& c) {
  return SeriesStats(c, &RepSample::rps);
}

Stats P99UsStats(const ReplicationCase& c) {
  return SeriesStats(c, &RepSample::p99_us);
}

std::string RenderReplicationJson(const ReplicationRunResults& r) {
  return RenderDocument(r);
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
