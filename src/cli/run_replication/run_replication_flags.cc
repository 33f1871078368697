#include "cli/run_replication/run_replication_flags.h"

#include <sstream>

#include "cli/flag_ranges.h"
#include "cli/load_flags.h"
#include "core/files.h"
#include "core/text.h"
#include "core/units.h"

namespace dfbench::cli {
namespace {

// Every qps=<n> of --cases within the table's range for it (other words are left to
// scenarios::ParseReplicationCases).
std::string CheckCaseRates(const std::string& cases) {
  std::stringstream in(cases);
  for (std::string token; std::getline(in, token, ',');) {
    if (token.rfind("qps=", 0) != 0) continue;
    const FlagRange& range = *FindFlagRange("--cases", NumberKind::kCount);
    if (!ParseInRange(range, token.substr(4))) {
      // Thrown past CLI11's own wording, as WithRange's.
      throw CLI::ConversionError("--cases \"" + token + "\": use qps=N, N from " +
                                 RangeText(range) + " per connection, or maxload");
    }
  }
  return "";
}

// Whole seconds, at least one: the preload is time-boxed as the reference's.
std::chrono::seconds PreloadTime(const std::string& text) {
  const auto d = OrExitWithContext("--preload-time", core::ParseDuration(text));
  if (!IsPositiveWholeSeconds(d)) {
    ExitWith(core::ErrorKind::kUsage,
             "--preload-time: \"" + text + "\" is not a whole number of seconds");
  }
  return std::chrono::duration_cast<std::chrono::seconds>(d);
}

}  // namespace

scenarios::ReplicationOptions ToRunReplicationOptions(const RunReplicationFlags& f) {
  scenarios::ReplicationOptions o{
      .engines = ParseEngines(f.target.engines),
      .cases = OrExitFor("--cases", scenarios::ParseReplicationCases(
                                        f.cases.empty() ? kDefaultReplicationCases : f.cases)),
      .test_time = std::chrono::seconds(f.test_time),
      // In its range (1 and up) by now: WithRange checked it.
      .preload_keys = OrExitFor("--preload-keys", core::ParseCount(f.preload_keys)),
      .preload_time = PreloadTime(f.preload_time),
      .value_size = f.value_size,
      .ratio = f.ratio,
      .master_flags = core::SplitWords(f.master_flags),
      .replica_flags = core::SplitWords(f.replica_flags),
      .dfly_ref = f.dfly_ref,
      .output_dir = f.output_dir,
      .load_generator = ToLoadGenerator(f.load_generator),
      .dfly_bench_binary = f.dfly_bench_binary,
      .max_error_pct = f.max_error_pct};
  // Refused before anything starts, as -o is: the results go only into regular files.
  if (!f.output_dir.empty()) {
    OrExit(core::CheckOutputDir(f.output_dir, {"results.json", "benchmark_results.csv"}));
  }
  return o;
}

void AddRunReplicationFlags(CLI::App* sub, RunReplicationFlags* f) {
  using enum NumberKind;
  sub->add_option(
         "--cases", f->cases,
         "Comma-separated qps=<n>[k] (per connection, over 2 connections) or maxload; empty: "
         "the default")
      ->capture_default_str()
      ->check(CLI::Validator(CheckCaseRates,
                             "[qps=" + RangeText(*FindFlagRange("--cases", kCount)) + "]",
                             RangeValidatorName(kCount)));
  AddRangedOption(sub, "--test-time", &f->test_time, kInteger,
                  "Seconds of load per case after the full sync");
  AddRangedOption(sub, "--preload-keys", &f->preload_keys, kCount,
                  "Key range written before the replica starts (underscores allowed)");
  AddRangedOption(sub, "--preload-time", &f->preload_time, kDuration,
                  "How long the preload writes random keys of the range (30s as the reference)");
  AddRangedOption(sub, "--value-size", &f->value_size, kInteger,
                  "Value size in bytes, preload and load");
  AddRatioFlag(sub, "--ratio", &f->ratio, "SET:GET of the load (the preload only writes)");
  AddMaxErrorPctFlag(sub, &f->max_error_pct, "case");
  sub->add_option("--master-flags", f->master_flags,
                  "Extra flags for the master, space-separated, passed verbatim");
  sub->add_option("--replica-flags", f->replica_flags,
                  "Extra flags for the replica, space-separated, passed verbatim");
  sub->add_option("--dfly-ref", f->dfly_ref, "Dragonfly git ref of dfly_bench (recorded)")
      ->capture_default_str();
  sub->add_option("--output-dir", f->output_dir,
                  "Where results.json and benchmark_results.csv go (default: "
                  "<setup>/replications/<timestamp>/)");
  AddChoiceFlag(sub, "--load-generator", &f->load_generator,
                ChoicesOf(core::kLoadGeneratorNames,
                          {core::LoadGenerator::kBuiltin, core::LoadGenerator::kDflyBench}),
                "builtin, or dfly_bench with the reference's command lines (its load starts "
                "after the sync)");
  sub->add_option("--dfly-bench-binary", f->dfly_bench_binary,
                  "dfly_bench on the client host (default: found on its PATH)");
  AddOutputFlag(sub, &f->output);
}

}  // namespace dfbench::cli
