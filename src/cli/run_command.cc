#include "cli/commands.h"
#include "cli/flags.h"

namespace dfbench::cli {
namespace {

struct RunCommandFlags {
  std::string id;
  RunFlags run;
  LoadGeneratorFlags load_generator;
};

int RunRun(const RunCommandFlags& f) {
  scenarios::RunOptions options = ToRunOptions(f.run, ParseEngines(f.run.engines));
  auto driver = MakeDriver(f.load_generator);
  options.driver = driver.get();
  return OrExit(scenarios::RunOnSetup(f.id, options, ToOutputFormat(f.run.output)));
}

}  // namespace

void AddRun(CLI::App* sub, Action* action) {
  auto f = std::make_shared<RunCommandFlags>();
  AddBenchSetupIdFlag(sub, &f->id);
  AddRunFlags(sub, &f->run, /*with_engines=*/true);
  AddLoadGeneratorFlags(sub, &f->load_generator);
  sub->callback([f, action] { *action = [f] { return RunRun(*f); }; });
}

}  // namespace dfbench::cli
