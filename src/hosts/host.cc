#include "hosts/host.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "core/files.h"
#include "core/text.h"
#include "hosts/remote_facts.h"

namespace dfbench::hosts {
namespace {

constexpr std::chrono::milliseconds kReadTimeout = std::chrono::seconds(30);
constexpr std::chrono::milliseconds kTransferTimeout = std::chrono::minutes(30);

// $1 mode, $2 temporary name, $3 destination; the file's bytes on stdin. The temporary file
// goes whatever happens (a kill by TERM included), so the destination is whole or untouched.
constexpr const char* kUploadScript = R"sh(t=$2
trap 'rm -f -- "$t"' EXIT
trap 'exit 143' TERM HUP INT
mkdir -p -- "$(dirname -- "$3")" && cat >"$t" && chmod "$1" -- "$t" && mv -f -- "$t" "$3"
)sh";

}  // namespace

core::Result<bool> Host::PortListening(int port) {
  // Asked on the host itself: through an SSH forward a connection is always accepted here.
  // tcp6 may be absent (IPv6 disabled): what was printed still counts.
  auto r = Run({.argv = {"cat", "/proc/net/tcp", "/proc/net/tcp6"}, .timeout = kReadTimeout});
  if (!r) return tl::unexpected(r.error());
  return ListeningPorts(r->out).contains(port);
}

std::string Host::ReadTail(const std::string& path, size_t max_bytes) {
  // One byte more than asked tells whether the file is longer, i.e. whether the first line
  // read is cut.
  auto r = Run({.argv = {"tail", "-c", std::to_string(max_bytes + 1), "--", path},
                .timeout = kReadTimeout,
                .interrupts = core::Interrupts::kIgnore});
  if (!r || !r->status.ok()) return "";
  std::string text = std::move(r->out);
  if (text.size() > max_bytes) {
    const size_t nl = text.find('\n', 1);
    text.erase(0, nl == std::string::npos ? 1 : nl + 1);
  }
  return text;
}

core::Status Host::Fetch(const std::string& remote_path, const std::filesystem::path& local_path) {
  // After Ctrl+C too: what was measured is kept.
  auto r = Run({.argv = {"cat", "--", remote_path},
                .timeout = kTransferTimeout,
                .interrupts = core::Interrupts::kIgnore});
  core::Status st;
  if (!r) {
    st = tl::unexpected(core::WithContext(r.error(), "cannot fetch " + remote_path));
  } else if (!r->status.ok()) {
    st = core::Fail(core::ErrorKind::kEnvironment, "cannot fetch " + remote_path + " from " +
                                                       Name() + ": " + core::FirstLine(r->err));
  } else {
    st = core::WriteFileAtomic(local_path, r->out);
  }
  if (!st) {
    std::error_code ec;
    std::filesystem::remove(local_path, ec);
  }
  return st;
}

core::Status Host::Upload(const std::filesystem::path& local_path, const std::string& remote_path,
                          unsigned mode) {
  if (remote_path.empty() || remote_path.front() != '/') {
    return core::Fail(core::ErrorKind::kUsage, "upload needs an absolute path: " + remote_path);
  }
  if (access(local_path.c_str(), R_OK) != 0) {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot read " + local_path.string());
  }
  static std::atomic<uint64_t> sequence{0};
  const std::string tmp =
      remote_path + ".part-" + std::to_string(getpid()) + "-" + std::to_string(sequence++);
  char octal[8];
  std::snprintf(octal, sizeof(octal), "%o", mode);
  auto r = Run({.argv = {"sh", "-c", kUploadScript, "sh", octal, tmp, remote_path},
                .timeout = kTransferTimeout,
                .stdin_path = local_path.string()});
  if (r && r->status.ok()) return core::Ok();
  if (!r && r.error().kind == core::ErrorKind::kInterrupted) return tl::unexpected(r.error());
  return core::Fail(core::ErrorKind::kEnvironment,
                    "cannot upload " + local_path.string() + " to " + Name() + ": " +
                        (r ? core::FirstLine(r->err) : r.error().message));
}

}  // namespace dfbench::hosts
