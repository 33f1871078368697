// What dfbench knows about a machine it runs on: plain data, no JSON.
//
// It lives in core, the one layer below both its producer and its recorder: hosts learn the facts
// (LocalHost, SshHost) and results write them into every result file and state.json
// (results/schema.h holds the JSON conversion). Placing it in hosts would make results link the
// SSH layer; placing it in results made hosts depend on the result schemas and nlohmann/json.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/role.h"

namespace dfbench::core {

struct HostFacts {
  Role role;
  std::string name;             // host name
  std::string address;          // how dfbench reaches it (public)
  std::string private_address;  // how engines and load generators reach each other
  std::string cpu_model;
  int vcpus = 0;
  uint64_t memory_bytes = 0;
  std::string kernel;
  std::string os;
  std::string arch;
  std::vector<int> cpus;  // CPUs the role is pinned to on this host; empty = all
  // The network interface engine traffic uses and its receive queues; written only when known
  // (remote hosts), so files without them read and write back unchanged.
  std::string nic;
  int rx_queues = 0;
};

}  // namespace dfbench::core
