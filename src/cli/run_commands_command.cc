#include <memory>

#include "cli/commands.h"
#include "cli/per_command_flags.h"

namespace dfbench::cli {
namespace {

struct RunCommandsFlags {
  std::string id;
  PerCommandFlags common;
  int threads = 32;
  int clients = 5;
  int pipeline = 20;
  int data_size = 256;
  bool distinct_client_seed = true;
  std::string key_pattern = "R";
  LoadGeneratorFlags load_generator;
};

int RunRunCommands(const RunCommandsFlags& f) {
  scenarios::CommandRunOptions options =
      ToCommandRunOptions(f.common, f.threads, f.clients, f.pipeline, f.data_size);
  options.load.distinct_client_seed = f.distinct_client_seed;
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
  AddPerCommandFlags(sub, &f->common, "dragonfly,redis,valkey");
  sub->add_option("--memtier-threads", f->threads, "Load generator threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  sub->add_option("--memtier-clients", f->clients, "Connections per thread")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  sub->add_option("--memtier-pipeline", f->pipeline, "Requests in flight per connection")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  sub->add_option("--memtier-data-size", f->data_size, "Bytes filled into __data__")
      ->capture_default_str()
      ->check(CLI::Range(1, 64 << 20));
  AddBoolFlag(sub, "--distinct-client-seed", &f->distinct_client_seed,
              "Each connection gets its own random seed (default on; "
              "--distinct-client-seed=false: all share one)");
  sub->add_option("--memtier-command-key-pattern", f->key_pattern,
                  "Key pattern of the measured passes: R random, S sequential, P parallel, "
                  "G gaussian")
      ->capture_default_str()
      ->check(CLI::IsMember({"R", "S", "P", "G"}));
  AddLoadGeneratorFlags(sub, &f->load_generator);
  SetPerCommandAction(sub, action, &f->common, [f] { return RunRunCommands(*f); });
}

}  // namespace dfbench::cli
