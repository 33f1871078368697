// Content hashes of local files (to name uploads by what they hold).
#pragma once

#include <filesystem>
#include <string>

#include "core/error.h"

namespace dfbench::hosts {

// Lowercase hex SHA-256 of a file's content. kEnvironment when unreadable.
core::Result<std::string> Sha256File(const std::filesystem::path& path);

}  // namespace dfbench::hosts
