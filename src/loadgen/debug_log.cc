#include "loadgen/debug_log.h"

#include <cstdarg>
#include <cstdio>
#include <string>

namespace dfbench::loadgen {

void DebugLine(int thread, const char* format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  const std::string line = "[loadgen thread " + std::to_string(thread) + "] " + text + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace dfbench::loadgen
