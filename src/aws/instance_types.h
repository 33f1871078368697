// What dfbench accepts for a fleet's instances: types a cluster placement group takes, the
// architecture of a family, the Ubuntu releases it provisions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace dfbench::aws {

enum class Arch { kX86_64, kArm64 };

// "x86_64" | "arm64" (the names EC2 and the flags use); nullopt otherwise.
std::optional<Arch> ParseArch(std::string_view name);
const char* ArchName(Arch arch);
// Canonical's name in its AMI paths: "amd64" | "arm64".
const char* UbuntuArchName(Arch arch);

// "c7g" of "c7g.4xlarge"; "" when `instance_type` is not FAMILY.SIZE.
std::string InstanceFamily(std::string_view instance_type);

// The architecture a family runs: arm64 for Graviton (a `g` right after the generation digits:
// c7g, m7g, c6gn, r8g, x2gd, im4gn), a1 and mac2; x86_64 otherwise. nullopt for a malformed type.
std::optional<Arch> FamilyArch(std::string_view instance_type);

// kUsage, one line naming `flag`, for a malformed type or a family that cluster placement
// groups refuse (burstable t1/t2/t3/t3a/t4g, first-generation Graviton a1, mac*), with the
// advice "use a c or m family: c5.large, c6i.large, c7g.large (arm64)".
core::Status ValidateClusterPlacement(std::string_view instance_type, std::string_view flag);

// A one-line warning when `arch` disagrees with the family of `instance_type` ("" when they
// agree). Non-fatal: a new family may break the naming rule.
std::string ArchMismatchWarning(std::string_view instance_type, Arch arch, std::string_view flag);

// kUsage unless `version` is one of 20.04, 22.04, 24.04.
core::Status ValidateUbuntuVersion(std::string_view version);

}  // namespace dfbench::aws
