// Reading and atomically writing files: a crash never leaves a half-written result file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dfbench::core {

// The largest file ReadFile reads: far above any result, state or report file dfbench writes
// (the largest seen are a few MiB), low enough that a wrong path fails at once.
inline constexpr uint64_t kMaxReadBytes = uint64_t{256} << 20;

// Writes `content` to a temporary file beside `path`, fsyncs it, then renames it over `path`.
// Creates missing parent directories. `mode` applies to the new file from its creation.
// For dfbench's own files; a path the user names goes through WriteOutputFile.
Status WriteFileAtomic(const std::filesystem::path& path, std::string_view content,
                       unsigned mode = 0644);

// The file a user-named output path (report -o, template --out, loadgen --json-out-file)
// writes: `path` itself when it is a regular file or does not exist yet, the regular file a
// symlink points to (the link is kept). kUsage, with one line naming `path`, for a device, FIFO,
// socket, directory or dangling symlink, and when the directory it goes in does not exist
// (it is never created).
Result<std::filesystem::path> ResolveOutputPath(const std::filesystem::path& path);

// The directory a user-named output directory (run-replication --output-dir) is: `dir` itself
// when it is a directory or does not exist yet (it is created, but not its parent), and none of
// `files` in it is other than a regular file or absent (ResolveOutputPath). kUsage, with one
// line naming the path, otherwise.
Status CheckOutputDir(const std::filesystem::path& dir, const std::vector<std::string>& files);

// WriteFileAtomic onto ResolveOutputPath(path).
Status WriteOutputFile(const std::filesystem::path& path, std::string_view content);

// Reads a whole regular file of at most kMaxReadBytes. kNotFound when it does not exist; kUsage
// for anything but a regular file (directory, device, FIFO: never opened for blocking reads) or
// a larger one; kEnvironment on other I/O errors.
Result<std::string> ReadFile(const std::filesystem::path& path);

// The first `max_bytes` (or fewer) of a regular file, with ReadFile's errors.
Result<std::string> ReadFileHead(const std::filesystem::path& path, size_t max_bytes);

// The last `max_bytes` of a file, starting at a line boundary; "" if unreadable.
std::string ReadTail(const std::filesystem::path& path, size_t max_bytes = 2048);

// Creates `dir` and its parents, each directory it creates 0700 whatever the umask: every
// directory dfbench makes holds keys, state, results or tools of one user. Directories that
// exist keep their mode. kEnvironment on failure.
Status MakeDirs(const std::filesystem::path& dir);

// The bytes of the regular files under `dir` (itself included when it is a file), symbolic links
// not followed; 0 when it does not exist. Entries that vanish or cannot be read while it walks
// count as 0: it is a figure for people, never a check.
uint64_t TreeBytes(const std::filesystem::path& dir);

}  // namespace dfbench::core
