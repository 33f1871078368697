#include <cstdio>

#include "cli/commands.h"
#include "cli/provider_flags.h"
#include "cli/setup_flags.h"
#include "scenarios/lifecycle.h"

namespace dfbench::cli {
namespace {

struct SetupFlags {
  SetupTargetFlags target;
  std::string load_generator = "builtin";
  std::string dfly_bench_ref;
};

// External load generators setup finds or builds on a remote client (ResolveProvider refused
// them on local).
providers::ClientTools ToClientTools(const SetupFlags& f) {
  providers::ClientTools tools{.memtier = f.load_generator == "memtier",
                               .dfly_bench_ref = f.dfly_bench_ref};
  if (!tools.dfly_bench_ref.empty()) OrExit(providers::ValidateGitRef(tools.dfly_bench_ref));
  return tools;
}

int RunSetup(const SetupFlags& f, const CLI::App* sub) {
  const SetupTargetFlags& t = f.target;
  // Engine names first: a wrong one is the error to report, whatever the provider.
  auto engines = ParseEngines(t.engines.engines);
  scenarios::SetupOptions o =
      ToSetupOptions(t, ResolveProvider(sub, t.provider), std::move(engines));
  o.client_tools = ToClientTools(f);
  if (!PlanAndConfirm(t, &o, /*quickstart=*/false, /*keep=*/true)) return 0;
  auto created = scenarios::CreateSetup(o);
  if (!created) {
    // A stack kept after a failure is left for the user to look at: the last line says what
    // keeps billing and how to stop it.
    const auto left = scenarios::StackLeftByFailedSetup(o.id);
    if (!left) throw ExitError{created.error()};
    std::fprintf(stderr, "dfbench: %s\ndfbench: %s\n", created.error().message.c_str(),
                 providers::StillRunningLine(*left).c_str());
    return static_cast<int>(created.error().kind);
  }
  const state::SetupState& s = *created;
  std::printf("Setup %s is ready.\n", s.id.c_str());
  for (const auto& e : s.engines) {
    std::printf("  %-10s %-28s %s\n", e.name.c_str(), e.version.c_str(), e.binary.c_str());
  }
  std::printf(
      "\nNext steps:\n  dfbench run     --id %s\n  dfbench info    --id %s\n"
      "  dfbench destroy --id %s\n",
      s.id.c_str(), s.id.c_str(), s.id.c_str());
  if (s.FindHost("replica-0")) std::printf("  dfbench run-replication --id %s\n", s.id.c_str());
  if (state::IsRemote(s.provider))
    std::printf("  dfbench ssh     --id %s --target server\n", s.id.c_str());
  return 0;
}

}  // namespace

void AddSetup(CLI::App* sub, Action* action) {
  auto f = std::make_shared<SetupFlags>();
  AddSetupTargetFlags(sub, &f->target);
  AddChoiceFlag(sub, "--load-generator", &f->load_generator, {"builtin", "memtier"},
                "memtier: find memtier_benchmark on the client, or build release " +
                    std::string(providers::kMemtierRelease) +
                    " there from source (ssh); builtin needs nothing but dfbench");
  sub->add_option("--dfly-bench-ref", f->dfly_bench_ref,
                  "Find dfly_bench on the client, or build it there at this Dragonfly git ref "
                  "(ssh; for run-commands-dfly)");
  AddSetupConfirmFlags(sub, &f->target);
  sub->callback([f, action, sub] { *action = [f, sub] { return RunSetup(*f, sub); }; });
}

}  // namespace dfbench::cli
