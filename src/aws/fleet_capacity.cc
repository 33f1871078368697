#include "aws/fleet_capacity.h"

#include <algorithm>

#include "aws/service_quotas.h"
#include "core/format.h"
#include "core/log.h"

namespace dfbench::aws {
namespace {

// One role of the plan: its instance, the flags that set it, how many instances it has.
struct Role {
  const InstanceSpec* spec;
  const char* type_flag;
  const char* arch_flag;
  int count;
};

std::vector<Role> Roles(const FleetPlan& plan) {
  std::vector<Role> roles = {{&plan.server, "--server-instance", "--server-arch", 1},
                             {&plan.client, "--client-instance", "--client-arch", plan.clients}};
  if (plan.replicas > 0) {
    roles.push_back({&plan.replica, "--replica-instance", "--replica-arch", plan.replicas});
  }
  return roles;
}

std::string Join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const auto& item : items) (out += out.empty() ? "" : sep) += item;
  return out;
}

// The flags of the roles that use `type` ("--server-instance/--replica-instance").
std::string FlagsOf(const FleetPlan& plan, const std::string& type) {
  std::vector<std::string> flags;
  for (const auto& r : Roles(plan)) {
    if (r.spec->type == type) flags.emplace_back(r.type_flag);
  }
  return Join(flags, "/");
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> FleetTypes(const FleetPlan& plan) {
  std::vector<std::string> types;
  for (const auto& r : Roles(plan)) {
    if (std::find(types.begin(), types.end(), r.spec->type) == types.end()) {
      types.push_back(r.spec->type);
    }
  }
  return types;
}

std::vector<std::string> NearestNames(std::string_view wanted,
                                      const std::vector<std::string>& known, size_t count) {
  // Beyond half the name's length a "near" name is a different type altogether.
  const size_t limit = std::max<size_t>(2, wanted.size() / 2);
  struct Scored {
    size_t distance;
    size_t shared_prefix;  // among equals, the same family first: c6i.12xlarge before c6a.2xlarge
    std::string name;
  };
  std::vector<Scored> scored;
  for (const auto& name : known) {
    const size_t d = EditDistance(wanted, name);
    if (d > limit) continue;
    const size_t shared = static_cast<size_t>(
        std::mismatch(wanted.begin(), wanted.end(), name.begin(), name.end()).first -
        wanted.begin());
    scored.push_back({d, shared, name});
  }
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.shared_prefix != b.shared_prefix) return a.shared_prefix > b.shared_prefix;
    return a.name < b.name;
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && out.size() < count; ++i) {
    if (out.empty() || out.back() != scored[i].name) out.push_back(scored[i].name);
  }
  return out;
}

std::string ArchitectureRefusal(const FleetPlan& plan, const std::vector<InstanceTypeInfo>& types) {
  for (const auto& r : Roles(plan)) {
    auto info = std::find_if(types.begin(), types.end(),
                             [&](const InstanceTypeInfo& t) { return t.type == r.spec->type; });
    if (info == types.end()) continue;
    const std::string arch = ArchName(r.spec->arch);
    const auto& archs = info->architectures;
    if (std::find(archs.begin(), archs.end(), arch) != archs.end()) continue;
    const std::string other = r.spec->arch == Arch::kArm64 ? "x86_64" : "arm64";
    const bool other_fits = std::find(archs.begin(), archs.end(), other) != archs.end();
    return std::string(r.type_flag) + " " + r.spec->type + " is " + Join(archs, " and ") +
           " only; " + r.arch_flag + " " + arch + " cannot run on it: " +
           (other_fits ? "pass " + std::string(r.arch_flag) + " " + other + " or" : "pick") +
           " a type that runs " + arch;
  }
  return "";
}

core::Result<FleetVcpus> CheckInstanceTypes(const Client& client, const FleetPlan& plan) {
  const std::vector<std::string> types = FleetTypes(plan);
  auto report = DescribeInstanceTypes(client, types);
  if (!report) return tl::unexpected(report.error());
  if (!report->unknown.empty()) {
    // The region's own listing, not a table in dfbench: it is what AWS accepts there today,
    // new types included. Only read on this path; without it the line just has no names.
    auto known = ListInstanceTypeNames(client);
    std::vector<std::string> parts;
    for (const auto& type : report->unknown) {
      std::string part = FlagsOf(plan, type) + " " + type;
      if (known) {
        const std::vector<std::string> near = NearestNames(type, *known);
        if (!near.empty()) part += " (nearest: " + Join(near, ", ") + ")";
      }
      parts.push_back(std::move(part));
    }
    return core::Fail(core::ErrorKind::kUsage,
                      "no such instance type in " + client.region() + ": " + Join(parts, "; "));
  }
  if (std::string refusal = ArchitectureRefusal(plan, report->known); !refusal.empty()) {
    return core::Fail(core::ErrorKind::kUsage, refusal);
  }
  FleetVcpus vcpus;
  for (const auto& t : report->known) vcpus[t.type] = t.default_vcpus;
  return vcpus;
}

core::Result<std::string> PickZone(const ZoneOffers& offers, const std::vector<std::string>& types,
                                   const std::string& region) {
  std::vector<std::string> lacks;
  for (const auto& [zone, offered] : offers) {
    std::vector<std::string> missing;
    for (const auto& t : types) {
      if (!offered.contains(t)) missing.push_back(t);
    }
    if (missing.empty()) return zone;
    lacks.push_back(zone + " lacks " + Join(missing, ", "));
  }
  const std::string what =
      lacks.empty() ? "none of its zones offers " + Join(types, ", ") : Join(lacks, "; ");
  return core::Fail(core::ErrorKind::kUsage,
                    "no availability zone of " + region +
                        " offers every instance type of the fleet (" + what +
                        "): pick types one zone offers together, or another --region");
}

core::Result<std::string> ChooseAvailabilityZone(const Client& client, const FleetPlan& plan) {
  const std::vector<std::string> types = FleetTypes(plan);
  auto offers = DescribeZoneOffers(client, types);
  if (!offers) return tl::unexpected(offers.error());
  return PickZone(*offers, types, client.region());
}

std::map<std::string, int> VcpusPerQuota(const FleetPlan& plan, const FleetVcpus& vcpus,
                                         std::vector<std::string>* unchecked) {
  std::map<std::string, int> per_quota;
  for (const auto& r : Roles(plan)) {
    auto quota = OnDemandVcpuQuota(r.spec->type);
    auto v = vcpus.find(r.spec->type);
    if (!quota || v == vcpus.end()) {
      if (std::find(unchecked->begin(), unchecked->end(), r.spec->type) == unchecked->end()) {
        unchecked->push_back(r.spec->type);
      }
      continue;
    }
    per_quota[quota->code] += v->second * r.count;
  }
  return per_quota;
}

core::Status CheckVcpuQuotas(const Client& client, const FleetPlan& plan, const FleetVcpus& vcpus) {
  std::vector<std::string> unchecked;
  const std::map<std::string, int> needs = VcpusPerQuota(plan, vcpus, &unchecked);
  if (!unchecked.empty()) {
    core::Notef("note: no known On-Demand vCPU quota covers {}: not checked before launch",
                Join(unchecked, ", "));
  }
  std::vector<std::string> unread;
  std::string unread_reason;
  for (const auto& [code, needed] : needs) {
    std::string name = code;
    for (const auto& t : FleetTypes(plan)) {
      if (auto q = OnDemandVcpuQuota(t); q && q->code == code) name = q->name;
    }
    auto value = GetServiceQuota(client, "ec2", code);
    if (!value && value.error().kind == core::ErrorKind::kInterrupted) {
      return tl::unexpected(value.error());
    }
    if (!value) {
      // The launch itself would still fail clearly (VcpuLimitExceeded); an account without
      // servicequotas:GetServiceQuota must not be kept from setting up.
      unread.push_back(code);
      if (unread_reason.empty()) unread_reason = value.error().message;
      continue;
    }
    if (static_cast<double>(needed) > *value) {
      return core::Fail(
          core::ErrorKind::kEnvironment,
          core::Format("the fleet needs {} vCPUs of '{}' ({}) but the account's quota in {} is {:g}"
                       " (running instances count too): ask for more in the Service Quotas "
                       "console, or 'aws service-quotas request-service-quota-increase --region {} "
                       "--service-code ec2 --quota-code {} --desired-value {}'",
                       needed, name, code, client.region(), *value, client.region(), code, needed));
    }
    core::Notef("the fleet needs {} of the {:g} vCPUs of quota {} ({})", needed, *value, code,
                name);
  }
  if (!unread.empty()) {
    core::Notef("note: the On-Demand vCPU quota{} {} could not be read, not checked: {}",
                unread.size() > 1 ? "s" : "", Join(unread, ", "), unread_reason);
  }
  return core::Ok();
}

}  // namespace dfbench::aws
