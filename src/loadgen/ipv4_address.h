// Resolves a host to its first IPv4 address, as memtier's StatsD and Graphite clients do.
#pragma once

#include <netinet/in.h>

#include <string>

#include "core/error.h"

namespace dfbench::loadgen {

// kEnvironment naming the host when it does not resolve.
core::Result<sockaddr_in> ResolveIpv4(const std::string& host, int port);

}  // namespace dfbench::loadgen
