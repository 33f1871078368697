// The table and CSV renderings of a sweep (its JSON is in sweep_schema.cc).
#include <algorithm>

#include "core/format.h"
#include "core/table.h"
#include "results/number_format.h"
#include "results/sweep_schema.h"
#include "results/writers.h"

namespace dfbench::results {
namespace {

constexpr double kStepPercentiles[] = {50, 90, 99, 99.9, 100};

std::string Latency(const StepMeasurement& m, double percentile) {
  const auto v = m.LatencyAt(percentile);
  return v ? Fixed(*v, 3) : "-";
}

std::string CsvLatency(const StepMeasurement& m, double percentile) {
  const auto v = m.LatencyAt(percentile);
  return v ? CsvNumber(*v) : "";
}

std::string HeaderLine(const SweepResults& r) {
  const auto& s = r.settings;
  const auto& m = s.memtier;
  std::string objectives;
  for (const auto& o : r.objectives) objectives += (objectives.empty() ? "" : ", ") + o.text;
  std::string line = core::Format(
      "sweep {} · {} · {} threads × {} clients · pipeline {} · ratio {} · {} B · {} s steps",
      r.run_id, objectives, m.threads, m.clients, m.pipeline, m.ratio, m.data_size,
      s.step_time_sec);
  if (r.status && *r.status != RunStatus::kCompleted) line += " · " + ToString(r.status);
  return line + "\n";
}

// An engine whose search an interrupt cut short: the best rate a step kept the objectives at,
// not yet confirmed, or that none did so far.
std::string InterruptedNote(const SweepEngine& e) {
  std::optional<double> best;
  for (const auto& step : e.steps) {
    if (step.target_rate > 0 && step.verdict.passed && (!best || step.target_rate > *best)) {
      best = step.target_rate;
    }
  }
  return best ? "interrupted; best passing rate so far " + WithSeparators(*best)
              : std::string("interrupted before any rate kept the objectives");
}

std::string SummaryTable(const SweepResults& r) {
  using Align = core::Table::Align;
  core::Table table(
      {"ENGINE", "VERSION", "CAPACITY", "MAX RATE IN SLO", "ROUNDS", "SPREAD", "NOTE"},
      {Align::kLeft, Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight,
       Align::kLeft});
  for (const auto& e : r.engines) {
    const Confirmation& c = e.confirmation;
    std::string note = e.error;
    // An engine cut short by the interrupt ("step 3: interrupted") says how far it got.
    const bool cut_short =
        r.status == RunStatus::kInterrupted && (note.empty() || note.ends_with(": interrupted"));
    if (cut_short && !e.found_rate) {
      note = InterruptedNote(e);
    } else if (note.empty() && !e.found_rate && !e.steps.empty()) {
      note = "no rate kept the objectives";
    }
    const auto unsustained =
        std::count(c.round_rates.begin(), c.round_rates.end(), std::optional<double>());
    if (note.empty() && unsustained > 0) {
      note = core::Format("{} of {} rounds sustained no rate", unsustained, c.round_rates.size());
    }
    table.AddRow({e.Label(), e.version.empty() ? "-" : e.version,
                  e.capacity > 0 ? WithSeparators(e.capacity) : "-",
                  e.found_rate ? WithSeparators(*e.found_rate) : "-",
                  c.round_rates.size() >= 2
                      ? core::Format("[{}..{}]", ShortCount(c.min_rate), ShortCount(c.max_rate))
                      : "-",
                  c.round_rates.size() >= 2 ? Fixed(c.SpreadPct(), 1) + "%" : "-",
                  note.substr(0, note.find('\n'))});
  }
  return table.Render();
}

std::string StepTable(const SweepEngine& e) {
  using Align = core::Table::Align;
  const Align R = Align::kRight;
  core::Table table({"#", "PHASE", "TARGET", "ACHIEVED", "P50 ms", "P90 ms", "P99 ms", "P99.9 ms",
                     "MAX ms", "CLIENT CPU", "VERDICT"},
                    {R, Align::kLeft, R, R, R, R, R, R, R, R, Align::kLeft});
  for (const auto& s : e.steps) {
    std::vector<std::string> row = {
        std::to_string(s.index), std::string(kStepPhaseNames.Name(s.phase)),
        s.phase == StepPhase::kCapacity ? "closed loop" : WithSeparators(s.target_rate),
        WithSeparators(s.measured.achieved_rate)};
    for (double p : kStepPercentiles) row.push_back(Latency(s.measured, p));
    row.push_back(s.measured.client_cpu > 0 ? Fixed(s.measured.client_cpu * 100, 0) + "%" : "-");
    row.push_back(s.phase == StepPhase::kCapacity ? ""
                  : s.verdict.passed ? (s.verdict.client_late ? "pass (client-late)" : "pass")
                                     : "fail: " + s.verdict.reason);
    table.AddRow(std::move(row));
  }
  return table.Render();
}

}  // namespace

std::string RenderSweepTable(const SweepResults& r) {
  std::string out = HeaderLine(r) + SummaryTable(r);
  for (const auto& e : r.engines) {
    if (e.steps.empty()) continue;
    out += "\n" + e.Label() + " steps:\n" + StepTable(e);
  }
  return out;
}

std::string RenderSweepCsv(const SweepResults& r) {
  std::string out = CsvRow({"engine", "version", "step", "phase", "target_rate", "achieved_rate",
                            "p50", "p90", "p99", "p999", "max", "errors", "client_cpu", "passed",
                            "client_limited", "client_late", "reason", "raw_file"});
  for (const auto& e : r.engines) {
    for (const auto& s : e.steps) {
      std::vector<std::string> row = {e.engine,
                                      e.version,
                                      std::to_string(s.index),
                                      std::string(kStepPhaseNames.Name(s.phase)),
                                      CsvNumber(s.target_rate),
                                      CsvNumber(s.measured.achieved_rate)};
      for (double p : kStepPercentiles) row.push_back(CsvLatency(s.measured, p));
      row.insert(row.end(),
                 {std::to_string(s.measured.errors), CsvNumber(s.measured.client_cpu),
                  s.verdict.passed ? "true" : "false", s.verdict.client_limited ? "true" : "false",
                  s.verdict.client_late ? "true" : "false", s.verdict.reason, s.measured.raw_file});
      out += CsvRow(row);
    }
  }
  return out;
}

}  // namespace dfbench::results
