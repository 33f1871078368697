// The "configuration" block of a run's JSON report: memtier_benchmark 2.3.0's keys, in its order
// and value types, and the settings memtier has no key for, which go into dfbench's own block.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "loadgen/config.h"

namespace dfbench::loadgen {

// memtier's JSON flags: the strings "true" and "false".
std::string MemtierBool(bool b);
// memtier's words for --ipv4 / --ipv6: "AF_INET", "AF_INET6", "Unspecified".
const char* AddressFamilyName(AddressFamily family);
// --data-size-list as memtier prints it: "32:7,64:3".
std::string DataSizeList(const std::vector<SizeWeight>& list);

// memtier's "configuration": every key it writes, null where it writes null for a text not set.
nlohmann::ordered_json MemtierConfigurationJson(const Config& config);

// What a run was asked beyond memtier's keys (dfbench's block "configuration").
nlohmann::ordered_json OwnConfigurationJson(const Config& config);

}  // namespace dfbench::loadgen
