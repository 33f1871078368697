#include "state/space_reserve.h"

#include <fcntl.h>
#include <unistd.h>

#include <string>

namespace dfbench::state {
namespace {

std::filesystem::path ReservePath(const std::filesystem::path& dir) {
  return dir / ".space-reserve";
}

}  // namespace

void KeepSpaceReserve(const std::filesystem::path& dir) {
  const std::filesystem::path path = ReservePath(dir);
  std::error_code ec;
  if (std::filesystem::file_size(path, ec) == kSpaceReserveBytes && !ec) return;
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return;
  // Zeros written, not a sparse file: the blocks must really be taken.
  const std::string zeros(kSpaceReserveBytes, '\0');
  size_t off = 0;
  while (off < zeros.size()) {
    const ssize_t n = write(fd, zeros.data() + off, zeros.size() - off);
    if (n <= 0) break;
    off += static_cast<size_t>(n);
  }
  close(fd);
  if (off < zeros.size()) unlink(path.c_str());  // a partial reserve would only mislead
}

bool ReleaseSpaceReserve(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::remove(ReservePath(dir), ec);
}

}  // namespace dfbench::state
