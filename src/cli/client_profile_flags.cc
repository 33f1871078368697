#include "cli/client_profile_flags.h"

#include <charconv>

#include "cli/bool_flag.h"
#include "cli/flag_ranges.h"
#include "cli/flags.h"
#include "core/format.h"
#include "core/load_limits.h"

namespace dfbench::cli {
namespace {

constexpr const char* kShape = "ENGINE:threads=N,clients=N,pipeline=N";

[[noreturn]] void Bad(const std::string& given, const std::string& why) {
  ExitWith(core::ErrorKind::kUsage, "--client-profile \"" + given + "\": " + why);
}

struct Setting {
  const char* name;
  int core::ClientProfile::*member;
  core::LoadLimit limit;
};
constexpr Setting kSettings[] = {
    {"threads", &core::ClientProfile::threads, core::kThreadsLimit},
    {"clients", &core::ClientProfile::clients, core::kClientsLimit},
    {"pipeline", &core::ClientProfile::pipeline, core::kPipelineLimit}};

// One "name=value" of `given`'s list into `profile`.
void ParseSetting(const std::string& given, std::string_view item, core::ClientProfile* profile) {
  const size_t eq = item.find('=');
  const std::string_view name = item.substr(0, eq);
  const Setting* setting = nullptr;
  for (const auto& s : kSettings) {
    if (name == s.name) setting = &s;
  }
  if (eq == std::string_view::npos || setting == nullptr) {
    Bad(given, "\"" + std::string(item) + "\" is not threads=N, clients=N or pipeline=N");
  }
  const std::string_view text = item.substr(eq + 1);
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < setting->limit.min ||
      value > setting->limit.max) {
    Bad(given, core::Format("{} must be a whole number from {} to {}", setting->name,
                            setting->limit.min, setting->limit.max));
  }
  if (profile->*setting->member != 0) Bad(given, std::string(setting->name) + " given twice");
  profile->*setting->member = value;
}

}  // namespace

void AddClientProfileFlag(CLI::App* sub, std::vector<std::string>* profiles) {
  sub->add_option("--client-profile", *profiles,
                  std::string(kShape) +
                      ": drive that engine with its own threads, clients per thread and pipeline "
                      "(repeat per engine; left out: the run's). Recorded and marked in the "
                      "results: the engines then do not get the same load")
      ->type_name("PROFILE");
}

void AddLoadgenProcessesFlag(CLI::App* sub, int* processes, bool* per_client) {
  AddRangedOption(sub, "--loadgen-processes", processes, NumberKind::kInteger,
                  "Load generator processes on the client, each on its share of the client's "
                  "CPUs: the threads split among them, their histograms merged exactly");
  AddBoolFlag(sub, "--per-client", per_client,
              "With several load generators, the table also shows each one's part of each "
              "trial (results.json always holds them)");
}

void CheckLoadgenProcesses(int processes, const core::Load& load,
                           const std::map<std::string, core::ClientProfile>& profiles) {
  if (processes <= 1) return;
  const auto check = [&](const core::Load& l, const std::string& whose) {
    if (l.threads < processes) {
      ExitWith(core::ErrorKind::kUsage,
               core::Format("--loadgen-processes {} needs a thread per process ({} has {})",
                            processes, whose, l.threads));
    }
  };
  check(load, "the run's load");
  for (const auto& [engine, profile] : profiles) {
    check(profile.AppliedTo(load), engine + "'s client profile");
  }
}

std::map<std::string, core::ClientProfile> ParseClientProfiles(
    const std::vector<std::string>& given, const std::vector<const engines::EngineSpec*>& engines) {
  std::map<std::string, core::ClientProfile> profiles;
  for (const std::string& text : given) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos || colon + 1 == text.size()) {
      Bad(text, std::string("expected ") + kShape);
    }
    const std::string engine = text.substr(0, colon);
    bool running = false;
    for (const auto* e : engines) running = running || e->name == engine;
    if (!running) Bad(text, engine + " is not among the engines of this run");
    if (profiles.contains(engine)) Bad(text, engine + " has a profile already");
    core::ClientProfile profile;
    std::string_view rest = std::string_view(text).substr(colon + 1);
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      ParseSetting(text, rest.substr(0, comma), &profile);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    profiles[engine] = profile;
  }
  return profiles;
}

}  // namespace dfbench::cli
