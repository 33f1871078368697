// Whether a region and an account can hold a fleet, asked of AWS before anything launches: the
// plan's instance types exist there and run the plan's architectures, one availability zone
// offers all of them, and the account's On-Demand vCPU quotas cover the fleet. Reads only.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "aws/client.h"
#include "aws/instance_catalog.h"
#include "aws/template.h"
#include "core/error.h"

namespace dfbench::aws {

// Type → its default vCPUs, as DescribeInstanceTypes gave them.
using FleetVcpus = std::map<std::string, int>;

// ec2:DescribeInstanceTypes for every distinct type of the plan. kUsage, one line, for a type
// the region does not know (naming the nearest names it knows) or one whose processor does not
// run the plan's architecture for that role.
core::Result<FleetVcpus> CheckInstanceTypes(const Client& client, const FleetPlan& plan);

// The first zone, in name order, that offers every type of the plan
// (ec2:DescribeInstanceTypeOfferings). kUsage, one line naming which zone lacks which type,
// when none does: other types or another region would do, so the request is what must change.
core::Result<std::string> ChooseAvailabilityZone(const Client& client, const FleetPlan& plan);

// The fleet's vCPUs summed per On-Demand quota (servicequotas:GetServiceQuota, ec2), against
// the quota's value: kEnvironment, one line naming both numbers and how to ask for more, when
// the fleet needs more. A quota that cannot be read (no permission, unknown to the endpoint)
// and a family outside the known quotas are a note on stderr, not a refusal.
core::Status CheckVcpuQuotas(const Client& client, const FleetPlan& plan, const FleetVcpus& vcpus);

// Pure parts, for tests.

// The distinct instance types of the plan, in role order (server, client, replicas).
std::vector<std::string> FleetTypes(const FleetPlan& plan);

// The refusal line for `types`' architectures against the plan's, "" when each role's type
// runs its architecture.
std::string ArchitectureRefusal(const FleetPlan& plan, const std::vector<InstanceTypeInfo>& types);

// Up to `count` names of `known` nearest to `wanted` by edit distance (ties by name), leaving
// out those so far that they share little more than the length.
std::vector<std::string> NearestNames(std::string_view wanted,
                                      const std::vector<std::string>& known, size_t count = 3);

// The first zone (name order) whose offers hold every one of `types`, else kUsage naming what
// each zone lacks. `region` names the region in the line.
core::Result<std::string> PickZone(const ZoneOffers& offers, const std::vector<std::string>& types,
                                   const std::string& region);

// Quota code → the fleet's vCPUs on it; the types no known quota covers in `unchecked`.
std::map<std::string, int> VcpusPerQuota(const FleetPlan& plan, const FleetVcpus& vcpus,
                                         std::vector<std::string>* unchecked);

}  // namespace dfbench::aws
