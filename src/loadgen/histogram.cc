#include "loadgen/histogram.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/hdr_histogram.h"

namespace dfbench::loadgen {
namespace {

// Decompose a bucket index into its shift s and the sub-bucket value q (1000..2047 for s = 0,
// 1024..2047 above): the bucket holds [q << s, ((q + 1) << s) - 1].
struct Geometry {
  int shift;
  uint64_t q;
};

Geometry GeometryOf(size_t index) {
  const uint64_t n = index + LatencyHistogram::kLowestNs;
  if (n < 2048) return {0, n};
  const int shift = static_cast<int>(n >> histogram_detail::kSubBucketBits) - 1;
  return {shift, n - (static_cast<uint64_t>(shift) << histogram_detail::kSubBucketBits)};
}

}  // namespace

LatencyHistogram::LatencyHistogram() : counts_(new uint64_t[kBucketCount]()) {}

LatencyHistogram::LatencyHistogram(const LatencyHistogram& other)
    : counts_(new uint64_t[kBucketCount]) {
  *this = other;
}

LatencyHistogram& LatencyHistogram::operator=(const LatencyHistogram& other) {
  if (this == &other) return *this;
  if (!counts_) counts_.reset(new uint64_t[kBucketCount]);
  std::memcpy(counts_.get(), other.counts_.get(), kBucketCount * sizeof(uint64_t));
  count_ = other.count_;
  min_ns_ = other.min_ns_;
  max_ns_ = other.max_ns_;
  sum_ns_ = other.sum_ns_;
  below_range_ = other.below_range_;
  above_range_ = other.above_range_;
  return *this;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (size_t i = 0; i < kBucketCount; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ns_ += other.sum_ns_;
  min_ns_ = std::min(min_ns_, other.min_ns_);
  max_ns_ = std::max(max_ns_, other.max_ns_);
  below_range_ += other.below_range_;
  above_range_ += other.above_range_;
}

void LatencyHistogram::Reset() {
  std::fill_n(counts_.get(), kBucketCount, 0);
  count_ = 0;
  min_ns_ = UINT64_MAX;
  max_ns_ = 0;
  sum_ns_ = 0;
  below_range_ = 0;
  above_range_ = 0;
}

double LatencyHistogram::mean_ns() const {
  if (count_ == 0) return 0;
  return static_cast<double>(static_cast<long double>(sum_ns_) / count_);
}

uint64_t LatencyHistogram::ValueAtPercentile(double p) const {
  if (count_ == 0) return 0;
  if (!(p > 0)) return min_ns();
  if (p >= 100) return max_ns_;
  const uint64_t rank = core::RankAtPercentile(p, count_);
  uint64_t seen = 0;
  for (size_t i = 0; i < kBucketCount; ++i) {
    seen += counts_[i];
    if (seen >= rank) return std::min(BucketHighestNs(i), max_ns_);
  }
  return max_ns_;  // not reached: the buckets hold count_ values
}

core::HdrHistogram LatencyHistogram::ToHdr() const {
  // The same buckets, HdrHistogram's from index kLowestNs on (below it, one per nanosecond).
  core::HdrHistogram hdr =
      *core::HdrHistogram::Make(1, static_cast<int64_t>(kHighestNs), kSignificantDigits);
  for (size_t i = 0; i < kBucketCount; ++i) {
    if (counts_[i] != 0) hdr.AddAtIndex(i + kLowestNs, static_cast<int64_t>(counts_[i]));
  }
  return hdr;
}

size_t LatencyHistogram::BucketIndex(uint64_t ns) {
  return IndexOf(std::clamp(ns, kLowestNs, kHighestNs));
}

uint64_t LatencyHistogram::BucketLowestNs(size_t index) {
  const Geometry g = GeometryOf(index);
  return g.q << g.shift;
}

uint64_t LatencyHistogram::BucketHighestNs(size_t index) {
  const Geometry g = GeometryOf(index);
  return ((g.q + 1) << g.shift) - 1;
}

}  // namespace dfbench::loadgen
