// A CPU list shared out among several processes on one host: an engine's cluster shards, or
// the load generators of one client.
#pragma once

#include <vector>

namespace dfbench::core {

// The CPUs of process `index` of `count`: an even, contiguous share of `cpus` (one CPU each,
// round robin, when there are fewer CPUs than processes); empty when `cpus` is.
inline std::vector<int> CpuShare(const std::vector<int>& cpus, int index, int count) {
  if (cpus.empty()) return {};
  const int n = static_cast<int>(cpus.size());
  if (n < count) return {cpus[static_cast<size_t>(index % n)]};
  const auto first = cpus.begin() + index * n / count;
  const auto last = cpus.begin() + (index + 1) * n / count;
  return {first, last};
}

}  // namespace dfbench::core
