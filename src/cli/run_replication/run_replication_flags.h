// The flags of `run-replication` and the rules that turn them into its scenario's options.
#pragma once

#include <string>

#include "cli/command.h"
#include "cli/flags.h"
#include "scenarios/replication/replication.h"

namespace dfbench::cli {

// The upstream playground's five levels: the default, and what an empty --cases means (as in
// the reference).
inline constexpr char kDefaultReplicationCases[] =
    "qps=100000,qps=80000,qps=50000,qps=30000,maxload";

struct RunReplicationFlags {
  BenchTargetFlags target{.engines = "dragonfly"};
  std::string cases = kDefaultReplicationCases;
  int test_time = 60;
  std::string preload_keys = "1_000_000";
  std::string preload_time = "30s";
  int value_size = 256;
  core::Ratio ratio{.set = 1, .get = 1};
  std::string master_flags;
  std::string replica_flags;
  std::string dfly_ref = "main";
  std::string output_dir;
  std::string load_generator{core::kLoadGeneratorNames.Name(core::LoadGenerator::kBuiltin)};
  std::string dfly_bench_binary;
  double max_error_pct = results::kDefaultMaxErrorPct;
  std::string output = "table";
};

// Every flag of run-replication but --id and --engines (AddBenchCommand's).
void AddRunReplicationFlags(CLI::App* sub, RunReplicationFlags* flags);

// Reads --cases, --preload-keys and --preload-time, checks --output-dir (before anything
// starts, as -o is) and builds the options; throws ExitError naming the flag.
scenarios::ReplicationOptions ToRunReplicationOptions(const RunReplicationFlags& flags);

}  // namespace dfbench::cli
