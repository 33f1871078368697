// What EC2 says about instance types in one region: each type's architectures and vCPUs
// (ec2:DescribeInstanceTypes) and which availability zones offer it
// (ec2:DescribeInstanceTypeOfferings). Reads, never billed: setup asks them before launching.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "aws/client.h"
#include "core/error.h"

namespace dfbench::aws {

struct InstanceTypeInfo {
  std::string type;                        // "c7g.large"
  std::vector<std::string> architectures;  // ProcessorInfo.SupportedArchitectures: "arm64", ...
  int default_vcpus = 0;                   // VCpuInfo.DefaultVCpus
};

struct InstanceTypeReport {
  std::vector<InstanceTypeInfo> known;
  std::vector<std::string> unknown;  // those of the asked types AWS does not know here
};

// ec2:DescribeInstanceTypes of `types` (InstanceType.N), every page. AWS refuses the whole
// call (InvalidInstanceType) when one type is unknown; each type is then asked alone, so that
// the unknown ones are named whatever the error's wording.
core::Result<InstanceTypeReport> DescribeInstanceTypes(const Client& client,
                                                       const std::vector<std::string>& types);

// Every type name the region knows (ec2:DescribeInstanceTypes without a filter, every page).
core::Result<std::vector<std::string>> ListInstanceTypeNames(const Client& client);

// Zone name → those of `types` it offers (ec2:DescribeInstanceTypeOfferings, LocationType
// availability-zone, filtered on the types; every page). Zones offering none are absent.
using ZoneOffers = std::map<std::string, std::set<std::string>>;
core::Result<ZoneOffers> DescribeZoneOffers(const Client& client,
                                            const std::vector<std::string>& types);

// One page of a DescribeInstanceTypesResponse (pure; for tests).
struct InstanceTypePage {
  std::vector<InstanceTypeInfo> types;
  std::string next_token;  // "" on the last page
};
core::Result<InstanceTypePage> ParseDescribeInstanceTypes(std::string_view xml);

// One page of a DescribeInstanceTypeOfferingsResponse, added to `offers` (pure; for tests).
// The page's nextToken ("" on the last page).
core::Result<std::string> ParseInstanceTypeOfferings(std::string_view xml, ZoneOffers* offers);

}  // namespace dfbench::aws
