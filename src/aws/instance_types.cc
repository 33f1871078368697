#include "aws/instance_types.h"

#include <cctype>

namespace dfbench::aws {
namespace {

bool IsDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The family's letters after its generation digits ("gn" of "c6gn", "" of "c5"); nullopt when
// the family has no generation digit.
std::optional<std::string_view> Attributes(std::string_view family) {
  size_t i = 0;
  while (i < family.size() && !IsDigit(family[i])) ++i;
  if (i == 0 || i == family.size()) return std::nullopt;
  while (i < family.size() && IsDigit(family[i])) ++i;
  return family.substr(i);
}

}  // namespace

std::optional<Arch> ParseArch(std::string_view name) {
  if (name == "x86_64") return Arch::kX86_64;
  if (name == "arm64") return Arch::kArm64;
  return std::nullopt;
}

const char* ArchName(Arch arch) {
  return arch == Arch::kArm64 ? "arm64" : "x86_64";
}

const char* UbuntuArchName(Arch arch) {
  return arch == Arch::kArm64 ? "arm64" : "amd64";
}

std::string InstanceFamily(std::string_view instance_type) {
  const size_t dot = instance_type.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == instance_type.size()) return "";
  const std::string_view family = instance_type.substr(0, dot);
  if (!Attributes(family)) return "";
  for (char c : instance_type) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') return "";
  }
  return std::string(family);
}

std::optional<Arch> FamilyArch(std::string_view instance_type) {
  const std::string family = InstanceFamily(instance_type);
  if (family.empty()) return std::nullopt;
  if (family == "a1" || family.rfind("mac2", 0) == 0) return Arch::kArm64;
  const std::string_view attrs = *Attributes(family);
  return !attrs.empty() && attrs.front() == 'g' ? Arch::kArm64 : Arch::kX86_64;
}

core::Status ValidateClusterPlacement(std::string_view instance_type, std::string_view flag) {
  const std::string family = InstanceFamily(instance_type);
  if (family.empty()) {
    return core::Fail(core::ErrorKind::kUsage,
                      std::string(flag) + " " + std::string(instance_type) +
                          ": not an EC2 instance type (FAMILY.SIZE, e.g. c6i.2xlarge)");
  }
  const bool burstable = family[0] == 't' && IsDigit(family[1]);
  if (burstable || family == "a1" || family.rfind("mac", 0) == 0) {
    return core::Fail(core::ErrorKind::kUsage,
                      std::string(flag) + " " + std::string(instance_type) +
                          ": cluster placement groups refuse the " + family +
                          " family; use a c or m family: c5.large, c6i.large, c7g.large (arm64)");
  }
  return core::Ok();
}

std::string ArchMismatchWarning(std::string_view instance_type, Arch arch, std::string_view flag) {
  auto family_arch = FamilyArch(instance_type);
  if (!family_arch || *family_arch == arch) return "";
  return "warning: " + std::string(flag) + " " + std::string(instance_type) + " is an " +
         ArchName(*family_arch) + " family but the architecture is " + ArchName(arch) +
         " (the instance will not boot an image of the wrong architecture)";
}

core::Status ValidateUbuntuVersion(std::string_view version) {
  if (version == "20.04" || version == "22.04" || version == "24.04") return core::Ok();
  return core::Fail(core::ErrorKind::kUsage,
                    "--ubuntu-version " + std::string(version) + ": use 20.04, 22.04 or 24.04");
}

}  // namespace dfbench::aws
