// One function per subcommand, each defined in its own <name>_command.cc.
#pragma once

#include "cli/command.h"

namespace dfbench::cli {

void AddSetup(CLI::App* sub, Action* action);
void AddRun(CLI::App* sub, Action* action);
void AddRunCommands(CLI::App* sub, Action* action);
void AddRunCommandsDfly(CLI::App* sub, Action* action);
void AddRunMemory(CLI::App* sub, Action* action);
void AddRunReplication(CLI::App* sub, Action* action);
void AddSweep(CLI::App* sub, Action* action);
void AddQuickstart(CLI::App* sub, Action* action);
void AddLoadgen(CLI::App* sub, Action* action);
void AddCompare(CLI::App* sub, Action* action);
void AddReport(CLI::App* sub, Action* action);
void AddInfo(CLI::App* sub, Action* action);
void AddList(CLI::App* sub, Action* action);
void AddCache(CLI::App* sub, Action* action);
void AddSsh(CLI::App* sub, Action* action);
void AddDestroy(CLI::App* sub, Action* action);
void AddTemplate(CLI::App* sub, Action* action);
void AddVersion(CLI::App* sub, Action* action);
void AddHelp(CLI::App* sub, Action* action);
void AddCompletion(CLI::App* sub, Action* action);

}  // namespace dfbench::cli
