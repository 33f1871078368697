#include "cli/run_commands/run_commands_flags.h"

#include "cli/flag_ranges.h"
#include "core/log.h"

namespace dfbench::cli {
namespace {

// A hidden, deprecated spelling of an int flag: it sets the same value and leaves a notice.
void AddDeprecatedAlias(CLI::App* sub, RunCommandsDflyFlags* f, const std::string& old_name,
                        const std::string& new_name, int* target) {
  WithRange(sub->add_option_function<int>(
                   old_name,
                   [f, target, old_name, new_name](int v) {
                     *target = v;
                     f->deprecated.push_back(old_name + " is deprecated; use " + new_name);
                   },
                   "Deprecated: " + new_name)
                ->group(""),
            NumberKind::kInteger);
}

}  // namespace

void AddRunCommandsFlags(CLI::App* sub, RunCommandsFlags* f) {
  AddPerCommandFlags(sub, &f->common, LoadFlagsOf::kRunCommands);
  AddLoadGeneratorFlags(sub, &f->load_generator);
}

scenarios::CommandOptions ToRunCommandsOptions(const RunCommandsFlags& f) {
  return ToCommandOptions(f.common, f.target.engines);
}

void AddRunCommandsDflyFlags(CLI::App* sub, RunCommandsDflyFlags* f) {
  AddPerCommandFlags(sub, &f->common, LoadFlagsOf::kRunCommandsDfly);
  AddRangedOption(sub, "--dfly-bench-qps", &f->qps, NumberKind::kInteger,
                  "dfly_bench --qps per connection (batches of --dfly-bench-pipeline "
                  "per second); 0 = closed loop, as fast as the server answers");
  sub->add_option("--dfly-bench-ref", f->ref,
                  "Dragonfly git ref dfly_bench is built from, recorded in results.json (the "
                  "build is setup's: dfbench setup --dfly-bench-ref on an ssh client; or see "
                  "--dfly-bench-binary)")
      ->capture_default_str();
  sub->add_option("--dfly-bench-binary", f->binary,
                  "dfly_bench on the client host (default: found on its PATH)");
  AddDeprecatedAlias(sub, f, "--dfly-threads", "--dfly-bench-threads", &f->common.load.threads);
  AddDeprecatedAlias(sub, f, "--dfly-conns", "--dfly-bench-conns", &f->common.load.clients);
  AddDeprecatedAlias(sub, f, "--dfly-pipeline", "--dfly-bench-pipeline", &f->common.load.pipeline);
  AddDeprecatedAlias(sub, f, "--dfly-data-size", "--dfly-bench-data-size",
                     &f->common.load.data_size);
}

scenarios::CommandOptions ToRunCommandsDflyOptions(const RunCommandsDflyFlags& f) {
  for (const auto& notice : f.deprecated) core::Note(notice);
  scenarios::CommandOptions options = ToCommandOptions(f.common, f.target.engines);
  options.load.distinct_client_seed = false;  // dfly_bench seeds each thread itself
  options.rate_per_connection = f.qps;
  options.dfly_bench_ref = f.ref;
  return options;
}

}  // namespace dfbench::cli
