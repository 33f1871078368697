#include "hosts/dfbench_builds.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <filesystem>

#include "core/subprocess.h"
#include "hosts/remote_facts.h"

namespace dfbench::hosts {

std::string ClientBuildName(const std::string& arch) {
  return "dfbench-linux-" + CanonicalArch(arch);
}

core::Result<std::string> DfbenchBinaryForArch(const std::string& host_arch,
                                               const std::string& self,
                                               const std::string& self_arch) {
  const std::string arch = CanonicalArch(host_arch);
  if (arch == CanonicalArch(self_arch)) return self;
  const std::string build =
      (std::filesystem::path(self).parent_path() / ClientBuildName(arch)).string();
  if (access(build.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(build)) return build;
  // Only aarch64 has a cross build script; another architecture needs a build made there.
  const std::string how =
      arch == "aarch64"
          ? "make it with scripts/build-arm64.sh (in the dfbench source tree; it needs "
            "g++-aarch64-linux-gnu)"
          : "build dfbench with -DDFBENCH_CLIENT_ONLY=ON on a Linux " + arch +
                " machine and copy its dfbench-client there";
  return core::Fail(core::ErrorKind::kEnvironment,
                    "no dfbench load generator for Linux " + arch + " (this dfbench is built for " +
                        CanonicalArch(self_arch) + "): " + build + " is missing; " + how);
}

core::Result<std::string> DfbenchBinaryForArch(const std::string& host_arch) {
  struct utsname u;
  const std::string self_arch = uname(&u) == 0 ? std::string(u.machine) : "";
  return DfbenchBinaryForArch(host_arch, core::SelfExecutable(), self_arch);
}

}  // namespace dfbench::hosts
