// Sweep files compared per engine: the highest rate within the objectives, and the latency of
// each objective's percentile at the rates the baseline kept them, read off both curves.
#include <algorithm>
#include <map>

#include "core/format.h"
#include "report/compare.h"

namespace dfbench::report {
namespace {

// The open-loop curve of one percentile: latency by target rate (the first step at a rate).
std::map<double, double> Curve(const results::SweepEngine& e, double percentile) {
  std::map<double, double> curve;
  for (const auto& s : e.steps) {
    if (s.phase == results::StepPhase::kCapacity) continue;
    if (auto ms = s.measured.LatencyAt(percentile)) curve.emplace(s.target_rate, *ms);
  }
  return curve;
}

}  // namespace

std::optional<double> LatencyAtRate(const results::SweepEngine& e, double percentile, double rate) {
  const auto curve = Curve(e, percentile);
  auto hi = curve.lower_bound(rate);
  if (hi == curve.end()) return std::nullopt;
  if (hi->first == rate) return hi->second;
  if (hi == curve.begin()) return std::nullopt;
  auto lo = std::prev(hi);
  const double f = (rate - lo->first) / (hi->first - lo->first);
  return lo->second + f * (hi->second - lo->second);
}

std::string LatencyAtRateMetric(double percentile, double rate) {
  return core::Format("p{}@{}", percentile, rate);
}

GroupComparison CompareSweepEngines(const results::SweepEngine& b, const results::SweepEngine& c,
                                    const std::vector<results::Objective>& objectives,
                                    const CompareOptions& options) {
  GroupComparison g;
  g.engine = b.engine;
  g.baseline_version = b.version;
  g.candidate_version = c.version;
  auto found = [](const results::SweepEngine& e) {
    if (!e.found_rate) return Measurement{};
    return Measurement{.value = *e.found_rate,
                       .min = e.confirmation.min_rate,
                       .max = e.confirmation.max_rate,
                       .present = true};
  };
  g.metrics.push_back(
      CompareMetric(kMaxRateInSlo, Direction::kHigherIsBetter, found(b), found(c), options));
  // The baseline's passing ladder rungs: rates where its objectives held. A rung outside the
  // candidate's curve is not compared: each sweep's ladder follows its own measured capacity, so
  // two sweeps of the same engine rarely cover the same range, and a candidate that gave up
  // below a rung shows in the found rate above.
  for (const auto& o : objectives) {
    for (const auto& s : b.steps) {
      if (s.phase != results::StepPhase::kLadder || !s.verdict.passed) continue;
      const auto base = s.measured.LatencyAt(o.percentile);
      const auto cand = LatencyAtRate(c, o.percentile, s.target_rate);
      if (!base || !cand) continue;
      g.metrics.push_back(CompareMetric(LatencyAtRateMetric(o.percentile, s.target_rate),
                                        Direction::kLowerIsBetter, FromValue(*base),
                                        FromValue(*cand), options));
    }
  }
  for (const auto& m : g.metrics) {
    if (m.regressed) g.regressions.push_back(m.metric);
  }
  return g;
}

}  // namespace dfbench::report
