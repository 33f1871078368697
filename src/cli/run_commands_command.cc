#include <memory>

#include "cli/commands.h"
#include "cli/per_command_flags.h"

namespace dfbench::cli {
namespace {

struct RunCommandsFlags {
  std::string id;
  PerCommandFlags common;
  std::string key_pattern = "R";
  LoadGeneratorFlags load_generator;
};

int RunRunCommands(const RunCommandsFlags& f) {
  scenarios::CommandRunOptions options = ToCommandRunOptions(f.common);
  options.key_pattern = static_cast<drivers::KeyPattern>(f.key_pattern.at(0));
  CheckParallelPattern(options);
  auto driver = MakeDriver(f.load_generator);
  options.driver = driver.get();
  return OrExit(scenarios::RunCommandsOnSetup(f.id, options, ToOutputFormat(f.common.output)));
}

}  // namespace

void AddRunCommands(CLI::App* sub, Action* action) {
  auto f = std::make_shared<RunCommandsFlags>();
  AddBenchSetupIdFlag(sub, &f->id);
  AddPerCommandFlags(sub, &f->common, "dragonfly,redis,valkey", LoadFlagsOf::kRunCommands);
  sub->add_option("--memtier-command-key-pattern", f->key_pattern,
                  "Key pattern of the measured passes: R random, S sequential, P parallel, "
                  "G gaussian")
      ->capture_default_str()
      ->check(CLI::IsMember({"R", "S", "P", "G"}));
  AddLoadGeneratorFlags(sub, &f->load_generator);
  SetPerCommandAction(sub, action, &f->common, [f] { return RunRunCommands(*f); });
}

}  // namespace dfbench::cli
