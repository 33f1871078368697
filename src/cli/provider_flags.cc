#include "cli/provider_flags.h"

#include <array>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "core/load_generator.h"

namespace dfbench::cli {
namespace {

using state::ProviderKind;

// What a refusal tells the user; each kind words it once.
enum class Advice {
  kFleet,         // an AWS fleet flag: needs --provider aws
  kSshHosts,      // names or logs in to hosts the user owns: needs --provider ssh
  kRemoteClient,  // setup finds or builds a tool on a remote client
  kEndpoint,      // names a server the user runs: needs --provider endpoint
};

constexpr unsigned Bit(ProviderKind p) {
  return 1u << static_cast<unsigned>(p);
}
constexpr unsigned kAws = Bit(ProviderKind::kAws);
constexpr unsigned kSsh = Bit(ProviderKind::kSsh);
constexpr unsigned kLocal = Bit(ProviderKind::kLocal);
constexpr unsigned kEndpoint = Bit(ProviderKind::kEndpoint);

struct FlagRule {
  std::array<std::string_view, 6> flags;  // unused places stay empty
  unsigned providers;                     // Bit()s of the providers that take them
  Advice advice;                          // what a refusal says
  std::string_view value;                 // refused only with this value ("" = any)
  std::string_view command;               // only on this command ("" = any that has the flag)
};

// In the order refusals are checked: the first flag given that the provider does not take
// is the one named.
constexpr FlagRule kFlagRules[] = {
    {{"--server-instance", "--client-instance", "--server-arch", "--client-arch"},
     kAws,
     Advice::kFleet},
    // On this machine --replicas starts replica engines (for run-replication).
    {{"--replicas"}, kAws | kLocal, Advice::kFleet},
    {{"--client-count", "--replica-instance", "--replica-arch", "--ubuntu-version", "--region",
      "--ssh-wait"},
     kAws,
     Advice::kFleet},
    {{"--ssh-cidr"}, kAws, Advice::kFleet},
    {{"--server", "--client", "--replica", "--server-private-ip", "--client-private-ip",
      "--replica-private-ip"},
     kSsh,
     Advice::kSshHosts},
    // AWS instances are SSH hosts too, at addresses and with a key the stack gives.
    {{"--ssh-user"}, kSsh | kAws, Advice::kSshHosts},
    {{"--ssh-key", "--ssh-port"}, kSsh, Advice::kSshHosts},
    {{"--tune-network"}, kSsh | kAws, Advice::kSshHosts},
    // quickstart's --load-generator memtier runs a binary given there or built by setup.
    {{"--load-generator"},
     kSsh | kAws,
     Advice::kRemoteClient,
     core::kLoadGeneratorNames.Name(core::LoadGenerator::kMemtier),
     "setup"},
    {{"--dfly-bench-ref"}, kSsh | kAws, Advice::kRemoteClient, "", "setup"},
    {{"--endpoint", "--password-env", "--password-file", "--allow-flush", "--cacert", "--cert"},
     kEndpoint,
     Advice::kEndpoint},
    {{"--key", "--sni", "--tls-skip-verify"}, kEndpoint, Advice::kEndpoint},
};

// The first of the rule's flags given on the command line ("" when none is).
std::string FirstGiven(const CLI::App* sub, const FlagRule& rule) {
  if (!rule.command.empty() && sub->get_name() != rule.command) return "";
  for (const std::string_view name : rule.flags) {
    if (name.empty()) break;
    std::string flag(name);
    const CLI::Option* option = sub->get_option_no_throw(flag);
    if (option == nullptr || option->count() == 0) continue;
    if (rule.value.empty() || option->as<std::string>() == rule.value) return flag;
  }
  return "";
}

std::string Refusal(const FlagRule& rule, const std::string& flag, ProviderKind provider) {
  const std::string name = state::ToString(provider);
  switch (rule.advice) {
    case Advice::kFleet:
      return flag + " is an AWS fleet flag: it needs --provider aws, not --provider " + name;
    case Advice::kSshHosts:
      return flag + " needs --provider ssh (" +
             (state::LaunchesHosts(provider) ? "the aws provider launches its hosts and makes "
                                               "their key"
                                             : "the local provider uses this machine") +
             ")";
    case Advice::kRemoteClient:
      return flag + (rule.value.empty() ? "" : " " + std::string(rule.value)) +
             " needs a remote client (--provider ssh); on this machine install the tool "
             "yourself and pass its path to run";
    case Advice::kEndpoint:
      return flag + " is for servers dfbench does not run: it needs --provider endpoint, not " +
             "--provider " + name;
  }
  return flag + " does not work with --provider " + name;
}

std::vector<std::string> ProviderWords() {
  std::vector<std::string> words;
  for (const auto& [kind, word] : state::kProviderNames.names) words.emplace_back(word);
  return words;
}

ProviderKind Choose(const CLI::App* sub, const std::string& provider_flag) {
  if (!provider_flag.empty()) return *state::kProviderNames.Parse(provider_flag);
  for (const FlagRule& rule : kFlagRules) {
    if (rule.advice == Advice::kFleet && !FirstGiven(sub, rule).empty()) return ProviderKind::kAws;
    if (rule.advice == Advice::kEndpoint && !FirstGiven(sub, rule).empty()) {
      return ProviderKind::kEndpoint;
    }
  }
  const char* env = std::getenv("DFBENCH_PROVIDER");
  if (env == nullptr || *env == '\0') return ProviderKind::kLocal;
  const auto from_env = state::kProviderNames.Parse(env);
  if (!from_env) {
    ExitWith(core::ErrorKind::kUsage,
             std::string("DFBENCH_PROVIDER=") + env + ": use " + state::kProviderNames.List());
  }
  return *from_env;
}

}  // namespace

void AddProviderFlag(CLI::App* sub, std::string* provider) {
  sub->add_option("--provider", *provider,
                  "Where the hosts come from: local, ssh, aws, or endpoint (servers you run, "
                  "named by --endpoint) (default: aws when an AWS fleet flag is given, endpoint "
                  "when --endpoint is, else $DFBENCH_PROVIDER, else local)")
      ->check(CLI::IsMember(ProviderWords()));
}

ProviderKind ResolveProvider(const CLI::App* sub, const std::string& provider_flag) {
  const ProviderKind provider = Choose(sub, provider_flag);
  for (const FlagRule& rule : kFlagRules) {
    if ((rule.providers & Bit(provider)) != 0) continue;
    if (const std::string flag = FirstGiven(sub, rule); !flag.empty()) {
      ExitWith(core::ErrorKind::kUsage, Refusal(rule, flag, provider));
    }
  }
  return provider;
}

}  // namespace dfbench::cli
