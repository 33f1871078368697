// This machine's public IPv4 address as AWS sees it, so that a fleet's SSH port opens to it
// alone: the answer of https://checkip.amazonaws.com (the AWS console's "My IP"), or of
// DFBENCH_CHECKIP_URL where a proxy or a test stands in for it.
#pragma once

#include <string>
#include <string_view>

#include "aws/environment.h"
#include "core/error.h"

namespace dfbench::aws {

inline constexpr char kCheckIpUrl[] = "https://checkip.amazonaws.com";

// "203.0.113.7". kEnvironment, one line naming --ssh-cidr, when it cannot be learned.
core::Result<std::string> PublicAddress(const EnvLookup& env);

// Whether `cidr` is an IPv4 block "a.b.c.d/n" (n 0..32), as a security group's CidrIp takes it.
bool IsIpv4Cidr(std::string_view cidr);

}  // namespace dfbench::aws
