#include "scenarios/sweep/sweep_search.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/format.h"
#include "core/units.h"

namespace dfbench::scenarios {
namespace {

core::Error BadObjective(std::string_view text) {
  return core::Error{core::ErrorKind::kUsage,
                     core::Format("\"{}\": expected pPERCENTILE<=LATENCY, e.g. p99<=1ms or "
                                  "p99.9<=500us",
                                  text)};
}

std::string Ms(double ms) {
  return core::Format("{:.3f} ms", ms);
}

// Walks the search: records each step and stops when the step function gives up.
class Walk {
 public:
  Walk(const std::vector<results::Objective>& objectives, const SearchSettings& settings,
       const StepFunction& step, const StepObserver& observe, SearchResult* out)
      : objectives_(objectives), settings_(settings), step_(step), observe_(observe), out_(out) {}

  // Runs a step; nullopt when the search must stop, else whether it passed.
  std::optional<bool> Run(results::StepPhase phase, double target) {
    auto m = step_(phase, target);
    if (!m) {
      out_->stopped = true;
      return std::nullopt;
    }
    results::SweepStep s{.index = static_cast<int>(out_->steps.size()) + 1,
                         .phase = phase,
                         .target_rate = target,
                         .measured = std::move(*m)};
    s.verdict = JudgeStep(target, s.measured, objectives_, settings_.rate_tolerance,
                          settings_.max_error_pct);
    out_->steps.push_back(s);
    if (observe_) observe_(out_->steps.back());
    return s.verdict.passed;
  }

  // Runs a step, and again at the same rate while it fails and rechecks are left: the rate
  // fails only when every run did. Every run is recorded.
  std::optional<bool> Probe(results::StepPhase phase, double target) {
    auto ok = Run(phase, target);
    for (int i = 0; i < settings_.recheck && ok && !*ok; ++i) ok = Run(phase, target);
    return ok;
  }

 private:
  const std::vector<results::Objective>& objectives_;
  const SearchSettings& settings_;
  const StepFunction& step_;
  const StepObserver& observe_;
  SearchResult* out_;
};

double Rounded(double rate) {
  return std::max(1.0, std::round(rate));
}

}  // namespace

core::Result<results::Objective> ParseObjective(std::string_view text) {
  const size_t op = text.find("<=");
  if (text.size() < 2 || text[0] != 'p' || op == std::string_view::npos) {
    return tl::unexpected(BadObjective(text));
  }
  const std::string_view pct_text = text.substr(1, op - 1);
  double pct = 0;
  const auto [end, ec] = std::from_chars(pct_text.data(), pct_text.data() + pct_text.size(), pct);
  if (ec != std::errc() || end != pct_text.data() + pct_text.size() || !(pct > 0) || pct > 100) {
    return tl::unexpected(BadObjective(text));
  }
  auto limit = core::ParseDuration(text.substr(op + 2));
  if (!limit || limit->count() <= 0) return tl::unexpected(BadObjective(text));
  return results::Objective{.percentile = pct,
                            .limit_ms = static_cast<double>(limit->count()) / 1000.0,
                            .text = std::string(text)};
}

namespace {

// The verdict on the rate, the errors and the objectives, the generator's lateness aside.
results::StepVerdict JudgeObjectives(double target_rate, const results::StepMeasurement& m,
                                     const std::vector<results::Objective>& objectives,
                                     double rate_tolerance, double max_error_pct) {
  results::StepVerdict v;
  if (m.errors > 0 || !m.ended_early.empty()) {
    v.reason = results::TrialFailure(
        {.ops = m.ops, .errors = m.errors, .ended_early = m.ended_early}, max_error_pct);
    if (!v.reason.empty()) return v;
  }
  const double shortfall = (target_rate - m.achieved_rate) / target_rate;
  if (std::abs(shortfall) > rate_tolerance) {
    v.client_limited = shortfall > 0 && m.client_cpu >= kClientSaturated;
    v.reason = core::Format("achieved {:.0f} ops/s, {:.1f}% {} the target", m.achieved_rate,
                            std::abs(shortfall) * 100, shortfall > 0 ? "below" : "above");
    if (v.client_limited) {
      v.reason += core::Format(": the load generator could not keep up (client CPU {:.0f}%)",
                               m.client_cpu * 100);
    }
    return v;
  }
  for (const auto& o : objectives) {
    const auto at = m.LatencyAt(o.percentile);
    if (!at) {
      v.reason = core::Format("{}: not measured", o.text);
      return v;
    }
    if (*at > o.limit_ms) {
      v.reason = core::Format("{}: {}", o.text, Ms(*at));
      return v;
    }
  }
  v.passed = true;
  return v;
}

// The first objective whose percentile the generator sent too late for (results::
// kClientLateShare of its limit), as "send lag p99 0.84 ms (p99<=5ms)"; "" when none.
std::string ClientLateness(const results::StepMeasurement& m,
                           const std::vector<results::Objective>& objectives) {
  for (const auto& o : objectives) {
    const auto lag = m.SendLagAt(o.percentile);
    if (lag && *lag > results::kClientLateShare * o.limit_ms) {
      return core::Format("send lag p{} {} ({})", o.percentile, Ms(*lag), o.text);
    }
  }
  return "";
}

}  // namespace

results::StepVerdict JudgeStep(double target_rate, const results::StepMeasurement& m,
                               const std::vector<results::Objective>& objectives,
                               double rate_tolerance, double max_error_pct) {
  results::StepVerdict v =
      JudgeObjectives(target_rate, m, objectives, rate_tolerance, max_error_pct);
  const std::string late = ClientLateness(m, objectives);
  v.client_late = !late.empty();
  if (v.client_late && !v.passed) {
    v.reason += "; the load generator sent late, " + late + ": part of this is the client's";
  }
  return v;
}

SearchResult SearchMaxRate(double capacity, const std::vector<results::Objective>& objectives,
                           const SearchSettings& settings, const StepFunction& step,
                           const StepObserver& observe) {
  SearchResult out;
  Walk walk(objectives, settings, step, observe, &out);
  std::optional<double> pass, fail;
  for (double f : settings.fractions) {
    const double target = Rounded(capacity * f);
    if (pass && target <= *pass) continue;
    auto ok = walk.Probe(results::StepPhase::kLadder, target);
    if (!ok) return out;
    if (!*ok) {
      fail = target;
      break;
    }
    pass = target;
  }
  out.first_failing_rate = fail;
  if (!pass) return out;
  while (fail && *fail - *pass > settings.bracket * *pass) {
    const double mid = Rounded((*pass + *fail) / 2);
    if (mid <= *pass || mid >= *fail) break;
    auto ok = walk.Probe(results::StepPhase::kBisect, mid);
    if (!ok) break;
    (*ok ? pass : fail) = mid;
  }
  out.first_failing_rate = fail;

  results::Confirmation& c = out.confirmation;
  c.round_rates.emplace_back(*pass);
  for (int round = 0; round < settings.confirm && !out.stopped; ++round) {
    std::optional<double> sustained;
    double target = *pass;
    for (int attempt = 0; attempt <= settings.confirm_step_downs; ++attempt) {
      auto ok = walk.Run(results::StepPhase::kConfirm, target);
      if (!ok) break;
      if (*ok) {
        sustained = target;
        break;
      }
      target = Rounded(target * (1 - settings.bracket));
    }
    if (out.stopped) break;
    c.round_rates.push_back(sustained);
  }
  for (const auto& r : c.round_rates) {
    if (!r) continue;
    c.min_rate = c.min_rate == 0 ? *r : std::min(c.min_rate, *r);
    c.max_rate = std::max(c.max_rate, *r);
  }
  out.found_rate = c.min_rate;
  return out;
}

}  // namespace dfbench::scenarios
