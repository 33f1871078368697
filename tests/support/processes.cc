#include "support/processes.h"

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace dfbench::testing {

std::vector<std::string> LiveProcesses(const std::string& needle) {
  std::vector<std::string> found;
  const std::string self = std::to_string(getpid());
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0])) || name == self) {
      continue;
    }
    std::ifstream status(entry.path() / "status");
    std::string line;
    bool zombie = false;
    while (std::getline(status, line)) {
      if (line.rfind("State:", 0) == 0) zombie = line.find('Z') != std::string::npos;
    }
    if (zombie) continue;
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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

}  // namespace dfbench::testing
