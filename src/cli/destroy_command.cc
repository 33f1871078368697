#include <cstdio>

#include "cli/commands.h"
#include "scenarios/lifecycle.h"

namespace dfbench::cli {

void AddDestroy(CLI::App* sub, Action* action) {
  auto id = std::make_shared<std::string>();
  sub->add_option("--id", *id, "Setup to destroy")->required();
  auto yes = std::make_shared<bool>(false);
  AddBoolFlag(sub, "--yes,-y", yes.get(),
              "Accepted for compatibility; the local provider never prompts");
  SetExamples(sub, "  dfbench destroy --id local-dev\n");
  sub->callback([id, yes, action] {
    *action = [id] {
      OrExit(scenarios::DestroySetup(*id));
      std::printf("Setup %s destroyed (results kept under its benchmarks/).\n", id->c_str());
      return 0;
    };
  });
}

}  // namespace dfbench::cli
