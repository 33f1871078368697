#include "loadgen/latency_distribution.h"

#include <cmath>
#include <cstdio>

#include "core/hdr_histogram.h"
#include "loadgen/histogram.h"

namespace dfbench::loadgen {
namespace {

struct DistributionRow {
  double msec = 0;
  double percent = 0;
};

// The one row HdrHistogram_c's iterator gives an empty histogram, as memtier prints it.
const std::vector<DistributionRow> kNoLatencies = {{.msec = 0, .percent = 100}};

// One command's rows, from its section's histogram (nanoseconds).
std::vector<DistributionRow> RowsOf(const SectionStats& s) {
  if (!s.histogram || s.histogram->total_count() == 0) return kNoLatencies;
  std::vector<DistributionRow> rows;
  for (const core::PercentileRow& r :
       core::PercentileRows(*s.histogram, kPercentileTicksPerHalfDistance)) {
    rows.push_back({static_cast<double>(r.value) / 1e6, r.percentile});
  }
  return rows;
}

// The commands in memtier's order: each section's, then the idle WAIT of a SET/GET run that
// sent none.
std::vector<std::pair<std::string, std::vector<DistributionRow>>> Commands(const Report& report,
                                                                           const Config& config) {
  std::vector<std::pair<std::string, std::vector<DistributionRow>>> out;
  bool waits = false;
  for (const SectionStats& s : report.sections) {
    out.emplace_back(s.type, RowsOf(s));
    waits = waits || s.type == "WAIT";
  }
  if (config.commands.empty() && !waits) out.emplace_back("WAIT", kNoLatencies);
  return out;
}

// memtier writes the rows' figures with three decimals.
double Three(double v) {
  return std::round(v * 1000) / 1000;
}

}  // namespace

std::string LatencyDistributionText(const Report& report, const Config& config) {
  std::string out = "\n\nRequest Latency Distribution\n";
  char line[128];
  std::snprintf(line, sizeof(line), "%-6s %12s %12s\n", "Type", "<= msec   ", "Percent");
  out += line;
  out += std::string(72, '-') + "\n";
  for (const auto& [type, rows] : Commands(report, config)) {
    for (const DistributionRow& r : rows) {
      std::snprintf(line, sizeof(line), "%-6s %8.3f %12.3f\n", type.c_str(), r.msec, r.percent);
      out += line;
    }
    // memtier closes each command's rows but the WAIT's, the last.
    if (type != "WAIT" || !config.commands.empty()) out += "---\n";
  }
  return out;
}

void AddLatencyDistributionJson(const Report& report, const Config& config,
                                nlohmann::ordered_json* section) {
  for (const auto& [type, rows] : Commands(report, config)) {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const DistributionRow& r : rows) {
      array.push_back({{"<=msec", Three(r.msec)}, {"percent", Three(r.percent)}});
    }
    (*section)[type] = std::move(array);
  }
}

}  // namespace dfbench::loadgen
