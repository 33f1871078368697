#include "core/log.h"

#include <cstdio>

namespace dfbench::core {
namespace {
bool g_quiet = false;
}  // namespace

void Note(const std::string& line) {
  if (g_quiet) return;
  std::fprintf(stderr, "dfbench: %s\n", line.c_str());
  std::fflush(stderr);
}

void SetQuiet(bool quiet) {
  g_quiet = quiet;
}

}  // namespace dfbench::core
