#include "cli/sweep/sweep_flags.h"

#include "cli/flag_ranges.h"
#include "core/units.h"

namespace dfbench::cli {

std::chrono::seconds ToStepTime(const std::string& text) {
  const auto us = OrExit(core::ParseDuration(text));
  if (!IsPositiveWholeSeconds(us)) {
    ExitWith(core::ErrorKind::kUsage,
             "--step-time \"" + text + "\": use whole seconds, at least 1s (e.g. 10s)");
  }
  return std::chrono::duration_cast<std::chrono::seconds>(us);
}

scenarios::SweepOptions ToSweepOptions(const SweepFlags& f) {
  scenarios::SweepOptions o;
  o.engines = ParseEngines(f.target.engines);
  o.load = f.load;
  o.step_time = ToStepTime(f.step_time);
  for (const auto& text : f.slo)
    o.objectives.push_back(OrExitFor("--slo", scenarios::ParseObjective(text)));
  o.search.confirm = f.confirm;
  o.search.max_error_pct = f.max_error_pct;
  o.tuning = ToTuning(f.tuning);
  o.cooldown = ToCooldown(f.cooldown);
  o.live_metrics = ToLiveMetrics(f.metrics, /*processes=*/1);
  return o;
}

void AddSweepFlags(CLI::App* sub, SweepFlags* f) {
  sub->add_option("--slo", f->slo,
                  "Latency objective, pPERCENTILE<=LATENCY (p99<=1ms, p99.9<=500us); repeat for "
                  "several, every one must hold")
      ->required();
  AddSetGetLoadFlags(sub, &f->load);
  using enum NumberKind;
  AddRangedOption(sub, "--step-time", &f->step_time, kDuration,
                  "Measured load per step, whole seconds; each step starts with a "
                  "discarded warmup of a fifth of it (at most 1s)");
  AddRangedOption(sub, "--confirm", &f->confirm, kInteger,
                  "Rounds that re-run the found rate (stepping down 2% while it fails); "
                  "the spread of their rates is reported");
  AddMaxErrorPctFlag(sub, &f->max_error_pct, "step");
  AddTurnFlags(sub, /*trials=*/nullptr, &f->cooldown, &f->output, &f->tuning);
  AddBenchMetricsFlags(sub, &f->metrics);
}

}  // namespace dfbench::cli
