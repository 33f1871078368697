// The deprecated spellings a command line still takes (hidden from --help), each a flag of its
// own beside the flags it sets, so that the two given together can be compared.
#pragma once

#include <vector>

#include "cli/command.h"

namespace dfbench::cli {

struct DeprecatedFlag {
  const char* alias;               // e.g. "--io-threads"
  std::vector<const char*> flags;  // what it sets, e.g. --redis_io_threads, --valkey_io_threads
};

// Every deprecated spelling of every command (a command has those of its flags it takes).
const std::vector<DeprecatedFlag>& DeprecatedFlags();

// Throws ExitError(kUsage), one line naming both flags, when `sub` was given a deprecated
// spelling and a flag it sets with different values (the same value twice is fine): neither
// silently wins.
void CheckDeprecatedFlags(const CLI::App& sub);

}  // namespace dfbench::cli
