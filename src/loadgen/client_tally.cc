#include "loadgen/client_tally.h"

namespace dfbench::loadgen {
namespace {

// memtier's per-client histograms (safe_hdr_histogram in run_stats_types.h): 10 us to 600 s,
// two significant digits, in microseconds. The same buckets give the same table rows.
constexpr int64_t kLowestUs = 10;
constexpr int64_t kHighestUs = 600'000'000;
constexpr int kDigits = 2;

}  // namespace

ClientTally::ClientTally(size_t slots) : slots_(slots), latency_us_(slots, EmptyLatency()) {}

core::HdrHistogram ClientTally::EmptyLatency() {
  return *core::HdrHistogram::Make(kLowestUs, kHighestUs, kDigits);
}

void ClientTally::Start(int64_t second) {
  seconds_.push_back({.second = second, .slots = std::vector<SlotCounters>(slots_)});
}

}  // namespace dfbench::loadgen
