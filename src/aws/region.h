// The AWS region, found as the AWS CLI finds it, and what follows from it: the partition's
// DNS suffix of every service endpoint; and the regions an account can use.
//
//   const aws::Region r = aws::ResolveRegion(flags.region, aws::ProcessEnv());
//   // r.name "eu-west-1", r.source "AWS_REGION"
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aws/environment.h"
#include "core/error.h"

namespace dfbench::aws {

inline constexpr char kDefaultRegion[] = "us-east-1";

struct Region {
  std::string name;    // "eu-west-1"
  std::string source;  // "--region", "AWS_REGION", "AWS_DEFAULT_REGION", "profile dev", "default"
};

// `flag` when not empty, else AWS_REGION, else AWS_DEFAULT_REGION, else the `region` of the
// profile in use (AWS_PROFILE, else "default") in the shared config files, else us-east-1.
// A malformed shared file is passed over here (reading credentials reports it).
Region ResolveRegion(const std::string& flag, const EnvLookup& env);

// The DNS suffix of the region's partition: "amazonaws.com.cn" for the China regions (cn-*),
// "amazonaws.com" for the others (the standard partition and AWS GovCloud, us-gov-*).
std::string DnsSuffix(const std::string& region);

class Client;

// The regions enabled for the account (ec2:DescribeRegions asked in the client's region), in
// name order.
core::Result<std::vector<std::string>> DescribeRegions(const Client& client);

// Reads a DescribeRegionsResponse (pure; for tests).
core::Result<std::vector<std::string>> ParseDescribeRegions(std::string_view xml);

}  // namespace dfbench::aws
