// -D/--debug's lines on stderr (memtier's benchmark_debug_log): what each connection does to come
// up and what goes wrong. Called only where Config::debug is set, never on the request path.
#pragma once

namespace dfbench::loadgen {

// One line, written whole (threads' lines do not interleave): "[loadgen thread T] ..." and a
// newline.
void DebugLine(int thread, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace dfbench::loadgen
