#include "providers/client_build.h"

#include "aws/instance_types.h"
#include "hosts/dfbench_builds.h"

namespace dfbench::providers {

core::Result<std::string> LoadgenForArch(aws::Arch arch) {
  // EC2 says arm64 where uname -m says aarch64.
  return hosts::DfbenchBinaryForArch(arch == aws::Arch::kArm64 ? "aarch64" : "x86_64");
}

std::vector<aws::Arch> ClientArchs(const aws::InstanceSpec& client) {
  std::vector<aws::Arch> archs = {client.arch};
  if (auto family = aws::FamilyArch(client.type); family && *family != client.arch) {
    archs.push_back(*family);
  }
  return archs;
}

core::Status CheckClientLoadgen(const aws::InstanceSpec& client) {
  for (aws::Arch arch : ClientArchs(client)) {
    if (auto binary = LoadgenForArch(arch); !binary) {
      return tl::unexpected(core::WithContext(
          binary.error(), "client " + client.type + " (" + aws::ArchName(arch) + ")"));
    }
  }
  return core::Ok();
}

}  // namespace dfbench::providers
