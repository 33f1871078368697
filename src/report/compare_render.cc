// The table and JSON renderings of a Comparison.
#include <cmath>

#include "core/format.h"
#include "core/table.h"
#include "report/compare.h"
#include "results/json_util.h"
#include "results/number_format.h"

namespace dfbench::report {

using results::Fixed;
using results::ShortCount;
using results::SignedPercent;
using results::WithSeparators;
namespace {

enum class Kind { kCount, kMillis, kWhole };

Kind KindOf(const std::string& metric) {
  if (metric == "throughput" || metric == "median_rps" || metric == kMaxRateInSlo) {
    return Kind::kCount;
  }
  if (metric == "median_p99_us" || metric == "sync_duration_ms" || metric == "idle_bytes" ||
      metric == "peak_bytes" || metric == "snapshot_duration_ms") {
    return Kind::kWhole;
  }
  return Kind::kMillis;
}

std::string FormatRangeValue(const std::string& metric, double v) {
  switch (KindOf(metric)) {
    case Kind::kCount:
      return ShortCount(v);
    case Kind::kMillis:
      return Fixed(v, 3);
    case Kind::kWhole:
      return WithSeparators(v);
  }
  return "";
}

std::string FormatRange(const std::string& metric, const Measurement& m) {
  if (!m.present || m.min == m.max) return "";  // a single value has no spread to show
  return core::Format("[{}..{}]", FormatRangeValue(metric, m.min), FormatRangeValue(metric, m.max));
}

std::string Value(const std::string& metric, const Measurement& m) {
  return m.present ? FormatMetricValue(metric, m.value) : "-";
}

const char* DirectionName(Direction d) {
  return d == Direction::kHigherIsBetter ? "higher_is_better" : "lower_is_better";
}

// Delta percentages rounded for the payload, so -10 is not -10.000000000000002.
nlohmann::ordered_json RoundedPct(const std::optional<double>& pct) {
  if (!pct) return nullptr;
  const double r = std::round(*pct * 1000) / 1000;
  return results::JsonNumber(r == 0 ? 0 : r);
}

nlohmann::ordered_json NumberOrNull(const Measurement& m, double v) {
  return m.present ? nlohmann::ordered_json(results::JsonNumber(v))
                   : nlohmann::ordered_json(nullptr);
}

// The values naming group `g`, for the keys of its shape (ShapeGroups::keys).
std::vector<std::string> GroupKeyValues(Shape shape, const GroupComparison& g) {
  std::vector<std::string> values;
  for (const std::string key : SpecOf(shape).groups.keys) {
    values.push_back(key == "command" ? g.command : key == "run_name" ? g.run_name : g.engine);
  }
  return values;
}

void AddGroupKeys(Shape shape, const GroupComparison& g, nlohmann::ordered_json* j) {
  const std::vector<std::string> values = GroupKeyValues(shape, g);
  for (size_t i = 0; i < values.size(); ++i) (*j)[SpecOf(shape).groups.keys[i]] = values[i];
}

nlohmann::ordered_json MetricJson(const MetricDelta& m) {
  nlohmann::ordered_json j;
  j["metric"] = m.metric;
  j["direction"] = DirectionName(m.direction);
  j["baseline"] = NumberOrNull(m.baseline, m.baseline.value);
  j["baseline_min"] = NumberOrNull(m.baseline, m.baseline.min);
  j["baseline_max"] = NumberOrNull(m.baseline, m.baseline.max);
  j["candidate"] = NumberOrNull(m.candidate, m.candidate.value);
  j["candidate_min"] = NumberOrNull(m.candidate, m.candidate.min);
  j["candidate_max"] = NumberOrNull(m.candidate, m.candidate.max);
  j["delta_pct"] = RoundedPct(m.delta_pct);
  j["spreads_overlap"] = m.spreads_overlap;
  j["verdict"] = VerdictName(m.verdict);
  j["regressed"] = m.regressed;
  return j;
}

std::string SourceLine(const char* role, const std::string& source, const std::string& run_id) {
  return core::Format("{} {}{}\n", role, source, run_id.empty() ? "" : " (run " + run_id + ")");
}

// A verdict's name in the JSON payload and its label in the table.
struct VerdictText {
  Verdict verdict;
  const char* name;
  const char* label;
};

constexpr VerdictText kVerdictTexts[] = {
    {Verdict::kOk, "ok", "ok"},
    {Verdict::kImproved, "improved", "improved"},
    {Verdict::kRegression, "regression", "REGRESSION"},
    {Verdict::kWithinNoise, "within_noise", "within noise"},
    {Verdict::kMissing, "missing", "MISSING in candidate"},
    {Verdict::kNotComparable, "not_comparable", "n/a"},
};

const VerdictText* TextOf(Verdict v) {
  for (const auto& t : kVerdictTexts) {
    if (t.verdict == v) return &t;
  }
  return nullptr;
}

}  // namespace

const char* VerdictName(Verdict v) {
  const VerdictText* t = TextOf(v);
  return t ? t->name : "?";
}

std::string VerdictLabel(const MetricDelta& d) {
  if (d.verdict == Verdict::kRegression && d.spreads_overlap) return "REGRESSION (within noise)";
  const VerdictText* t = TextOf(d.verdict);
  return t ? t->label : "?";
}

std::string MetricLabel(const std::string& metric) {
  if (metric == "throughput") return "throughput (ops/s)";
  if (metric == "p50") return "p50 (ms)";
  if (metric == "p99") return "p99 (ms)";
  if (metric == "p999") return "p99.9 (ms)";
  if (metric == "avg_latency") return "avg latency (ms)";
  if (metric == kMaxRateInSlo) return "max rate in SLO (ops/s)";
  if (const auto at = metric.find('@'); at != std::string::npos && metric[0] == 'p') {
    return core::Format("{} at {} ops/s (ms)", metric.substr(0, at),
                        WithSeparators(std::stod(metric.substr(at + 1))));
  }
  if (metric == "idle_bytes") return "idle memory (bytes)";
  if (metric == "peak_bytes") return "peak memory (bytes)";
  if (metric == "snapshot_duration_ms") return "snapshot (ms)";
  return metric;
}

std::string FormatMetricValue(const std::string& metric, double v) {
  return KindOf(metric) == Kind::kMillis ? Fixed(v, 3) : WithSeparators(v);
}

std::string FormatDelta(const MetricDelta& d) {
  if (d.verdict == Verdict::kMissing) return "missing";
  return d.delta_pct ? SignedPercent(*d.delta_pct) : "n/a";
}

std::string RenderComparisonTable(const Comparison& c) {
  const auto& columns = SpecOf(c.shape).groups.columns;
  std::vector<std::string> header(columns.begin(), columns.end());
  const size_t keys = header.size();
  for (const char* h : {"METRIC", "BASELINE", "SPREAD", "CANDIDATE", "SPREAD", "DELTA", "VERDICT"})
    header.emplace_back(h);
  std::vector<core::Table::Align> align(keys + 1, core::Table::Align::kLeft);
  for (auto a : {core::Table::Align::kRight, core::Table::Align::kLeft, core::Table::Align::kRight,
                 core::Table::Align::kLeft, core::Table::Align::kRight, core::Table::Align::kLeft})
    align.push_back(a);
  core::Table table(header, align);
  size_t compared = 0;
  for (const auto& g : c.groups) {
    for (const auto& m : g.metrics) {
      std::vector<std::string> row = GroupKeyValues(c.shape, g);
      row.push_back(MetricLabel(m.metric));
      row.push_back(Value(m.metric, m.baseline));
      row.push_back(FormatRange(m.metric, m.baseline));
      row.push_back(Value(m.metric, m.candidate));
      row.push_back(FormatRange(m.metric, m.candidate));
      row.push_back(FormatDelta(m));
      row.push_back(VerdictLabel(m));
      table.AddRow(std::move(row));
      compared += m.verdict != Verdict::kNotComparable;
    }
  }
  std::string out = core::Format(
      "compare {} results · regression threshold {}%{}\n", ShapeName(c.shape),
      c.options.regression_pct,
      c.options.significance == Significance::kOutsideNoise ? " outside the noise" : "");
  out += SourceLine("baseline: ", c.baseline_source, c.baseline_run_id);
  out += SourceLine("candidate:", c.candidate_source, c.candidate_run_id);
  out += table.Render();
  if (!c.only_in_baseline.empty() || !c.only_in_candidate.empty() || !c.notes.empty()) {
    out += "\n";
  }
  auto list = [](const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
    return s;
  };
  if (!c.only_in_baseline.empty()) out += "only in baseline: " + list(c.only_in_baseline) + "\n";
  if (!c.only_in_candidate.empty()) {
    out += "only in candidate: " + list(c.only_in_candidate) + "\n";
  }
  for (const auto& n : c.notes) out += "note: " + n + "\n";
  const auto regressions = c.RegressionList();
  if (regressions.empty()) {
    out += core::Format("\nok: no metric regressed beyond {}% ({} compared)\n",
                        c.options.regression_pct, compared);
  } else {
    out += core::Format("\nREGRESSION: {} metric{} beyond {}%: {}\n", regressions.size(),
                        regressions.size() == 1 ? "" : "s", c.options.regression_pct,
                        list(regressions));
  }
  return out;
}

std::string RenderComparisonJson(const Comparison& c) {
  nlohmann::ordered_json j;
  j["shape"] = ShapeName(c.shape);
  j["baseline"] = c.baseline_source;
  j["candidate"] = c.candidate_source;
  j["baseline_run_id"] = c.baseline_run_id;
  j["candidate_run_id"] = c.candidate_run_id;
  j["regression_pct"] = results::JsonNumber(c.options.regression_pct);
  j["require_significance"] = c.options.significance == Significance::kOutsideNoise;
  j["regressed"] = c.Regressed();
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  nlohmann::ordered_json regressions = nlohmann::ordered_json::array();
  for (const auto& g : c.groups) {
    nlohmann::ordered_json group;
    AddGroupKeys(c.shape, g, &group);
    if (c.shape != Shape::kReplication) {
      group["baseline_version"] = g.baseline_version;
      group["candidate_version"] = g.candidate_version;
    }
    nlohmann::ordered_json metrics = nlohmann::ordered_json::array();
    for (const auto& m : g.metrics) {
      const nlohmann::ordered_json metric = MetricJson(m);
      nlohmann::ordered_json row;
      AddGroupKeys(c.shape, g, &row);
      for (auto it = metric.begin(); it != metric.end(); ++it) row[it.key()] = it.value();
      rows.push_back(std::move(row));
      metrics.push_back(metric);
      if (m.regressed) {
        nlohmann::ordered_json r;
        AddGroupKeys(c.shape, g, &r);
        r["metric"] = m.metric;
        r["delta_pct"] = RoundedPct(m.delta_pct);
        r["verdict"] = VerdictName(m.verdict);
        regressions.push_back(r);
      }
    }
    group["metrics"] = std::move(metrics);
    group["regressions"] = g.regressions;
    groups.push_back(std::move(group));
  }
  j["rows"] = std::move(rows);
  j[SpecOf(c.shape).groups.array] = std::move(groups);
  j["regressions"] = std::move(regressions);
  j["only_in_baseline"] = c.only_in_baseline;
  j["only_in_candidate"] = c.only_in_candidate;
  j["notes"] = c.notes;
  return results::DumpPretty(j);
}

}  // namespace dfbench::report
