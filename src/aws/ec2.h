// EC2: the live view of instances (state and addresses), for when a stack's Outputs are not
// enough (an instance replaced or stopped since the stack was created).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aws/client.h"
#include "core/error.h"

namespace dfbench::aws {

struct Instance {
  std::string id;
  std::string type;          // "c7g.4xlarge"
  std::string architecture;  // "x86_64" | "arm64"
  std::string state;         // pending, running, stopping, stopped, shutting-down, terminated
  std::string public_ip;     // "" when it has none
  std::string private_ip;
};

// ec2:DescribeInstances for these ids, in AWS's order. kNotFound when an id is unknown.
core::Result<std::vector<Instance>> DescribeInstances(const Client& client,
                                                      const std::vector<std::string>& ids);

// Reads a DescribeInstancesResponse (pure; for tests).
core::Result<std::vector<Instance>> ParseDescribeInstances(std::string_view xml);

}  // namespace dfbench::aws
