#include "providers/aws_preflight.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "aws/fleet_capacity.h"
#include "aws/ssm.h"
#include "aws/sts.h"
#include "core/files.h"
#include "core/log.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;

// The host a fresh instance of Canonical's Ubuntu is, as far as installs can know before it
// runs: nothing of the engine on its PATH, and apt's offer unknown (`package`).
engines::HostOffer FreshUbuntu(const std::string& ubuntu_version, aws::Arch arch,
                               const std::string& package) {
  engines::HostOffer offer;
  offer.os.id = "ubuntu";
  offer.os.version_id = ubuntu_version;
  offer.os.pretty = "Ubuntu " + ubuntu_version;
  offer.arch = arch == aws::Arch::kArm64 ? "aarch64" : "x86_64";
  offer.package_candidate = package;
  return offer;
}

bool IsTarball(const std::string& path) {
  return path.ends_with(".tar.gz") || path.ends_with(".tgz");
}

// The checks of the engines going to one role's hosts.
PreflightCheck EnginesCheck(const SetupRequest& request, const std::string& ubuntu_version,
                            aws::Arch arch, const std::string& role, bool replicas_only) {
  std::vector<const engines::EngineSpec*> specs;
  for (const auto* spec : request.engines) {
    // An explicit binary is a path on the host: used as is, nothing to check here.
    if (request.binaries.contains(spec->name)) continue;
    if (!replicas_only || spec->on_replicas) specs.push_back(spec);
  }
  return {.what = "engines for the " + role + " (Ubuntu " + ubuntu_version + " " +
                  aws::ArchName(arch) + ")",
          .run = [&request, specs, ubuntu_version, arch, role]() -> core::Status {
            for (const auto* spec : specs) {
              engines::VersionSpec version;
              if (auto v = request.versions.find(spec->name); v != request.versions.end()) {
                version = v->second;
              }
              if (auto st = CheckEngineObtainable(*spec, version, ubuntu_version, arch, role);
                  !st) {
                return st;
              }
            }
            return core::Ok();
          }};
}

}  // namespace

core::Status CheckEngineObtainable(const engines::EngineSpec& spec,
                                   const engines::VersionSpec& version,
                                   const std::string& ubuntu_version, aws::Arch arch,
                                   const std::string& role) {
  const std::string host =
      "the " + role + " (Ubuntu " + ubuntu_version + " " + aws::ArchName(arch) + ")";
  if (version.kind == engines::VersionSpec::Kind::kLocalFile && !IsTarball(version.value)) {
    const engines::HostOffer offer = FreshUbuntu(ubuntu_version, arch, "");
    if (auto st = engines::CheckElfArch(version.value, offer.arch); !st) {
      return core::Fail(core::ErrorKind::kUsage,
                        "--" + spec.name + "_version: " + st.error().message + " (" + host + ")");
    }
    return core::Ok();
  }
  // Refused only when neither an apt package nor its absence would make it obtainable.
  const engines::InstallPlan without_package =
      engines::PlanInstall(spec, version, FreshUbuntu(ubuntu_version, arch, ""));
  const engines::InstallPlan with_package =
      engines::PlanInstall(spec, version, FreshUbuntu(ubuntu_version, arch, spec.program));
  if (without_package.method == engines::InstallMethod::kImpossible &&
      with_package.method == engines::InstallMethod::kImpossible) {
    return core::Fail(core::ErrorKind::kUsage,
                      spec.name + " for " + host + ": " + without_package.reason);
  }
  return core::Ok();
}

core::Status CheckKeyMaterial(const KeyPair& key) {
  std::error_code ec;
  const fs::perms perms = fs::status(key.private_key, ec).permissions();
  if (ec) {
    return core::Fail(core::ErrorKind::kUsage, "cannot read the private key " +
                                                   key.private_key.string() + ": " + ec.message());
  }
  if ((perms & (fs::perms::group_all | fs::perms::others_all)) != fs::perms::none) {
    return core::Fail(core::ErrorKind::kUsage,
                      "the private key " + key.private_key.string() +
                          " is readable by others, and ssh refuses such a key: chmod 600 it");
  }
  if (!key.public_line.starts_with("ssh-rsa AAAA") ||
      key.public_line.find('\n') != std::string::npos) {
    return core::Fail(
        core::ErrorKind::kUsage,
        key.public_key.string() + " is not one OpenSSH \"ssh-rsa AAAA...\" line: " + "remove " +
            key.private_key.parent_path().string() + " and run setup again for a new pair");
  }
  return core::Ok();
}

std::vector<PreflightCheck> FleetPreflight(const SetupRequest& request, const aws::FleetPlan& plan,
                                           const KeyPair& key, const aws::Client& client,
                                           aws::CallerIdentity* caller,
                                           std::string* availability_zone) {
  std::vector<PreflightCheck> checks;
  checks.push_back({.what = "instance types and architectures", .run = [&plan] {
                      std::vector<std::string> warnings;  // shown with the plan already
                      return aws::ValidatePlan(plan, &warnings);
                    }});
  checks.push_back({.what = "the SSH key pair", .run = [&key] { return CheckKeyMaterial(key); }});
  checks.push_back(EnginesCheck(request, plan.ubuntu_version, plan.server.arch, "server",
                                /*replicas_only=*/false));
  if (plan.replicas > 0) {
    checks.push_back(EnginesCheck(request, plan.ubuntu_version, plan.replica.arch, "replicas",
                                  /*replicas_only=*/true));
  }
  checks.push_back({.what = "AWS credentials", .run = [&client, caller]() -> core::Status {
                      auto identity = aws::GetCallerIdentity(client);
                      if (!identity) return tl::unexpected(identity.error());
                      *caller = *identity;
                      core::Notef("AWS account {} ({}), region {}", identity->account,
                                  identity->arn, client.region());
                      return core::Ok();
                    }});
  // Read by the quota check, filled by the instance types' one.
  auto vcpus = std::make_shared<aws::FleetVcpus>();
  checks.push_back({.what = "the instance types in " + plan.region,
                    .run = [&client, &plan, vcpus]() -> core::Status {
                      auto found = aws::CheckInstanceTypes(client, plan);
                      if (!found) return tl::unexpected(found.error());
                      *vcpus = std::move(*found);
                      return core::Ok();
                    }});
  checks.push_back({.what = "an availability zone offering them",
                    .run = [&client, &plan, availability_zone]() -> core::Status {
                      auto zone = aws::ChooseAvailabilityZone(client, plan);
                      if (!zone) return tl::unexpected(zone.error());
                      core::Notef(
                          "availability zone {}: it offers every instance type of the "
                          "fleet",
                          *zone);
                      if (availability_zone != nullptr) *availability_zone = *zone;
                      return core::Ok();
                    }});
  std::vector<aws::Arch> arches = {plan.server.arch};
  auto add_arch = [&arches](aws::Arch a) {
    if (std::find(arches.begin(), arches.end(), a) == arches.end()) arches.push_back(a);
  };
  add_arch(plan.client.arch);
  if (plan.replicas > 0) add_arch(plan.replica.arch);
  for (aws::Arch arch : arches) {
    const std::string parameter = aws::UbuntuAmiParameter(plan.ubuntu_version, arch);
    checks.push_back(
        {.what = "the Ubuntu " + plan.ubuntu_version + " " + aws::ArchName(arch) + " AMI",
         .run = [&client, parameter, &plan]() -> core::Status {
           auto ami = aws::GetParameter(client, parameter);
           if (!ami && ami.error().kind == core::ErrorKind::kNotFound) {
             return core::Fail(core::ErrorKind::kUsage,
                               "no Canonical AMI in " + plan.region + " (" + parameter +
                                   " does not exist there): try another --region or "
                                   "--ubuntu-version");
           }
           if (!ami) return tl::unexpected(ami.error());
           return core::Ok();
         }});
  }
  checks.push_back({.what = "the On-Demand vCPU quotas", .run = [&client, &plan, vcpus] {
                      return aws::CheckVcpuQuotas(client, plan, *vcpus);
                    }});
  return checks;
}

core::Status RunPreflight(const std::string& setup_id, const std::vector<PreflightCheck>& checks) {
  std::string passed;
  for (const auto& check : checks) {
    if (auto st = check.run(); !st) return st;
    passed += (passed.empty() ? "" : ", ") + check.what;
  }
  core::Notef("setup {}: checked before launching: {}", setup_id, passed);
  return core::Ok();
}

}  // namespace dfbench::providers
