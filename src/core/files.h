// Reading and atomically writing files: a crash never leaves a half-written result file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/error.h"

namespace dfbench::core {

// Writes `content` to a temporary file beside `path`, fsyncs it, then renames it over `path`.
// Creates missing parent directories. `mode` applies to the new file from its creation.
Status WriteFileAtomic(const std::filesystem::path& path, std::string_view content,
                       unsigned mode = 0644);

// Reads a whole file. kNotFound when it does not exist, kEnvironment on other I/O errors.
Result<std::string> ReadFile(const std::filesystem::path& path);

// The last `max_bytes` of a file, starting at a line boundary; "" if unreadable.
std::string ReadTail(const std::filesystem::path& path, size_t max_bytes = 2048);

// Creates `dir` and its parents. kEnvironment on failure.
Status MakeDirs(const std::filesystem::path& dir);
// As MakeDirs, but every directory it creates is 0700 whatever the umask (keys and state live
// there); directories that exist keep their mode.
Status MakePrivateDirs(const std::filesystem::path& dir);

// The bytes of the regular files under `dir` (itself included when it is a file), symbolic links
// not followed; 0 when it does not exist. Entries that vanish or cannot be read while it walks
// count as 0: it is a figure for people, never a check.
uint64_t TreeBytes(const std::filesystem::path& dir);

}  // namespace dfbench::core
