#include "core/standard_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "core/error.h"

namespace dfbench::core {
namespace {

// Why the first failed write failed: stdio drops a buffer it could not write, so by the end
// ferror() says that a write failed but no longer why.
int g_write_errno = 0;

}  // namespace

void WriteStdout(std::string_view text) {
  errno = 0;
  const bool written =
      std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0;
  if (!written && g_write_errno == 0) g_write_errno = errno != 0 ? errno : EIO;
}

int FlushStdout(int code) {
  // std::cout writes through stdout (synced with stdio): flushing it flushes stdout, and its bad
  // state is a write that failed.
  errno = 0;
  std::cout.flush();
  bool failed = !std::cout.good();
  int error = failed ? errno : 0;
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  if (flush_failed && error == 0) error = errno;
  // ferror: an earlier write failed. stdout is flushed, not closed: the C++ runtime flushes
  // std::cout through it once more at exit, and a closed FILE may not be touched; with the
  // buffer empty that last flush writes nothing.
  failed = failed || flush_failed || std::ferror(stdout) != 0 || g_write_errno != 0;
  if (!failed) return code;
  if (g_write_errno != 0) error = g_write_errno;
  std::fprintf(stderr, "dfbench: cannot write to standard output%s%s\n", error != 0 ? ": " : "",
               error != 0 ? std::strerror(error) : "");
  return code != 0 ? code : static_cast<int>(ErrorKind::kFailure);
}

}  // namespace dfbench::core
