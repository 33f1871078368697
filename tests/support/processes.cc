#include "support/processes.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <sstream>

namespace dfbench::testing {
namespace {

// A /proc file whole; "" or a part when the process goes away meanwhile (its reads then fail
// with ESRCH, which std::ifstream would turn into an exception).
std::string ReadProcFile(const std::filesystem::path& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

}  // namespace

std::vector<std::string> LiveProcesses(const std::string& needle) {
  std::vector<std::string> found;
  const std::string self = std::to_string(getpid());
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0])) || name == self) {
      continue;
    }
    std::istringstream status(ReadProcFile(entry.path() / "status"));
    std::string line;
    bool zombie = false;
    while (std::getline(status, line)) {
      if (line.rfind("State:", 0) == 0) zombie = line.find('Z') != std::string::npos;
    }
    if (zombie) continue;
    std::string cmdline = ReadProcFile(entry.path() / "cmdline");
    for (char& c : cmdline) {
      if (c == '\0') c = ' ';
    }
    if (cmdline.find(needle) != std::string::npos) found.push_back(name + " " + cmdline);
  }
  return found;
}

std::vector<int> ProcessesMatching(const std::string& needle) {
  std::vector<int> pids;
  for (const auto& process : LiveProcesses(needle)) pids.push_back(std::stoi(process));
  return pids;
}

std::vector<int> ChildrenNamed(int parent, const std::string& comm) {
  std::vector<int> pids;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = ReadProcFile(e.path() / "stat");
    const auto open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 > stat.size()) {
      continue;
    }
    std::istringstream rest(stat.substr(close + 2));
    std::string state;
    int ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && state != "Z" && stat.substr(open + 1, close - open - 1) == comm) {
      pids.push_back(std::stoi(name));
    }
  }
  return pids;
}

int RedisPort(int pid) {
  std::string text = ReadProcFile("/proc/" + std::to_string(pid) + "/cmdline");
  std::replace(text.begin(), text.end(), '\0', ' ');
  std::smatch m;
  if (std::regex_search(text, m, std::regex("--port (\\d+)")) ||
      std::regex_search(text, m, std::regex(":(\\d+)\\s*(\\[cluster\\])?\\s*$"))) {
    return std::stoi(m[1]);
  }
  return 0;
}

}  // namespace dfbench::testing
