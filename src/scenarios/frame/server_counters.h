// The server's own count of data operations, to cross-check what the load generator reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "engines/engine.h"

namespace dfbench::scenarios {

// Redis protocol: the sum of INFO commandstats calls, control commands (INFO, PING, CONFIG,
// FLUSHALL, FLUSHDB, HELLO, AUTH, CLIENT, COMMAND, SELECT, SHUTDOWN, DEBUG, DBSIZE, ACL, and the
// SCAN and UNLINK that clear a run's keys from an endpoint) excluded.
// memcached: "stats" cmd_get + cmd_set.
core::Result<uint64_t> ServerDataOps(const protocol::ServerEndpoint& control,
                                     core::Protocol protocol);

// The data operations of an `INFO commandstats` reply: the sum of its cmdstat_<name> calls,
// control commands excluded. Redis ("cmdstat_config|get:calls=2,...,failed_calls=0") and
// Dragonfly ("cmdstat_get:calls=1000,usec=768,usec_per_call=0.768", one line per command summed
// over its threads) both read this way.
uint64_t DataOpsFromCommandStats(const std::string& info_commandstats);

// True for the control commands ServerDataOps leaves out (any case: "ping", "PING").
bool IsControlCommand(std::string_view name);

}  // namespace dfbench::scenarios
