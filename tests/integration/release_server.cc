#include "release_server.h"

#include <gtest/gtest.h>

#include "core/files.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench::testing {

namespace fs = std::filesystem;

ReleaseServer::ReleaseServer(const std::string& address)
    : dir_("releases"),
      log_(dir_ / ".." / (dir_.path().filename().string() + ".log")),
      address_(address) {
  port_ = FreePort();
  auto p = core::Spawn({.argv = {"python3", "-m", "http.server", std::to_string(port_), "--bind",
                                 address_, "--directory", dir_.path().string()},
                        .stdout_path = log_.string(),
                        .stderr_path = log_.string()});
  if (p) process_ = std::move(*p);
  EXPECT_TRUE(WaitUntil([&] { return Listening(); }, std::chrono::seconds(5),
                        "the release server to listen"));
}

ReleaseServer::~ReleaseServer() {
  process_.Terminate(std::chrono::seconds(2));
  std::error_code ec;
  fs::remove(log_, ec);
}

std::string ReleaseServer::Url(const std::string& file) const {
  return "http://" + address_ + ":" + std::to_string(port_) + (file.empty() ? "" : "/" + file);
}

int ReleaseServer::Downloads(const std::string& file) const {
  auto text = core::ReadFile(log_);
  int n = 0;
  const std::string needle = "\"GET /" + file + " ";
  for (size_t pos = 0; text && (pos = text->find(needle, pos)) != std::string::npos; ++pos) ++n;
  return n;
}

bool ReleaseServer::Listening() const {
  auto r =
      core::RunCapture({"curl", "-fsS", "-o", "/dev/null", Url() + "/"}, std::chrono::seconds(5));
  return r && r->status.ok();
}

std::string RedisServer() {
  auto r = core::RunCapture({"sh", "-c", "command -v redis-server"}, std::chrono::seconds(10));
  return r && r->status.ok() ? r->out.substr(0, r->out.find('\n')) : "";
}

void Shell(const fs::path& dir, const std::string& script) {
  auto r = core::RunCapture({"sh", "-c", "cd \"$0\" && " + script, dir.string()},
                            std::chrono::minutes(1));
  ASSERT_TRUE(r && r->status.ok()) << script << ": " << (r ? r->err : r.error().message);
}

void MakeRelease(const ReleaseServer& server, const std::string& archive, const std::string& top,
                 const std::string& program, bool checksum) {
  fs::create_directories(server.dir() / top / "bin");
  fs::copy_file(RedisServer(), server.dir() / top / "bin" / program,
                fs::copy_options::overwrite_existing);
  Shell(server.dir(), "tar czf " + archive + " " + top + " && rm -rf " + top);
  if (checksum) Shell(server.dir(), "sha256sum " + archive + " > " + archive + ".sha256");
}

}  // namespace dfbench::testing
