// Before a fleet is paid for: the load generator the aws provider will upload to the client
// must exist here for the architecture the client will be (hosts/dfbench_builds.h chooses it
// again when the client answers, from its uname -m).
#pragma once

#include <string>
#include <vector>

#include "aws/template.h"
#include "core/error.h"

namespace dfbench::providers {

// The local dfbench file a Linux client of `arch` runs. kEnvironment, one line naming the
// missing file and the command that makes it, when there is none.
core::Result<std::string> LoadgenForArch(aws::Arch arch);

// The architectures `client` may turn out to be: its --client-arch, and its instance family's
// when that differs (c7g is arm64 whatever the flag says).
std::vector<aws::Arch> ClientArchs(const aws::InstanceSpec& client);

// LoadgenForArch for each of ClientArchs(client): the first error, else ok.
core::Status CheckClientLoadgen(const aws::InstanceSpec& client);

}  // namespace dfbench::providers
