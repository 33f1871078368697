// A setup's state must be writable when its disk is full, or a command could not restore the
// status it holds (e.g. "benchmarking") on its way out. A small file of zeros beside
// state.json holds space for that: given back when a save fails, made again once one succeeds.
#pragma once

#include <filesystem>

namespace dfbench::state {

// The reserve's size: many times a state.json, whose saves need room for one copy of it.
inline constexpr size_t kSpaceReserveBytes = 64 * 1024;

// Creates <dir>/.space-reserve (kSpaceReserveBytes) when it is missing. Best effort: a reserve
// that cannot be made is left out, quietly, and tried again on the next call.
void KeepSpaceReserve(const std::filesystem::path& dir);

// Removes <dir>/.space-reserve; true when there was one to give back.
bool ReleaseSpaceReserve(const std::filesystem::path& dir);

}  // namespace dfbench::state
