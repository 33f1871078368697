// Flag groups shared by several subcommands (setup/quickstart, run/quickstart).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cli/bench_metrics_flags.h"
#include "cli/command.h"
#include "cli/endpoint_flags.h"
#include "cli/run_output.h"
#include "core/load_generator.h"
#include "drivers/builtin_driver.h"
#include "drivers/driver.h"
#include "engines/engine.h"
#include "results/schema.h"
#include "scenarios/setget/run_benchmark.h"

namespace dfbench::cli {

// --<engine>_version of every known engine (--dragonfly_version also as --dfly-version): engine
// name -> the text given. Setup and quickstart install these versions; run and the per-command
// runs install them into the setup before running.
using VersionFlags = std::map<std::string, std::string>;
enum class VersionFlagsOf { kSetup, kRun };
void AddVersionFlags(CLI::App* sub, VersionFlags* flags, VersionFlagsOf when);
// The --<engine>_version flags, parsed (kUsage exit for a bad one).
std::map<std::string, engines::VersionSpec> ParseVersions(const VersionFlags& flags);

// Which engines, their binaries and versions (setup, quickstart).
struct EngineFlags {
  std::string engines = "dragonfly,redis,valkey";
  std::map<std::string, std::string> binaries;  // filled by --<engine>_binary
  VersionFlags versions;
};
void AddEngineFlags(CLI::App* sub, EngineFlags* flags);
// The parsed engine list (kUsage for an unknown name).
std::vector<const engines::EngineSpec*> ParseEngines(const std::string& csv);

// --port: where the setup's engines listen (setup, quickstart).
void AddPortFlag(CLI::App* sub, int* port);

// Engine tuning (run, quickstart), as the reference's --redis_io_threads & co.
struct TuningFlags {
  int redis_io_threads = 0;
  int valkey_io_threads = 0;
  int io_threads_alias = -1;  // deprecated --io-threads: sets both
  int dragonfly_num_shards = 0;
  bool dragonfly_conn_use_incoming_cpu = true;
  bool redis_pin_network = true;  // --pin-network (deprecated) sets both
  bool valkey_pin_network = true;
  int redis_shards = 0;  // 0: one process; N: a cluster of N primaries
  int valkey_shards = 0;
  std::string dragonfly_cluster_mode = "none";  // none | emulated
  bool tls = false;
  bool acl_user = false;
};
void AddTuningFlags(CLI::App* sub, TuningFlags* flags);
// --redis_shards, --valkey_shards, --dragonfly_cluster_mode, --tls, --acl-user: how each engine
// is deployed.
void AddTopologyFlags(CLI::App* sub, TuningFlags* flags);
engines::Tuning ToTuning(const TuningFlags& flags);

// Which load generator drives the load (run, quickstart, run-commands).
struct LoadGeneratorFlags {
  std::string name{core::kLoadGeneratorNames.Name(core::LoadGenerator::kBuiltin)};
  std::string memtier_binary;  // memtier_benchmark on the client host; "" = its PATH
};
void AddLoadGeneratorFlags(CLI::App* sub, LoadGeneratorFlags* flags);
// The generator --load-generator names (kUsage for another word).
core::LoadGenerator ToLoadGenerator(const std::string& name);
std::unique_ptr<drivers::Driver> MakeDriver(const LoadGeneratorFlags& flags);

// The setup a benchmark runs on and which of its engines: --id (required) and --engines.
struct BenchTargetFlags {
  std::string id;
  std::string engines = "dragonfly,redis,valkey";
};
// What --id and --engines say in --help.
struct BenchTargetHelp {
  const char* id = "Setup created by 'dfbench setup'";
  const char* engines = "Comma-separated subset of the setup's engines";
};
void AddBenchTargetFlags(CLI::App* sub, BenchTargetFlags* flags, const BenchTargetHelp& help);

// A benchmark command: its flags (a `Flags` with a `target`), shared with the action that runs
// them (`run`) once parsing succeeded; --id and --engines come first.
template <class Flags>
std::shared_ptr<Flags> AddBenchCommand(CLI::App* sub, Action* action, int (*run)(const Flags&),
                                       const BenchTargetHelp& help = {}) {
  auto f = std::make_shared<Flags>();
  AddBenchTargetFlags(sub, &f->target, help);
  RunOnceParsed(sub, action, f, run);
  return f;
}

// The SET:GET load: --memtier-threads, -clients, -ratio, -data-size, -pipeline and
// --distinct-client-seed (run, quickstart, sweep).
void AddSetGetLoadFlags(CLI::App* sub, core::Load* load);
// --cooldown as a duration. Throws ExitError(kUsage).
std::chrono::milliseconds ToCooldown(const std::string& cooldown);
// Whether `d` is 1s, 2s, ...: a time-boxed phase (sweep's step, run-replication's preload)
// counts whole seconds.
bool IsPositiveWholeSeconds(std::chrono::microseconds d);

// The SET:GET workload, trial structure and load generator (run, quickstart).
struct SetGetFlags {
  core::Load load = core::kRunLoad;
  uint64_t requests = core::kRunRequestsPerClient;
  int test_time_sec = 0;  // > 0: time-boxed trials instead of `requests`
  uint64_t warmup_requests = 100000;
  int trials = 3;
  double max_error_pct = results::kDefaultMaxErrorPct;
  std::string cooldown = "30s";
  std::string output = "table";
  TuningFlags tuning;
  VersionFlags versions;  // run only: installed before the run
  LoadGeneratorFlags load_generator;
  std::vector<std::string> client_profiles;  // --client-profile, as given
  int loadgen_processes = 1;
  bool per_client = false;
  BenchMetricsFlags metrics;
};
// `with_versions`: run's --<engine>_version (quickstart takes them from EngineFlags instead).
void AddSetGetFlags(CLI::App* sub, SetGetFlags* flags, bool with_versions);
// quickstart on the local provider: the reference's 1,000,000 requests per connection (and
// 100,000 for the warmup) would keep one machine busy for hours, and its 30 s cooldown lets two
// cloud servers settle, so what the user did not give comes from a smaller profile, named in one
// line on stderr: a first table within minutes of a fresh clone. Explicit flags always win.
inline constexpr uint64_t kLocalProfileRequests = 5000;
inline constexpr uint64_t kLocalProfileWarmupRequests = 500;
inline constexpr const char* kLocalProfileCooldown = "5s";
void ApplyLocalProfile(const CLI::App* sub, SetGetFlags* flags);
// Validates values CLI11 cannot (client profiles, versions, the cooldown) and builds the scenario
// options; throws ExitError(kUsage) with one clear line.
scenarios::SetGetOptions ToSetGetOptions(const SetGetFlags& flags,
                                         const std::vector<const engines::EngineSpec*>& engines);

// Whether a benchmark drives clusters too (kAny) or measures one process per engine.
enum class Topologies { kAny, kOneProcess };

// --trials (unless `trials` is null: sweep), --cooldown, --output and the engine tuning, as
// every per-engine benchmark takes them, with the topology flags unless it measures one process.
void AddTurnFlags(CLI::App* sub, int* trials, std::string* cooldown, std::string* output,
                  TuningFlags* tuning, Topologies topologies = Topologies::kAny);

// --max-error-pct: the share of a trial's requests that may fail before the trial fails (every
// command whose trials count requests: run, quickstart, run-commands, run-commands-dfly,
// run-memory's updates), of a step's (sweep: `judged` "step") or of a case's load
// (run-replication: "case").
void AddMaxErrorPctFlag(CLI::App* sub, double* max_error_pct, std::string_view judged = "trial");

// --output: the stdout form of a run's results (run, quickstart, run-commands).
void AddOutputFlag(CLI::App* sub, std::string* output);
OutputFormat ToOutputFormat(const std::string& output);

// Runs a benchmark scenario (`on_setup`: scenarios::SetGetOnSetup, SweepOnSetup, ...) on setup `id`
// with `driver` as its load generator and its results on stdout as `output`; the exit code.
template <class Options, class Results>
int RunBench(core::Result<scenarios::RunOutcome<Results>> (*on_setup)(const std::string&,
                                                                      const Options&),
             const std::string& id, Options options, std::unique_ptr<drivers::Driver> driver,
             const std::string& output) {
  const OutputFormat format = ToOutputFormat(output);
  options.driver = driver.get();
  if constexpr (std::is_base_of_v<scenarios::BenchOptions, Options>) {
    CheckLiveMetricsFor(*driver, options.live_metrics);
  }
  auto outcome = on_setup(id, options);
  // A shared endpoint's refusal names the setup option that gives the run the server's data.
  if (!outcome) OrExitNamingFlags(tl::unexpected(outcome.error()), kEndpointFlagOfOption);
  return OrExit(Publish(*outcome, format, options.per_client));
}

// The action of a benchmark whose load the built-in generator drives (run-memory, sweep): the
// options `to_options` makes of its flags, run by `on_setup` on the setup --id names.
template <class Flags, auto on_setup, auto to_options>
int RunOnBuiltinDriver(const Flags& flags) {
  return RunBench(on_setup, flags.target.id, to_options(flags),
                  std::make_unique<drivers::BuiltinDriver>(), flags.output);
}

}  // namespace dfbench::cli
