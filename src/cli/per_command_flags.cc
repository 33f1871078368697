#include "cli/per_command_flags.h"

#include <algorithm>
#include <cctype>

#include "cli/client_profile_flags.h"
#include "cli/flag_ranges.h"
#include "core/log.h"
#include "protocol/resp_encoder.h"

namespace dfbench::cli {
namespace {

// The first flag that shapes a custom command only and holds other than its default ("" when
// none does): the reference's scripts may spell the defaults out beside --command.
std::string CustomOnlyFlagSet(const PerCommandFlags& f) {
  const PerCommandFlags d;
  if (f.command_name != d.command_name) return "--command-name";
  if (f.command_mutates != d.command_mutates) return "--command-mutates";
  if (f.command_drains != d.command_drains) return "--command-drains";
  if (f.preload_template != d.preload_template) return "--preload-template";
  if (f.preload_items != d.preload_items) return "--preload-items";
  if (f.command_key_maximum != d.command_key_maximum) return "--command-key-maximum";
  return "";
}

void Usage(const std::string& message) {
  ExitWith(core::ErrorKind::kUsage, message);
}

// Compiles a template the way every load generator reads it (kUsage names the flag).
void CheckTemplate(const std::string& flag, const std::string& text) {
  auto compiled = protocol::CommandTemplate::Compile(text);
  if (!compiled) Usage(flag + ": " + compiled.error().message);
}

std::string Upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

// The name labels results and names raw files: <engine>-<NAME>-t<N>.json.
void CheckName(const std::string& name) {
  const bool ok = !name.empty() && name.size() <= 64 &&
                  std::all_of(name.begin(), name.end(), [](unsigned char c) {
                    return std::isalnum(c) || c == '_' || c == '-' || c == '.';
                  });
  if (!ok) {
    Usage("--command-name \"" + name +
          "\" must be 1-64 letters, digits, '_', '-' or '.' (it names the result files)");
  }
}

// The key-distribution flag of the measured passes as a load generator spells it: each letter
// and its pattern, the first the default.
struct KeyFlag {
  std::string name;
  std::string help;
  std::vector<std::pair<std::string, core::KeyPattern>> letters;
};

const KeyFlag& KeyFlagOf(LoadFlagsOf spelling) {
  using enum core::KeyPattern;
  static const KeyFlag memtier{
      "--memtier-command-key-pattern",
      "Key pattern of the measured passes: R random, S sequential, P parallel, G gaussian",
      {{"R", kRandom}, {"S", kSequential}, {"P", kParallel}, {"G", kGaussian}}};
  static const KeyFlag dfly_bench{
      "--dfly-bench-key-dist",
      "dfly_bench --key_dist of the measured passes: U uniform, N normal, Z zipf, S sequential",
      {{"U", kRandom}, {"N", kGaussian}, {"Z", kZipf}, {"S", kSequential}}};
  return spelling == LoadFlagsOf::kRunCommandsDfly ? dfly_bench : memtier;
}

void AddKeyFlag(CLI::App* sub, const KeyFlag& flag, std::string* letter) {
  std::vector<std::string> letters;
  for (const auto& [l, pattern] : flag.letters) letters.push_back(l);
  *letter = letters.front();
  AddChoiceFlag(sub, flag.name, letter, letters, flag.help);
}

core::KeyPattern KeyPatternOf(const KeyFlag& flag, const std::string& letter) {
  for (const auto& [l, pattern] : flag.letters) {
    if (l == letter) return pattern;
  }
  return flag.letters.front().second;  // CLI11 took only the letters above
}

// kUsage when the key pattern is P and the key range has fewer keys than connections.
void CheckParallelPattern(const scenarios::CommandOptions& o) {
  if (o.load.key_pattern != core::KeyPattern::kParallel) return;
  const uint64_t keys = o.command.KeyRange(o.load.key_maximum);
  const uint64_t connections = static_cast<uint64_t>(o.load.threads) * o.load.clients;
  if (keys < connections) {
    Usage("key pattern P needs at least one key per connection (" + std::to_string(keys) +
          " keys, " + std::to_string(connections) + " connections)");
  }
}

scenarios::CommandProfile CustomProfile(const PerCommandFlags& f) {
  const std::string& text = f.command_template;
  CheckTemplate("--command-template", text);
  scenarios::CommandProfile c;
  c.tmpl = text;
  // Empty values are the defaults, given or not (the reference's defaults are "").
  c.name = !f.command_name.empty() ? f.command_name
                                   : Upper(protocol::CommandTemplate::Compile(text)->name());
  CheckName(c.name);
  c.drains = f.command_drains;
  c.mutates = f.command_mutates || f.command_drains;
  if (f.preload_items != 1 && f.preload_template.empty()) {
    Usage("--preload-items needs --preload-template");
  }
  if (!f.preload_template.empty()) {
    if (f.preload_template.find("__key__") == std::string::npos) {
      Usage("--preload-template must contain __key__");
    }
    c.preload = {.head = f.preload_template, .items = f.preload_items};
    for (const auto& pass : c.preload.PassTemplates()) CheckTemplate("--preload-template", pass);
  }
  if (f.preload_items > 1 && f.command_key_maximum == 0) {
    Usage(
        "--command-key-maximum is required when --preload-items > 1 (a multi-item preload "
        "must not run against the whole --key-maximum range)");
  }
  c.key_maximum = f.command_key_maximum;
  return c;
}

}  // namespace

bool PerCommandFlags::Given(const std::string& flag) const {
  return sub->count(flag) > 0;
}

void AddPerCommandFlags(CLI::App* sub, PerCommandFlags* f, LoadFlagsOf spelling) {
  f->spelling = spelling;
  f->sub = sub;
  sub->add_option("--command", f->command,
                  "A built-in command: " + scenarios::BuiltinCommandNames());
  sub->add_option("--command-template", f->command_template,
                  "A custom command instead, with __key__ and __data__ placeholders, e.g. "
                  "\"SETEX __key__ 3600 __data__\"");
  sub->add_option("--command-name", f->command_name,
                  "Custom command: its label in results and file names (default: its first word)");
  AddBoolFlag(sub, "--command-mutates", &f->command_mutates,
              "Custom command: it changes the keyspace (flush + preload before every trial)");
  AddBoolFlag(sub, "--command-drains", &f->command_drains,
              "Custom command: it empties the preloaded keyspace (implies --command-mutates; "
              "results are marked approximate)");
  sub->add_option("--preload-template", f->preload_template,
                  "Custom command: the preload request, e.g. \"SET __key__ __data__\"; __item__ "
                  "is replaced by the item number (1..N) of each pass");
  using enum NumberKind;
  AddRangedOption(sub, "--preload-items", &f->preload_items, kInteger,
                  "Custom command: items per key (one preload pass each)");
  WithRange(sub->add_option("--command-key-maximum", f->command_key_maximum,
                            "Custom command: its key range (0, the default: --key-maximum); "
                            "required when --preload-items > 1"),
            kInteger);
  AddRangedOption(sub, "--key-maximum", &f->load.key_maximum, kInteger,
                  "Keys 1..N. Multi-item preloads (lists, sets, hashes, sorted sets) use "
                  "at most 1000000 keys, or --key-maximum when smaller (a small value "
                  "keeps a smoke run small)");
  AddRangedOption(sub, "--test-time", &f->test_time_sec, kInteger,
                  "Seconds of measured load per trial");
  AddRangedOption(sub, "--warmup-time", &f->warmup_time_sec, kInteger,
                  "Seconds of discarded warmup load per engine (0 disables)");
  AddTurnFlags(sub, &f->trials, &f->cooldown, &f->output, &f->tuning);
  AddMaxErrorPctFlag(sub, &f->max_error_pct);
  AddVersionFlags(sub, &f->versions, VersionFlagsOf::kRun);
  AddLoadFlags(sub, &f->load, spelling);
  AddKeyFlag(sub, KeyFlagOf(spelling), &f->key_letter);
  AddClientProfileFlag(sub, &f->client_profiles);
  if (spelling != LoadFlagsOf::kRunCommandsDfly) {
    // dfly_bench's reports hold no histogram to merge.
    AddLoadgenProcessesFlag(sub, &f->loadgen_processes, &f->per_client);
    AddBenchMetricsFlags(sub, &f->metrics);
  }
}

scenarios::CommandOptions ToCommandOptions(const PerCommandFlags& f, const std::string& engines) {
  // An empty one is not given: "" is the reference's default of both.
  const bool builtin = !f.command.empty(), custom = !f.command_template.empty();
  if (builtin && custom) Usage("--command and --command-template are mutually exclusive");
  if (!builtin && !custom) {
    Usage("give --command NAME (" + scenarios::BuiltinCommandNames() +
          ") or --command-template \"...\"");
  }
  scenarios::CommandOptions o;
  if (builtin) {
    if (const std::string flag = CustomOnlyFlagSet(f); !flag.empty()) {
      Usage(flag + " applies to --command-template only");
    }
    const auto* profile = scenarios::FindBuiltinCommand(f.command);
    if (!profile) {
      Usage("unknown command \"" + f.command + "\" (built-in: " + scenarios::BuiltinCommandNames() +
            "; use --command-template for others)");
    }
    o.command = *profile;
  } else {
    o.command = CustomProfile(f);
  }
  o.engines = ParseEngines(engines);
  for (const auto* e : o.engines) {
    if (e->protocol != core::Protocol::kRedis) {
      Usage(e->name +
            " does not speak the Redis protocol; per-command runs need dragonfly, "
            "redis or valkey");
    }
    if (e->sharded && !f.Given("--dragonfly_num_shards") && !f.Given("--num-shards")) {
      Usage(
          "--dragonfly_num_shards is required when dragonfly is among the engines (-1: derived "
          "from the CPUs, 0: Dragonfly's default, >0: explicit)");
    }
  }
  if (f.spelling == LoadFlagsOf::kRunCommandsDfly && (f.tuning.tls || f.tuning.acl_user)) {
    Usage(std::string(f.tuning.tls ? "--tls" : "--acl-user") +
          ": dfly_bench is not driven over TLS or with a user; use run-commands");
  }
  o.load = f.load;
  o.load.key_pattern = KeyPatternOf(KeyFlagOf(f.spelling), f.key_letter);
  o.test_time = std::chrono::seconds(f.test_time_sec);
  o.warmup_time = std::chrono::seconds(f.warmup_time_sec);
  o.trials = f.trials;
  o.max_error_pct = f.max_error_pct;
  o.cooldown = ToCooldown(f.cooldown);
  o.tuning = ToTuning(f.tuning);
  o.versions = ParseVersions(f.versions);
  o.client_profiles = ParseClientProfiles(f.client_profiles, o.engines);
  o.loadgen_processes = f.loadgen_processes;
  o.per_client = f.per_client;
  CheckLoadgenProcesses(o.loadgen_processes, o.load, o.client_profiles);
  o.live_metrics = ToLiveMetrics(f.metrics, o.loadgen_processes);
  CheckParallelPattern(o);
  return o;
}

}  // namespace dfbench::cli
