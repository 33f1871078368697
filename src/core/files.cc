#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>

namespace dfbench::core {
namespace {

// What a non-regular file is, for the line that refuses it.
std::string KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

enum class Beyond { kRefuse, kStop };

// Reads up to `max_bytes` of a regular file. It never checks for an interrupt: an interrupted run
// still reads its reports and state to record what it measured, and the cap bounds the read.
// O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it.
Result<std::string> ReadRegular(const std::filesystem::path& path, uint64_t max_bytes,
                                Beyond beyond) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Fail(ErrorKind::kNotFound, path.string() + ": no such file");
    return Fail(ErrorKind::kEnvironment, path.string() + ": cannot read: " + std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat st = {};
  if (fstat(fd, &st) != 0) {
    return Fail(ErrorKind::kEnvironment, path.string() + ": cannot read: " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorKind::kUsage,
                path.string() + ": " + KindOf(st.st_mode) + ", not a regular file");
  }
  const auto too_big = [&] {
    return Fail(ErrorKind::kUsage, path.string() + ": larger than " +
                                       std::to_string(max_bytes >> 20) +
                                       " MiB, the most a dfbench file can be");
  };
  if (beyond == Beyond::kRefuse && static_cast<uint64_t>(st.st_size) > max_bytes) {
    return too_big();
  }
  // Refusing reads one byte past the cap: a file that grew while it was read shows by it.
  const uint64_t limit = beyond == Beyond::kRefuse ? max_bytes + 1 : max_bytes;
  std::string text;
  char chunk[1 << 16];
  while (text.size() < limit) {
    const ssize_t n = read(fd, chunk, std::min<uint64_t>(sizeof(chunk), limit - text.size()));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Fail(ErrorKind::kEnvironment,
                  path.string() + ": cannot read: " + std::strerror(errno));
    }
    if (n == 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  if (text.size() > max_bytes) return too_big();
  return text;
}

}  // namespace

uint64_t TreeBytes(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status top = fs::symlink_status(dir, ec);
  if (ec) return 0;
  if (fs::is_regular_file(top)) {
    const uintmax_t size = fs::file_size(dir, ec);
    return ec ? 0 : size;
  }
  if (!fs::is_directory(top)) return 0;
  uint64_t total = 0;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec) || entry_ec || it->is_symlink(entry_ec)) continue;
    const uintmax_t size = it->file_size(entry_ec);
    if (!entry_ec) total += size;
  }
  return total;
}

Status MakeDirs(const std::filesystem::path& dir) {
  if (dir.empty()) return Ok();  // the current directory
  std::filesystem::path at;
  for (const auto& part : dir) {
    at /= part;
    if (mkdir(at.c_str(), 0700) == 0) {
      // mkdir's mode is masked by the umask; chmod is not.
      if (chmod(at.c_str(), 0700) != 0) {
        return Fail(ErrorKind::kEnvironment,
                    "cannot make " + at.string() + " private: " + std::strerror(errno));
      }
    } else if (errno != EEXIST) {
      return Fail(ErrorKind::kEnvironment,
                  "cannot create " + at.string() + ": " + std::strerror(errno));
    }
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return Fail(ErrorKind::kEnvironment, "cannot create " + dir.string() + ": not a directory");
  }
  return Ok();
}

Status WriteFileAtomic(const std::filesystem::path& path, std::string_view content, unsigned mode) {
  if (path.has_parent_path()) {
    if (auto st = MakeDirs(path.parent_path()); !st) return st;
  }
  std::random_device rd;
  const std::string tmp =
      path.string() + ".tmp" + std::to_string(getpid()) + "-" + std::to_string(rd() & 0xffffff);
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) {
    return Fail(ErrorKind::kEnvironment, "cannot write " + tmp + ": " + std::strerror(errno));
  }
  size_t off = 0;
  while (off < content.size()) {
    ssize_t n = write(fd, content.data() + off, content.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(fd);
      unlink(tmp.c_str());
      return Fail(ErrorKind::kEnvironment, "cannot write " + tmp + ": " + std::strerror(e));
    }
    off += static_cast<size_t>(n);
  }
  fsync(fd);
  close(fd);
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    unlink(tmp.c_str());
    return Fail(ErrorKind::kEnvironment, "cannot rename " + tmp + ": " + std::strerror(e));
  }
  return Ok();
}

Result<std::filesystem::path> ResolveOutputPath(const std::filesystem::path& path) {
  const auto refuse = [&](const std::string& why) {
    return Fail(ErrorKind::kUsage, path.string() + ": " + why);
  };
  if (path.empty()) return refuse("an empty path");
  struct stat link = {};
  if (lstat(path.c_str(), &link) == 0) {
    struct stat target = {};
    if (stat(path.c_str(), &target) != 0) {
      return refuse("a symlink to nothing; write to a regular file instead");
    }
    if (!S_ISREG(target.st_mode)) {
      return refuse(KindOf(target.st_mode) + "; only regular files are written");
    }
    if (!S_ISLNK(link.st_mode)) return path;
    // The file the link names is replaced (atomically, beside it); the link stays.
    std::error_code ec;
    auto resolved = std::filesystem::canonical(path, ec);
    if (ec) return refuse("cannot follow the symlink: " + ec.message());
    return resolved;
  }
  if (errno != ENOENT) return refuse(std::string("cannot write it: ") + std::strerror(errno));
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return refuse("directory " + dir.string() + " does not exist; create it first");
  }
  return path;
}

Status CheckOutputDir(const std::filesystem::path& dir, const std::vector<std::string>& files) {
  if (dir.empty()) return Fail(ErrorKind::kUsage, "an empty output directory");
  // "out/" names the directory "out".
  const std::filesystem::path named = dir.has_filename() ? dir : dir.parent_path();
  std::error_code ec;
  const auto status = std::filesystem::status(named, ec);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_directory(status)) {
      return Fail(ErrorKind::kUsage, dir.string() + ": not a directory; name a directory");
    }
    for (const auto& file : files) {
      if (auto resolved = ResolveOutputPath(dir / file); !resolved) {
        return tl::unexpected(resolved.error());
      }
    }
    return Ok();
  }
  // A new directory goes in one that exists, as a new output file does (ResolveOutputPath).
  if (auto resolved = ResolveOutputPath(named); !resolved) return tl::unexpected(resolved.error());
  return Ok();
}

Status WriteOutputFile(const std::filesystem::path& path, std::string_view content) {
  auto target = ResolveOutputPath(path);
  if (!target) return tl::unexpected(target.error());
  return WriteFileAtomic(*target, content);
}

Result<std::string> ReadFile(const std::filesystem::path& path) {
  return ReadRegular(path, kMaxReadBytes, Beyond::kRefuse);
}

Result<std::string> ReadFileHead(const std::filesystem::path& path, size_t max_bytes) {
  return ReadRegular(path, max_bytes, Beyond::kStop);
}

std::string ReadTail(const std::filesystem::path& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const auto size = static_cast<size_t>(in.tellg());
  const size_t start = size > max_bytes ? size - max_bytes : 0;
  in.seekg(static_cast<std::streamoff>(start));
  std::string tail(size - start, '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  if (start > 0) {
    auto nl = tail.find('\n');
    if (nl != std::string::npos) tail.erase(0, nl + 1);
  }
  return tail;
}

}  // namespace dfbench::core
