#include "cli/run_flags.h"

namespace dfbench::cli {

void AddRunCommandFlags(CLI::App* sub, RunCommandFlags* f) {
  AddRunFlags(sub, &f->run, /*with_versions=*/true);
}

scenarios::RunOptions ToRunCommandOptions(const RunCommandFlags& f) {
  return ToRunOptions(f.run, ParseEngines(f.target.engines));
}

}  // namespace dfbench::cli
