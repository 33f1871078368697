// A remote host's facts, learned in one round trip: a shell script prints the host's own files
// and tools in sections, and the parsers below turn that text into HostFacts.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/host_facts.h"

namespace dfbench::hosts {

// A POSIX sh script printing "@@<section>" lines, each followed by that section's text:
// uname, nproc, cpuinfo, lscpu, meminfo, os, addr (`ip -o addr`), route (`ip -o route show
// default`), queues ("<interface> <rx queue count>" per line). It takes no arguments.
const char* FactsScript();

// Everything FactsScript printed. address/private_address/role are left for the caller;
// nic/rx_queues name the interface holding `engine_address` (else the default route's, else
// the first one with receive queues), 0/"" when unknown.
core::HostFacts ParseFacts(const std::string& script_output, const std::string& engine_address);

// "@@name" sections of a text, without their marker lines.
std::map<std::string, std::string> SplitSections(const std::string& text);
// Value of the first "key<sep>value" line whose trimmed key equals `key` ("" if none).
std::string FieldOf(const std::string& text, const std::string& key, char sep);
// The CPU model a /proc/cpuinfo text names ("" if none).
std::string CpuModelOf(const std::string& cpuinfo);
// The value of `key` (PRETTY_NAME, ID, VERSION_ID ...) in an os-release text, unquoted.
std::string OsReleaseField(const std::string& os_release, const std::string& key);
// MemTotal of a meminfo text, in bytes (0 if absent).
uint64_t MemTotalBytes(const std::string& meminfo);

struct NicQueues {
  std::string name;
  int rx_queues = 0;
};
// Lines of "<interface> <count>"; malformed lines are skipped.
std::vector<NicQueues> ParseNicQueues(const std::string& listing);
// The interface `ip -o addr` shows holding `address` ("" if none). Handles "eth0@if5" names.
std::string InterfaceWithAddress(const std::string& ip_addr_output, const std::string& address);
// The "dev" of an `ip -o route show default` line ("" if none).
std::string DefaultRouteInterface(const std::string& ip_route_output);

// One spelling per architecture: x86_64 (amd64), aarch64 (arm64); others unchanged.
std::string CanonicalArch(const std::string& uname_m);

// Local ports that appear in /proc/net/tcp and /proc/net/tcp6 texts (any state).
std::set<int> PortsInUse(const std::string& proc_net_tcp);
// Local ports in the LISTEN state in the same texts.
std::set<int> ListeningPorts(const std::string& proc_net_tcp);
// A port in [low, high) not in `used`, starting the search at `seed`; 0 when all are taken.
int PickFreePort(const std::set<int>& used, int low, int high, uint64_t seed);

}  // namespace dfbench::hosts
