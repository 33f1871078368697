#include "cli/flags.h"

#include <charconv>
#include <cmath>

#include "cli/client_profile_flags.h"
#include "cli/flag_ranges.h"
#include "cli/load_flags.h"
#include "core/log.h"
#include "core/units.h"
#include "drivers/builtin_driver.h"
#include "drivers/memtier_driver.h"

namespace dfbench::cli {

void AddEngineFlags(CLI::App* sub, EngineFlags* flags) {
  sub->add_option("--engines", flags->engines,
                  "Comma-separated engines: dragonfly, redis, valkey, memcached")
      ->capture_default_str();
  for (const auto& spec : engines::KnownEngines()) {
    const std::string name = spec.name;
    sub->add_option_function<std::string>(
        "--" + name + "_binary",
        [flags, name](const std::string& path) { flags->binaries[name] = path; },
        "Path to the " + spec.program + " binary (default: found on PATH)");
  }
  AddVersionFlags(sub, &flags->versions, VersionFlagsOf::kSetup);
}

void AddVersionFlags(CLI::App* sub, VersionFlags* flags, VersionFlagsOf when) {
  for (const auto& spec : engines::KnownEngines()) {
    const std::string name = spec.name;
    sub->add_option_function<std::string>(
        "--" + name + "_version", [flags, name](const std::string& v) { (*flags)[name] = v; },
        "Version of " + name +
            (when == VersionFlagsOf::kSetup ? " to install into the engine cache"
                                            : " to install into the setup before the run") +
            ": a release tag, latest, an https:// URL of a release archive, a local binary or "
            "archive, or system" +
            (when == VersionFlagsOf::kSetup ? " (default: the one on the host)"
                                            : " (default: the setup's)"));
  }
  // --dfly-version: the reference's older spelling, a flag of its own (see AddTuningFlags).
  sub->add_option_function<std::string>(
         "--dfly-version", [flags](const std::string& v) { (*flags)["dragonfly"] = v; },
         "Deprecated: --dragonfly_version")
      ->group("");
}

std::map<std::string, engines::VersionSpec> ParseVersions(const VersionFlags& flags) {
  std::map<std::string, engines::VersionSpec> versions;
  for (const auto& [name, text] : flags) {
    if (!text.empty()) {
      versions[name] = OrExit(engines::ParseVersionSpec(text, *engines::FindEngine(name)));
    }
  }
  return versions;
}

std::vector<const engines::EngineSpec*> ParseEngines(const std::string& csv) {
  return OrExit(engines::ParseEngineList(csv));
}

void AddPortFlag(CLI::App* sub, int* port) {
  WithRange(sub->add_option("--port", *port,
                            "Port the engines listen on, for every run of the setup (default: "
                            "6379 on ssh hosts, a free one on this machine)"),
            NumberKind::kInteger);
}

void AddTuningFlags(CLI::App* sub, TuningFlags* flags) {
  using enum NumberKind;
  WithRange(sub->add_option("--redis_io_threads", flags->redis_io_threads,
                            "Redis --io-threads (0: the engine's default)"),
            kInteger);
  WithRange(sub->add_option("--valkey_io_threads", flags->valkey_io_threads,
                            "Valkey --io-threads (0: the engine's default)"),
            kInteger);
  WithRange(sub->add_option("--io-threads", flags->io_threads_alias,
                            "Deprecated: sets --redis_io_threads and --valkey_io_threads")
                ->group(""),
            kInteger);
  WithRange(sub->add_option("--dragonfly_num_shards", flags->dragonfly_num_shards,
                            "Dragonfly --num_shards: 0 its default, >0 explicit, -1 derived from "
                            "the CPUs"),
            kInteger);
  // The deprecated spellings are flags of their own, so that one given beside its new name
  // with another value is refused (CheckDeprecatedAliases) rather than one silently winning.
  WithRange(sub->add_option("--num-shards", flags->dragonfly_num_shards,
                            "Deprecated: --dragonfly_num_shards")
                ->group(""),
            kInteger);
  AddBoolFlag(sub, "--dragonfly_conn_use_incoming_cpu", &flags->dragonfly_conn_use_incoming_cpu,
              "Run Dragonfly with --conn_use_incoming_cpu (default true; =false disables)");
  AddBoolFlag(sub, "--conn-use-incoming-cpu", &flags->dragonfly_conn_use_incoming_cpu,
              "Deprecated: --dragonfly_conn_use_incoming_cpu")
      ->group("");
  AddBoolFlag(sub, "--redis_pin_network", &flags->redis_pin_network,
              "Pin Redis onto CPU 0 plus the network-I/O CPUs where the server's NIC queues "
              "are known, best effort (default true; =false disables)");
  AddBoolFlag(sub, "--valkey_pin_network", &flags->valkey_pin_network,
              "Pin Valkey onto CPU 0 plus the network-I/O CPUs, best effort (default true; "
              "=false disables)");
  AddBoolFlag(
      sub, "--pin-network",
      [flags](bool on) { flags->redis_pin_network = flags->valkey_pin_network = on; },
      "Deprecated: sets --redis_pin_network and --valkey_pin_network")
      ->group("");
}

void AddTopologyFlags(CLI::App* sub, TuningFlags* flags) {
  using enum NumberKind;
  AddRangedOption(sub, "--redis_shards", &flags->redis_shards, kInteger,
                  "Run Redis as a Redis Cluster of N primaries on the server host, each its own "
                  "process on its share of the CPUs (0: one process)");
  AddRangedOption(sub, "--valkey_shards", &flags->valkey_shards, kInteger,
                  "Run Valkey as a cluster of N primaries (0: one process)");
  AddChoiceFlag(sub, "--dragonfly_cluster_mode", &flags->dragonfly_cluster_mode,
                {"none", "emulated"},
                "Dragonfly --cluster_mode: emulated answers the cluster protocol as a one-node "
                "cluster (default none)");
  AddBoolFlag(sub, "--tls", &flags->tls,
              "Start the engines serving TLS alone (redis, valkey: --tls-port; dragonfly: "
              "--tls), with a CA and certificates made for the setup; the load generators and "
              "dfbench's own requests show its client certificate");
  AddBoolFlag(sub, "--acl-user", &flags->acl_user,
              std::string("Give every engine an ACL user for the run (") +
                  engines::kRunAclUserName +
                  ", a random password never written) and turn its default user off; the "
                  "built-in load generator and dfbench's own requests authenticate as it");
}

engines::Tuning ToTuning(const TuningFlags& flags) {
  engines::Tuning t{.redis_io_threads = flags.redis_io_threads,
                    .valkey_io_threads = flags.valkey_io_threads,
                    .dragonfly_num_shards = flags.dragonfly_num_shards,
                    .dragonfly_conn_use_incoming_cpu = flags.dragonfly_conn_use_incoming_cpu,
                    .redis_pin_network = flags.redis_pin_network,
                    .valkey_pin_network = flags.valkey_pin_network,
                    .redis_shards = flags.redis_shards,
                    .valkey_shards = flags.valkey_shards,
                    .dragonfly_cluster_emulated = flags.dragonfly_cluster_mode == "emulated",
                    .tls = flags.tls,
                    .acl_user = flags.acl_user};
  if (flags.io_threads_alias >= 0) {
    core::Note("--io-threads is deprecated; use --redis_io_threads / --valkey_io_threads");
    t.redis_io_threads = t.valkey_io_threads = flags.io_threads_alias;
  }
  return t;
}

void AddLoadGeneratorFlags(CLI::App* sub, LoadGeneratorFlags* flags) {
  AddChoiceFlag(sub, "--load-generator", &flags->name,
                ChoicesOf(core::kLoadGeneratorNames,
                          {core::LoadGenerator::kBuiltin, core::LoadGenerator::kMemtier}),
                "builtin (dfbench loadgen) or memtier (memtier_benchmark on the client host)");
  sub->add_option("--memtier-binary", flags->memtier_binary,
                  "memtier_benchmark on the client host (default: found on its PATH)");
}

namespace {

// The value `flag` names by `text`; a word outside `names` ends the command (usage).
template <class E, size_t N>
E ChoiceOrExit(const core::EnumNames<E, N>& names, std::string_view flag, const std::string& text) {
  const auto value = names.Parse(text);
  if (!value) {
    ExitWith(core::ErrorKind::kUsage, std::string(flag) + " \"" + text + "\": use " + names.List());
  }
  return *value;
}

}  // namespace

core::LoadGenerator ToLoadGenerator(const std::string& name) {
  return ChoiceOrExit(core::kLoadGeneratorNames, "--load-generator", name);
}

std::unique_ptr<drivers::Driver> MakeDriver(const LoadGeneratorFlags& flags) {
  if (ToLoadGenerator(flags.name) == core::LoadGenerator::kMemtier) {
    return std::make_unique<drivers::MemtierDriver>(flags.memtier_binary);
  }
  if (!flags.memtier_binary.empty()) {
    ExitWith(core::ErrorKind::kUsage, "--memtier-binary needs --load-generator memtier");
  }
  return std::make_unique<drivers::BuiltinDriver>();
}

void AddSetGetLoadFlags(CLI::App* sub, core::Load* load) {
  AddLoadFlags(sub, load, LoadFlagsOf::kRun);
  AddRatioFlag(sub, "--memtier-ratio", &load->ratio, "SET:GET ratio (1:10 means 91% reads)");
  WithRange(sub->add_option("--key-maximum", load->key_maximum,
                            "Keys 1..N (default: the load generator's range, 0..10000000)"),
            NumberKind::kInteger);
}

void AddBenchTargetFlags(CLI::App* sub, BenchTargetFlags* flags, const BenchTargetHelp& help) {
  sub->add_option("--id", flags->id, help.id)->required();
  sub->add_option("--engines", flags->engines, help.engines)->capture_default_str();
}

void AddSetGetFlags(CLI::App* sub, SetGetFlags* flags, bool with_versions) {
  if (with_versions) AddVersionFlags(sub, &flags->versions, VersionFlagsOf::kRun);
  AddSetGetLoadFlags(sub, &flags->load);
  AddRangedOption(sub, "--memtier-requests", &flags->requests, NumberKind::kInteger,
                  "Requests per connection per trial, as memtier's --requests: a trial "
                  "sends threads x clients x requests in all");
  WithRange(sub->add_option("--test-time", flags->test_time_sec,
                            "Seconds of measured load per trial instead of a request count "
                            "(memtier's --test-time)")
                ->excludes("--memtier-requests"),
            NumberKind::kInteger);
  AddRangedOption(sub, "--warmup-requests", &flags->warmup_requests, NumberKind::kInteger,
                  "Requests per connection of the discarded warmup pass (0 disables)");
  AddTurnFlags(sub, &flags->trials, &flags->cooldown, &flags->output, &flags->tuning);
  AddMaxErrorPctFlag(sub, &flags->max_error_pct);
  AddLoadGeneratorFlags(sub, &flags->load_generator);
  AddClientProfileFlag(sub, &flags->client_profiles);
  AddLoadgenProcessesFlag(sub, &flags->loadgen_processes, &flags->per_client);
  AddBenchMetricsFlags(sub, &flags->metrics);
}

void ApplyLocalProfile(const CLI::App* sub, SetGetFlags* flags) {
  const bool requests = sub->count("--memtier-requests") == 0 && sub->count("--test-time") == 0;
  const bool warmup = sub->count("--warmup-requests") == 0;
  const bool cooldown = sub->count("--cooldown") == 0;
  if (!requests && !warmup && !cooldown) return;
  if (requests) flags->requests = kLocalProfileRequests;
  if (warmup) flags->warmup_requests = kLocalProfileWarmupRequests;
  if (cooldown) flags->cooldown = kLocalProfileCooldown;
  core::Notef(
      "local profile: {} threads × {} clients × {} requests per connection, warmup {} per "
      "connection, cooldown {} (pass --memtier-requests / --warmup-requests / --cooldown to "
      "change)",
      flags->load.threads, flags->load.clients, flags->requests, flags->warmup_requests,
      flags->cooldown);
}

std::chrono::milliseconds ToCooldown(const std::string& cooldown) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
      OrExit(core::ParseDuration(cooldown)));
}

bool IsPositiveWholeSeconds(std::chrono::microseconds d) {
  return d >= std::chrono::seconds(1) && d % std::chrono::seconds(1) == std::chrono::seconds(0);
}

scenarios::SetGetOptions ToSetGetOptions(const SetGetFlags& flags,
                                         const std::vector<const engines::EngineSpec*>& engines) {
  scenarios::SetGetOptions o;
  o.engines = engines;
  o.load = flags.load;
  o.load.key_minimum = o.load.key_maximum > 0 ? 1u : 0u;
  o.requests = flags.requests;
  o.test_time = std::chrono::seconds(flags.test_time_sec);
  o.warmup_requests = flags.warmup_requests;
  o.client_profiles = ParseClientProfiles(flags.client_profiles, engines);
  o.loadgen_processes = flags.loadgen_processes;
  o.per_client = flags.per_client;
  CheckLoadgenProcesses(o.loadgen_processes, o.load, o.client_profiles);
  o.live_metrics = ToLiveMetrics(flags.metrics, o.loadgen_processes);
  o.trials = flags.trials;
  o.max_error_pct = flags.max_error_pct;
  o.cooldown = ToCooldown(flags.cooldown);
  o.tuning = ToTuning(flags.tuning);
  o.versions = ParseVersions(flags.versions);
  return o;
}

void AddTurnFlags(CLI::App* sub, int* trials, std::string* cooldown, std::string* output,
                  TuningFlags* tuning, Topologies topologies) {
  if (trials != nullptr) {
    AddRangedOption(sub, "--trials", trials, NumberKind::kInteger, "Measured trials per engine");
  }
  AddRangedOption(sub, "--cooldown", cooldown, NumberKind::kDuration,
                  "Pause between engines (e.g. 30s, 500ms)");
  AddOutputFlag(sub, output);
  AddTuningFlags(sub, tuning);
  if (topologies == Topologies::kAny) AddTopologyFlags(sub, tuning);
}

void AddMaxErrorPctFlag(CLI::App* sub, double* max_error_pct, std::string_view judged) {
  sub->add_option("--max-error-pct", *max_error_pct,
                  "A " + std::string(judged) +
                      " fails when more than this percentage of its requests failed, or when none "
                      "succeeded")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            // Decimal only (strtod would take "0x10" as 16).
            double v = 0;
            const char* end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, v);
            // Thrown past CLI11's own wording, as WithRange's: one line, plain numbers.
            const std::string given = "--max-error-pct \"" + text + "\" is ";
            if (text.empty() || ec != std::errc() || ptr != end || std::isnan(v)) {
              throw CLI::ConversionError(given + "not a number: use 0 to 100");
            }
            if (v < 0 || v > 100) throw CLI::ConversionError(given + "out of range: use 0 to 100");
            return "";
          },
          "[0 to 100]"));
}

void AddOutputFlag(CLI::App* sub, std::string* output) {
  const auto& names = kOutputFormatNames.names;
  std::vector<std::string> choices;
  choices.reserve(names.size());
  for (const auto& [format, name] : names) choices.emplace_back(name);
  AddChoiceFlag(sub, "--output", output, choices, "stdout format: " + kOutputFormatNames.List());
}

OutputFormat ToOutputFormat(const std::string& output) {
  return ChoiceOrExit(kOutputFormatNames, "--output", output);
}

}  // namespace dfbench::cli
