#include "cli/run/run_flags.h"

namespace dfbench::cli {

void AddSetGetCommandFlags(CLI::App* sub, SetGetCommandFlags* f) {
  AddSetGetFlags(sub, &f->run, /*with_versions=*/true);
}

scenarios::SetGetOptions ToSetGetCommandOptions(const SetGetCommandFlags& f) {
  return ToSetGetOptions(f.run, ParseEngines(f.target.engines));
}

}  // namespace dfbench::cli
