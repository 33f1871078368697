// The latency histogram's costs: Record runs once per request on the load path.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "loadgen/histogram.h"

namespace dfbench::loadgen {
namespace {

// Latencies spread like real ones: log-normal around ~200 us, a tail into milliseconds.
std::vector<uint64_t> Latencies(size_t n) {
  std::mt19937_64 rng(1);
  std::lognormal_distribution<double> dist(12.2, 0.8);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = static_cast<uint64_t>(dist(rng));
  return v;
}

void BM_HistogramRecord(benchmark::State& state) {
  const std::vector<uint64_t> values = Latencies(4096);
  LatencyHistogram h;
  size_t i = 0;
  for (auto _ : state) {
    h.Record(values[i++ & 4095]);
  }
  benchmark::DoNotOptimize(h.count());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_HistogramRecord);

void BM_HistogramValueAtPercentile(benchmark::State& state) {
  LatencyHistogram h;
  for (uint64_t v : Latencies(1 << 20)) h.Record(v);
  for (auto _ : state) benchmark::DoNotOptimize(h.ValueAtPercentile(99.9));
}
BENCHMARK(BM_HistogramValueAtPercentile);

void BM_HistogramMerge(benchmark::State& state) {
  LatencyHistogram a, b;
  for (uint64_t v : Latencies(1 << 16)) b.Record(v);
  for (auto _ : state) a.Merge(b);
  benchmark::DoNotOptimize(a.count());
}
BENCHMARK(BM_HistogramMerge);

}  // namespace
}  // namespace dfbench::loadgen
