#include "core/log.h"

#include <cstdio>

#include "core/text.h"

namespace dfbench::core {
namespace {
bool g_quiet = false;
}  // namespace

void Note(const std::string& line) {
  if (g_quiet) return;
  // Notes quote servers, hosts and tools (a version, an error reply): through the gate.
  std::fprintf(stderr, "dfbench: %s\n", Printable(line, true).c_str());
  std::fflush(stderr);
}

void SetQuiet(bool quiet) {
  g_quiet = quiet;
}

}  // namespace dfbench::core
