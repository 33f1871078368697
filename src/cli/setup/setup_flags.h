// The flags setup and quickstart share (which setup, where its hosts come from, which engines,
// the confirmation) and the steps between them and a confirmed setup request: the setup id,
// the AWS fleet plan, the plan shown, --dry-run and the prompt. Then setup's own flags and the
// rules that turn them into its options.
#pragma once

#include <string>
#include <vector>

#include "cli/aws_flags.h"
#include "cli/command.h"
#include "cli/endpoint_flags.h"
#include "cli/flags.h"
#include "cli/ssh/ssh_flags.h"
#include "providers/client_tools.h"
#include "scenarios/setup/lifecycle.h"

namespace dfbench::cli {

struct SetupTargetFlags {
  std::string id;
  std::string provider;  // "": ResolveProvider decides
  EngineFlags engines;
  SshFlags ssh;
  AwsFleetFlags fleet;
  EndpointFlags endpoint;
  std::string ssh_wait = "10m";  // aws: how long new instances get to accept the key over SSH
  std::string ssh_cidr;          // aws: "" = this machine's public address /32, found at setup
  int port = 0;
  bool no_pin = false;
  bool yes = false;
  bool dry_run = false;
};

// --id, --provider, the engine flags (with every --<engine>_version), the SSH hosts' flags, the
// AWS fleet flags (with --ssh-wait), the endpoint flags and --port, in that order.
void AddSetupTargetFlags(CLI::App* sub, SetupTargetFlags* flags);
// --no-pin, --yes and --dry-run.
void AddSetupConfirmFlags(CLI::App* sub, SetupTargetFlags* flags);

// The setup `flags` ask for on `provider` (ResolveProvider's), with `engines` parsed from them
// (each command checks the names first: a wrong one is the error to report, whatever the
// provider); the SSH hosts' flags applied (ApplySshFlags).
scenarios::SetupOptions ToSetupOptions(const SetupTargetFlags& flags, state::ProviderKind provider,
                                       std::vector<const engines::EngineSpec*> engines);

// Names the setup (a timestamp when --id is not given), applies the AWS fleet flags and shows
// the plan of `options` (quickstart: then benchmark and, unless `keep`, destroy). False after
// a --dry-run (the caller stops, exit 0); true once the user agreed where hosts change. Exits
// on bad input or a refusal, and (exit 5) for an aws client with no load generator for its
// architecture beside this dfbench (providers/client_build.h), before any AWS call.
bool PlanAndConfirm(const SetupTargetFlags& flags, scenarios::SetupOptions* options,
                    bool quickstart, bool keep);

// `setup` itself: the shared flags and the load generators it finds or builds on a remote
// client.
struct SetupFlags {
  SetupTargetFlags target;
  std::string load_generator;  // "": as the reference, both tools if the client can have them
  std::string dfly_bench_ref = providers::kDflyBenchDefaultRef;
  bool force = false;
};

// Every flag of setup: the target flags, --load-generator, --dfly-bench-ref, --force, then the
// confirmation.
void AddSetupFlags(CLI::App* sub, SetupFlags* flags);

// The engines, the provider resolved from the flags given on `sub` (ResolveProvider, which
// refuses a flag of another provider with its advice), ToSetupOptions, the client's tools and
// --force; throws ExitError with one line. The plan and the prompt come after
// (PlanAndConfirm).
scenarios::SetupOptions ToSetupCommandOptions(const SetupFlags& flags, const CLI::App* sub);

}  // namespace dfbench::cli
