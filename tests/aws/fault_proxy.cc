#include "fault_proxy.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

#include "core/files.h"
#include "core/text.h"
#include "support/wait_until.h"

namespace dfbench::testing {

std::string FaultProxy::Start(const std::string& upstream, const std::vector<std::string>& rules) {
  dir_ = std::filesystem::path(::testing::TempDir()) /
         ("fault-proxy-" + std::to_string(::getpid()) + "-" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  std::vector<std::string> argv = {"python3",
                                   std::string(DFBENCH_TESTS_AWS_DIR) + "/fault_proxy.py", upstream,
                                   (dir_ / "port").string(), (dir_ / "log").string()};
  argv.insert(argv.end(), rules.begin(), rules.end());
  auto p = core::Spawn({.argv = argv,
                        .stdout_path = (dir_ / "out").string(),
                        .stderr_path = (dir_ / "out").string()});
  if (!p) {
    ADD_FAILURE() << "cannot start the fault proxy: " << p.error().message;
    return p.error().message;
  }
  process_ = std::move(*p);
  std::string port;
  WaitUntil(
      [&] {
        if (auto text = core::ReadFile(dir_ / "port")) port = core::Trim(*text);
        return !port.empty() || process_.Poll().has_value();
      },
      std::chrono::seconds(10), "the fault proxy's port file");
  if (!port.empty()) {
    port_ = std::stoi(port);
    return "";
  }
  std::string why = "the fault proxy did not start: " + core::ReadTail(dir_ / "out");
  ADD_FAILURE() << why;
  return why;
}

std::vector<std::string> FaultProxy::Log() const {
  std::vector<std::string> lines;
  std::istringstream in(core::ReadFile(dir_ / "log").value_or(""));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

size_t FaultProxy::Seen(const std::string& action) const {
  size_t n = 0;
  for (const auto& line : Log()) n += line.starts_with(action + " ");
  return n;
}

size_t FaultProxy::Reached(const std::string& action) const {
  size_t n = 0;
  for (const auto& line : Log()) {
    n += line.starts_with(action + " ") && line.find(" refuse ") == std::string::npos &&
         line.find(" throttle ") == std::string::npos;
  }
  return n;
}

}  // namespace dfbench::testing
