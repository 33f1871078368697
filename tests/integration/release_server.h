// A mirror of engine releases for tests: a real HTTP server (python3 -m http.server) serving a
// directory of release archives built in the test, with its access log, as a user's mirror
// named in DFBENCH_<ENGINE>_RELEASES would.
#pragma once

#include <filesystem>
#include <string>

#include "core/subprocess.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::testing {

class ReleaseServer {
 public:
  // Listens on a free port of `address`: 127.0.0.1, or an address SSH hosts reach.
  explicit ReleaseServer(const std::string& address = "127.0.0.1");
  ~ReleaseServer();
  ReleaseServer(const ReleaseServer&) = delete;
  ReleaseServer& operator=(const ReleaseServer&) = delete;

  // http://<address>:<port>[/file]
  std::string Url(const std::string& file = "") const;
  const std::filesystem::path& dir() const { return dir_.path(); }
  // The GET requests for `file` so far (its .sha256 not counted).
  int Downloads(const std::string& file) const;

 private:
  bool Listening() const;
  ScopedTempDir dir_;
  std::filesystem::path log_;
  std::string address_;
  int port_ = 0;
  core::Process process_;
};

// The path of this machine's redis-server, "" when it is not installed.
std::string RedisServer();

// `sh -c script` in `dir`; the test fails when it does.
void Shell(const std::filesystem::path& dir, const std::string& script);

// A release archive in `server`'s directory holding `program` (a copy of redis-server, which
// serves the same protocol as valkey-server) under `top`/bin, and its published checksum
// (<archive>.sha256) unless `checksum` is false.
void MakeRelease(const ReleaseServer& server, const std::string& archive, const std::string& top,
                 const std::string& program, bool checksum = true);

}  // namespace dfbench::testing
