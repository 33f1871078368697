#include "cli/setup/setup_flags.h"

#include <chrono>

#include "aws/caller_address.h"
#include "cli/confirm.h"
#include "cli/flag_ranges.h"
#include "cli/plan.h"
#include "cli/provider_flags.h"
#include "core/clock.h"
#include "core/time_format.h"
#include "core/units.h"
#include "providers/client_build.h"
#include "providers/provider.h"

namespace dfbench::cli {
namespace {

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
  const bool memtier = !plain && ToLoadGenerator(f.load_generator) == core::LoadGenerator::kMemtier;
  providers::ClientTools tools{.memtier = memtier ? ToolNeed::kRequired
                                          : plain ? ToolNeed::kIfBuildable
                                                  : ToolNeed::kNone,
                               .dfly_bench = ref_given ? ToolNeed::kRequired
                                             : plain   ? ToolNeed::kIfBuildable
                                                       : ToolNeed::kNone,
                               .dfly_bench_ref = f.dfly_bench_ref};
  if (tools.dfly_bench != ToolNeed::kNone) OrExit(providers::ValidateGitRef(tools.dfly_bench_ref));
  return tools;
}

}  // namespace

void AddSetupTargetFlags(CLI::App* sub, SetupTargetFlags* f) {
  sub->add_option("--id", f->id, "Setup name (default: a timestamp)");
  AddProviderFlag(sub, &f->provider);
  AddEngineFlags(sub, &f->engines);
  AddSshFlags(sub, &f->ssh);
  AddAwsFleetFlags(sub, &f->fleet);
  {
    const FlagGroup group(sub, "AWS fleet");
    AddRangedOption(sub, "--ssh-wait", &f->ssh_wait, NumberKind::kDuration,
                    "How long new instances get to accept SSH before setup fails (30s, 10m)");
    sub->add_option("--ssh-cidr", f->ssh_cidr,
                    "The only IPv4 block SSH (22) to the fleet is open to (default: this "
                    "machine's public address /32, asked of checkip.amazonaws.com at setup)");
  }
  AddEndpointFlags(sub, &f->endpoint);
  AddPortFlag(sub, &f->port);
}

void AddSetupConfirmFlags(CLI::App* sub, SetupTargetFlags* f) {
  AddBoolFlag(sub, "--no-pin", &f->no_pin,
              "Local provider: do not split the CPUs between engine and load generator");
  AddYesFlag(sub, &f->yes);
  AddBoolFlag(sub, "--dry-run", &f->dry_run,
              "Print the plan and stop after setup's checks: nothing is created, here or on the "
              "hosts (aws: the template is saved as stack.yaml, no AWS call; endpoint: each "
              "endpoint is met, read-only)");
}

scenarios::SetupOptions ToSetupOptions(const SetupTargetFlags& f, state::ProviderKind provider,
                                       std::vector<const engines::EngineSpec*> engines) {
  scenarios::SetupOptions o;
  o.id = f.id;
  o.provider = provider;
  o.engines = std::move(engines);
  o.binaries = f.engines.binaries;
  o.versions = ParseVersions(f.engines.versions);
  o.pin_cpus = !f.no_pin;
  o.engine_port = f.port;
  ApplySshFlags(f.ssh, &o);
  ApplyEndpointFlags(f.endpoint, &o);
  return o;
}

bool PlanAndConfirm(const SetupTargetFlags& f, scenarios::SetupOptions* o, bool quickstart,
                    bool keep) {
  if (o->id.empty()) o->id = core::FormatTimestampId(core::RealClock().WallNow());
  OrExit(state::ValidateId(o->id));
  ApplyAwsFleetFlags(f.fleet, o);
  if (o->provider == state::ProviderKind::kAws) {
    const auto wait = core::ParseDuration(f.ssh_wait);
    if (!wait || wait->count() <= 0) {
      ExitWith(core::ErrorKind::kUsage,
               "--ssh-wait " + f.ssh_wait + ": a positive duration, e.g. 30s or 10m");
    }
    o->aws.ssh_wait = std::chrono::ceil<std::chrono::seconds>(*wait);
    if (!f.ssh_cidr.empty() && !aws::IsIpv4Cidr(f.ssh_cidr)) {
      ExitWith(core::ErrorKind::kUsage,
               "--ssh-cidr " + f.ssh_cidr + ": an IPv4 block such as 203.0.113.7/32");
    }
    o->aws.ssh_cidr = f.ssh_cidr;
    // Before the plan is confirmed and any AWS call: a client with no load generator to upload
    // would only be found out once the stack is up and billed.
    OrExit(providers::CheckClientLoadgen(o->aws.client));
  }
  // What the provider refuses without reaching anything (a malformed endpoint URL, a file that
  // cannot be read), refused before the plan: one line, and a dry run says it too.
  OrExit(providers::MakeProvider(o->provider)->CheckRequest(*o));
  const std::string plan = SetupPlan(*o, quickstart, keep);
  if (f.dry_run) {
    DryRun(*o, plan);
    return false;
  }
  if (state::ChangesHosts(o->provider)) OrExit(Confirm(plan, f.yes));
  return true;
}

void AddSetupFlags(CLI::App* sub, SetupFlags* f) {
  AddSetupTargetFlags(sub, &f->target);
  AddChoiceFlag(sub, "--load-generator", &f->load_generator,
                ChoicesOf(core::kLoadGeneratorNames,
                          {core::LoadGenerator::kBuiltin, core::LoadGenerator::kMemtier}),
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
}

scenarios::SetupOptions ToSetupCommandOptions(const SetupFlags& f, const CLI::App* sub) {
  const SetupTargetFlags& t = f.target;
  // Engine names first: a wrong one is the error to report, whatever the provider.
  auto engines = ParseEngines(t.engines.engines);
  scenarios::SetupOptions o =
      ToSetupOptions(t, ResolveProvider(sub, t.provider), std::move(engines));
  o.client_tools = ToClientTools(f, o.provider, sub);
  o.if_corrupt = {.force = f.force, .how_to_force = "--force"};
  return o;
}

}  // namespace dfbench::cli
