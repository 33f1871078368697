#include <cstdio>

#include "cli/commands.h"
#include "cli/provider_flags.h"
#include "cli/setup_flags.h"
#include "scenarios/setup/lifecycle.h"

namespace dfbench::cli {
namespace {

struct SetupFlags {
  SetupTargetFlags target;
  std::string load_generator;  // "": as the reference, both tools if the client can have them
  std::string dfly_bench_ref = providers::kDflyBenchDefaultRef;
  bool force = false;
};

// External load generators setup finds or builds on a remote client, as the reference's setup:
// memtier_benchmark and dfly_bench, each when the client can build it. Named on the command
// line, a tool is required; --load-generator builtin asks for neither (unless --dfly-bench-ref
// is given). This machine gets none (ResolveProvider refused the flags there).
providers::ClientTools ToClientTools(const SetupFlags& f, state::ProviderKind provider,
                                     const CLI::App* sub) {
  using providers::ToolNeed;
  if (!state::IsRemote(provider)) return {};
  const bool ref_given = sub->get_option("--dfly-bench-ref")->count() > 0;
  const bool plain = f.load_generator.empty();
  providers::ClientTools tools{.memtier = f.load_generator == "memtier" ? ToolNeed::kRequired
                                          : plain                       ? ToolNeed::kIfBuildable
                                                                        : ToolNeed::kNone,
                               .dfly_bench = ref_given ? ToolNeed::kRequired
                                             : plain   ? ToolNeed::kIfBuildable
                                                       : ToolNeed::kNone,
                               .dfly_bench_ref = f.dfly_bench_ref};
  if (tools.dfly_bench != ToolNeed::kNone) OrExit(providers::ValidateGitRef(tools.dfly_bench_ref));
  return tools;
}

int RunSetup(const SetupFlags& f, const CLI::App* sub) {
  const SetupTargetFlags& t = f.target;
  // Engine names first: a wrong one is the error to report, whatever the provider.
  auto engines = ParseEngines(t.engines.engines);
  scenarios::SetupOptions o =
      ToSetupOptions(t, ResolveProvider(sub, t.provider), std::move(engines));
  o.client_tools = ToClientTools(f, o.provider, sub);
  o.if_corrupt = {.force = f.force, .how_to_force = "--force"};
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
                "ssh, aws: by default memtier_benchmark (release " +
                    std::string(providers::kMemtierRelease) +
                    ") and dfly_bench are found on the client or built there from source when "
                    "it can, else recorded as not installed; memtier: memtier_benchmark is "
                    "required; builtin: neither, nothing but dfbench");
  sub->add_option("--dfly-bench-ref", f->dfly_bench_ref,
                  "Dragonfly git ref dfly_bench is built at on the client (ssh, aws); given, "
                  "dfly_bench is required")
      ->capture_default_str();
  AddBoolFlag(sub, "--force", &f->force,
              "Replace a setup of this --id whose state.json cannot be read (list shows it "
              "\"corrupt\"); without it, setup refuses");
  AddSetupConfirmFlags(sub, &f->target);
  sub->callback([f, action, sub] { *action = [f, sub] { return RunSetup(*f, sub); }; });
}

}  // namespace dfbench::cli
