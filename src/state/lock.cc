#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "core/files.h"
#include "state/state.h"

namespace dfbench::state {
namespace {

// The pid the holder wrote into the lock file, or "" when unreadable (e.g. mid-write).
std::string ReadHolderPid(int fd) {
  char buf[32] = {};
  const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return "";
  std::string pid(buf, static_cast<size_t>(n));
  pid = pid.substr(0, pid.find_first_not_of("0123456789"));
  return pid;
}

// Records our pid for the message a contender prints. Best effort: the lock is what counts.
void WriteHolderPid(int fd) {
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0) return;
  [[maybe_unused]] ssize_t n = pwrite(fd, pid.data(), pid.size(), 0);
}

}  // namespace

core::Result<SetupLock> SetupLock::Acquire(const std::string& id) {
  if (auto valid = ValidateId(id); !valid) return tl::unexpected(valid.error());
  const std::filesystem::path dir = SetupDir(id);
  if (auto made = core::MakeDirs(dir); !made) return tl::unexpected(made.error());
  const std::filesystem::path path = dir / ".lock";
  // O_CLOEXEC: engines and load generators we spawn must not keep the setup locked.
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot open " + path.string() + ": " + std::strerror(errno));
  }
  int rc;
  do {
    rc = flock(fd, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int err = errno;
    if (err == EWOULDBLOCK) {
      const std::string pid = ReadHolderPid(fd);
      close(fd);
      return core::Fail(core::ErrorKind::kLocked, "setup \"" + id +
                                                      "\" is locked by another dfbench command" +
                                                      (pid.empty() ? "" : " (pid " + pid + ")"));
    }
    close(fd);
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot lock " + path.string() + ": " + std::strerror(err));
  }
  WriteHolderPid(fd);
  return SetupLock(fd);
}

SetupLock::SetupLock(SetupLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

SetupLock::~SetupLock() {
  // Closing the last descriptor of the open file releases the flock.
  if (fd_ >= 0) close(fd_);
}

}  // namespace dfbench::state
