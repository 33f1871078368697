// --provider, and which flag of setup and quickstart works with which provider: one table (the
// flag, the providers that take it, the advice when another one is chosen) and one check.
#pragma once

#include <string>

#include "cli/command.h"
#include "state/provider_kind.h"

namespace dfbench::cli {

// --provider of setup and quickstart (local, ssh, aws or endpoint).
void AddProviderFlag(CLI::App* sub, std::string* provider);

// The provider a command works with: --provider when given; else aws when an AWS fleet flag is
// given, endpoint when an endpoint flag is; else DFBENCH_PROVIDER (for users who only use AWS);
// else local. Then refuses, with kUsage and one line naming the flag and what to do instead, the
// first flag given that this provider does not take (an AWS fleet flag but --replicas off aws, an
// SSH host flag off ssh, a tool setup builds on a remote client on local), or an unknown
// DFBENCH_PROVIDER.
state::ProviderKind ResolveProvider(const CLI::App* sub, const std::string& provider_flag);

}  // namespace dfbench::cli
