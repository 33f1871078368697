// The processes of this machine, as tests look for what a run left behind.
#pragma once

#include <string>
#include <vector>

namespace dfbench::testing {

// Live processes (zombies do not count; this test process neither) whose command line, its
// arguments joined by spaces, contains `needle`: "<pid> <command line>" each.
std::vector<std::string> LiveProcesses(const std::string& needle);

// The pids of LiveProcesses(needle).
std::vector<int> ProcessesMatching(const std::string& needle);

// Pids of the live children of `parent` whose command name is `comm` (redis-server renames its
// command line, so the name in /proc/<pid>/stat is what identifies it).
std::vector<int> ChildrenNamed(int parent, const std::string& comm);

// The port of a redis-server process, read from its command line: "--port N" as started, or
// "<address>:N" (a cluster node: "<address>:N [cluster]") once it has renamed itself. 0 when
// neither is there yet.
int RedisPort(int pid);

}  // namespace dfbench::testing
