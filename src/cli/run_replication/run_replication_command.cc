#include "cli/commands.h"
#include "cli/run_replication/run_replication_flags.h"

namespace dfbench::cli {
namespace {

int RunRunReplication(const RunReplicationFlags& f) {
  const scenarios::ReplicationOptions o = ToRunReplicationOptions(f);
  const OutputFormat format = ToOutputFormat(f.output);
  return OrExit(Publish(OrExit(scenarios::ReplicationOnSetup(f.target.id, o)), format));
}

}  // namespace

void AddRunReplication(CLI::App* sub, Action* action) {
  auto f =
      AddBenchCommand(sub, action, &RunRunReplication,
                      {.id = "Setup with a replica ('dfbench setup --provider local --replicas 1')",
                       .engines = "Engines to measure: dragonfly, redis, valkey"});
  AddRunReplicationFlags(sub, f.get());
}

}  // namespace dfbench::cli
