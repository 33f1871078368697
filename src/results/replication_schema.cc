#include "results/replication_schema.h"

#include <algorithm>
#include <set>

#include "results/key_order.h"
#include "results/writers.h"

namespace dfbench::results {
namespace {

// Milliseconds, requests per thousand seconds, nanoseconds: finer than any sample means.
constexpr int kCsvDecimals = 3;

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
  // Several engines' cases share run names, so only then does Run_Name carry the engine.
  bool several_engines = false;
  for (const auto& c : r.cases) several_engines = several_engines || c.engine != r.cases[0].engine;
  std::string out = "Run_Name,Time_Seconds,RPS_Now,p99_Latency_us\n";
  for (const auto& c : r.cases) {
    const std::string name = several_engines ? CaseName(c) : c.run_name;
    for (const auto& s : c.series) {
      out += CsvRow({name, CsvNumber(s.t_sec, kCsvDecimals), CsvNumber(s.rps, kCsvDecimals),
                     CsvNumber(s.p99_us, kCsvDecimals)});
    }
  }
  return out;
}

}  // namespace dfbench::results
