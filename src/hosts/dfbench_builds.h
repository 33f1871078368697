// Which local dfbench file a Linux host of a given architecture runs (the load generator on a
// client): this executable on its own architecture, else the client build beside it,
// `dfbench-linux-<arch>` (scripts/build-arm64.sh makes dfbench-linux-aarch64).
#pragma once

#include <string>

#include "core/error.h"

namespace dfbench::hosts {

// "dfbench-linux-aarch64": the file name of the client build for `arch` (uname -m spelling).
std::string ClientBuildName(const std::string& arch);

// The local file to run on a Linux host of `host_arch` (any uname -m spelling): `self` when
// that is `self_arch`, else ClientBuildName in the directory of `self` when it is an executable
// file there. kEnvironment otherwise: one line naming the missing file and how to make it.
core::Result<std::string> DfbenchBinaryForArch(const std::string& host_arch,
                                               const std::string& self,
                                               const std::string& self_arch);

// The same for this process: core::SelfExecutable(), built for this machine's uname -m.
core::Result<std::string> DfbenchBinaryForArch(const std::string& host_arch);

}  // namespace dfbench::hosts
