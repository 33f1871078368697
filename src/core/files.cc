#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace dfbench::core {

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
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return Fail(ErrorKind::kEnvironment, "cannot create " + dir.string() + ": " + ec.message());
  return Ok();
}

Status MakePrivateDirs(const std::filesystem::path& dir) {
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

Result<std::string> ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      return Fail(ErrorKind::kNotFound, path.string() + ": no such file");
    }
    return Fail(ErrorKind::kEnvironment, path.string() + ": cannot read");
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
