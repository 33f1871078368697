// The server's own count of data operations, to cross-check what the load generator reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "engines/engine.h"

namespace dfbench::scenarios {

// Redis protocol: the sum of INFO commandstats calls, control commands (INFO, PING, CONFIG,
// FLUSHALL, FLUSHDB, HELLO, AUTH, CLIENT, COMMAND, SELECT, SHUTDOWN, DEBUG, DBSIZE) excluded.
// memcached: "stats" cmd_get + cmd_set.
core::Result<uint64_t> ServerDataOps(const std::string& address, int port,
                                     engines::Protocol protocol);

// True for the control commands ServerDataOps leaves out (any case: "ping", "PING").
bool IsControlCommand(std::string_view name);

// The number of keys (DBSIZE) of a Redis-protocol server.
core::Result<uint64_t> ServerKeyCount(const std::string& address, int port);

}  // namespace dfbench::scenarios
