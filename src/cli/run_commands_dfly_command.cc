#include <memory>

#include "cli/commands.h"
#include "cli/per_command_flags.h"
#include "core/log.h"
#include "drivers/dfly_bench_driver.h"

namespace dfbench::cli {
namespace {

struct RunCommandsDflyFlags {
  std::string id;
  PerCommandFlags common;
  std::string key_dist = "U";
  int qps = 0;
  std::string ref = "main";
  std::string binary;
  std::vector<std::string> deprecated;  // notices for the old --dfly-* spellings used
};

drivers::KeyPattern FromKeyDist(const std::string& dist) {
  if (dist == "N") return drivers::KeyPattern::kGaussian;
  if (dist == "Z") return drivers::KeyPattern::kZipf;
  if (dist == "S") return drivers::KeyPattern::kSequential;
  return drivers::KeyPattern::kRandom;  // U
}

int RunRunCommandsDfly(const RunCommandsDflyFlags& f) {
  for (const auto& notice : f.deprecated) core::Note(notice);
  scenarios::CommandRunOptions options = ToCommandRunOptions(f.common);
  options.load.distinct_client_seed = false;  // dfly_bench seeds each thread itself
  options.key_pattern = FromKeyDist(f.key_dist);
  options.rate_per_connection = f.qps;
  options.dfly_bench_ref = f.ref;
  drivers::DflyBenchDriver driver(f.binary);
  options.driver = &driver;
  return OrExit(scenarios::RunCommandsOnSetup(f.id, options, ToOutputFormat(f.common.output)));
}

// A hidden, deprecated spelling of an int flag: it sets the same value and leaves a notice.
void AddDeprecatedAlias(CLI::App* sub, const std::shared_ptr<RunCommandsDflyFlags>& f,
                        const std::string& old_name, const std::string& new_name, int* target) {
  sub->add_option_function<int>(
         old_name,
         [f, target, old_name, new_name](int v) {
           *target = v;
           f->deprecated.push_back(old_name + " is deprecated; use " + new_name);
         },
         "Deprecated: " + new_name)
      ->check(CLI::Range(1, 64 << 20))
      ->group("");
}

}  // namespace

void AddRunCommandsDfly(CLI::App* sub, Action* action) {
  auto f = std::make_shared<RunCommandsDflyFlags>();
  AddBenchSetupIdFlag(sub, &f->id);
  AddPerCommandFlags(sub, &f->common, "dragonfly", LoadFlagsOf::kRunCommandsDfly);
  sub->add_option("--dfly-bench-key-dist", f->key_dist,
                  "dfly_bench --key_dist of the measured passes: U uniform, N normal, Z zipf, "
                  "S sequential")
      ->capture_default_str()
      ->check(CLI::IsMember({"U", "N", "Z", "S"}));
  sub->add_option("--dfly-bench-qps", f->qps,
                  "dfly_bench --qps per connection (batches of --dfly-bench-pipeline per "
                  "second); 0 = closed loop, as fast as the server answers")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 30));
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
  SetPerCommandAction(sub, action, &f->common, [f] { return RunRunCommandsDfly(*f); });
}

}  // namespace dfbench::cli
