// One function per subcommand, each defined in its own <name>_command.cc.
#pragma once

#include "cli/command.h"

namespace dfbench::cli {

void AddSetup(CLI::App* sub, Action* action);
void AddRun(CLI::App* sub, Action* action);
void AddQuickstart(CLI::App* sub, Action* action);
void AddLoadgen(CLI::App* sub, Action* action);
void AddInfo(CLI::App* sub, Action* action);
void AddList(CLI::App* sub, Action* action);
void AddDestroy(CLI::App* sub, Action* action);
void AddVersion(CLI::App* sub, Action* action);

}  // namespace dfbench::cli
