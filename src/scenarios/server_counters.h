// The server's own count of data operations, to cross-check what the load generator reports.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"
#include "engines/engine.h"

namespace dfbench::scenarios {

// Redis protocol: the sum of INFO commandstats calls, control commands (INFO, PING, CONFIG,
// FLUSHALL, HELLO, AUTH, CLIENT, COMMAND, SELECT, SHUTDOWN, DEBUG) excluded.
// memcached: "stats" cmd_get + cmd_set.
core::Result<uint64_t> ServerDataOps(const std::string& address, int port,
                                     engines::Protocol protocol);

}  // namespace dfbench::scenarios
