#include "aws_emulator.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/files.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

bool Accepts(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

// An emulator that is there but does not come up is a failure, not a reason to skip.
std::string Broken(const std::string& why) {
  ADD_FAILURE() << why;
  return why;
}

}  // namespace

std::string AwsEmulator::Start(const std::vector<std::pair<std::string, std::string>>& extra_env) {
  const std::string script = std::string(DFBENCH_TESTBEDS_DIR) + "/moto_bench_server.py";
  if (!std::filesystem::exists(script)) return "no AWS emulator at " + script;
  auto moto = core::RunCapture({"python3", "-c", "import moto"});
  if (!moto || !moto->status.ok()) {
    return "python3 cannot import moto (pip install 'moto[server]' to run this test)";
  }
  port_ = FreePort();
  log_ = std::filesystem::path(::testing::TempDir()) / "dfbench-moto.log";
  auto p = core::Spawn({.argv = {"python3", script, "-H", "127.0.0.1", "-p", std::to_string(port_)},
                        .stdout_path = log_.string(),
                        .stderr_path = log_.string(),
                        .extra_env = extra_env});
  if (!p) return Broken("cannot start the AWS emulator: " + p.error().message);
  server_ = std::move(*p);
  bool exited = false;
  const auto listening = WaitUntil(
      [&] {
        exited = server_.Poll().has_value();
        return exited || Accepts(port_);
      },
      std::chrono::seconds(30), "the AWS emulator to listen");
  if (exited) return Broken("the AWS emulator exited: " + core::ReadTail(log_));
  if (!listening) return Broken(std::string(listening.message()) + ": " + core::ReadTail(log_));
  return "";
}

void AwsEmulator::ExportToEnvironment() const {
  ::setenv("AWS_ENDPOINT_URL", url().c_str(), 1);
  ::setenv("AWS_ACCESS_KEY_ID", "testing", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "testing", 1);
  ::unsetenv("AWS_SESSION_TOKEN");
  ::unsetenv("AWS_PROFILE");
}

aws::Client AwsEmulator::Client() {
  return aws::Client(aws::Credentials{"testing", "testing", "", "test"}, "us-east-1");
}

}  // namespace dfbench::testing
