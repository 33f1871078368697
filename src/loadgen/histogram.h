// The latency histogram of the load generator. Log-linear buckets in the manner of
// HdrHistogram (Debian packages no C or C++ implementation; this one is small, fixed-size and
// tested here): each power-of-two range of nanoseconds is split into 1024 linear buckets, so a
// bucket is at most 1/1000 of its values wide (3 significant decimal digits) from 1 us to 1 h.
//
// One histogram per thread: Record is not thread-safe. Merge them once, at the end.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/hdr_histogram.h"

namespace dfbench::loadgen {

// HdrHistogram's reporting percentiles, as memtier prints them (its LATENCY_HDR_GRANULARITY):
// ten steps per halving of the distance to 100 %. Its latency distribution and its per-client
// CSV tables both use them.
inline constexpr int kPercentileTicksPerHalfDistance = 10;

namespace histogram_detail {

inline constexpr uint64_t kLowestNs = 1'000;               // 1 us
inline constexpr uint64_t kHighestNs = 3'600'000'000'000;  // 1 h
inline constexpr int kSubBucketBits = 10;

// Values of 2^(10+s) .. 2^(11+s)-1 ns fall into 1024 buckets 2^s ns wide; below 2048 ns each
// nanosecond has its own bucket. Index = s * 1024 + (ns >> s) - kLowestNs, for ns >= kLowestNs.
constexpr size_t IndexOf(uint64_t ns) {
  const int width = std::bit_width(ns);
  const int shift = width > kSubBucketBits + 1 ? width - kSubBucketBits - 1 : 0;
  return (static_cast<size_t>(shift) << kSubBucketBits) + (ns >> shift) - kLowestNs;
}

}  // namespace histogram_detail

class LatencyHistogram {
 public:
  static constexpr uint64_t kLowestNs = histogram_detail::kLowestNs;    // 1 us
  static constexpr uint64_t kHighestNs = histogram_detail::kHighestNs;  // 1 h
  static constexpr int kSignificantDigits = 3;

  LatencyHistogram();  // allocates its fixed bucket array (~260 KiB) once
  LatencyHistogram(const LatencyHistogram& other);
  LatencyHistogram& operator=(const LatencyHistogram& other);
  // A moved-from histogram may only be assigned to or destroyed.
  LatencyHistogram(LatencyHistogram&&) noexcept = default;
  LatencyHistogram& operator=(LatencyHistogram&&) noexcept = default;

  // Records one value (or `count` equal values), in nanoseconds. Values below kLowestNs are
  // counted in the first bucket, values above kHighestNs in the last; below_range_count()
  // and above_range_count() say how many. min/max/mean use the exact values. No allocation.
  void Record(uint64_t ns) { RecordN(ns, 1); }
  void RecordN(uint64_t ns, uint64_t count) {
    if (count == 0) return;
    uint64_t clamped = ns;
    if (ns < kLowestNs) {
      clamped = kLowestNs;
      below_range_ += count;
    } else if (ns > kHighestNs) {
      clamped = kHighestNs;
      above_range_ += count;
    }
    counts_[IndexOf(clamped)] += count;
    count_ += count;
    sum_ns_ += static_cast<unsigned __int128>(ns) * count;
    if (ns < min_ns_) min_ns_ = ns;
    if (ns > max_ns_) max_ns_ = ns;
  }

  // Adds every value recorded in `other`: the same as having recorded them all here.
  void Merge(const LatencyHistogram& other);
  void Reset();

  uint64_t count() const { return count_; }
  uint64_t min_ns() const { return count_ == 0 ? 0 : min_ns_; }  // 0 when empty
  uint64_t max_ns() const { return max_ns_; }                    // 0 when empty
  double mean_ns() const;                                        // 0 when empty
  uint64_t below_range_count() const { return below_range_; }
  uint64_t above_range_count() const { return above_range_; }

  // The value at percentile `p` (0..100), in nanoseconds; 0 when empty. p <= 0 (or NaN) gives
  // min_ns(), p >= 100 gives max_ns(). Otherwise, at core::RankAtPercentile's rank, the result is
  // the highest value of the bucket that holds the rank-th smallest value, capped at max_ns(). For
  // values within [kLowestNs, kHighestNs] it is never below the exact answer and exceeds it by less
  // than 1/1000 of it.
  uint64_t ValueAtPercentile(double p) const;

  // The same counts as an HdrHistogram of 1 ns .. kHighestNs, 3 significant digits, whose
  // buckets these are (values below kLowestNs counted at kLowestNs): the form in which they
  // leave the generator and merge with other generators'.
  core::HdrHistogram ToHdr() const;

  // Bucket geometry, for tests and readers of the buckets.
  static size_t BucketIndex(uint64_t ns);  // ns is clamped into [kLowestNs, kHighestNs]
  static uint64_t BucketLowestNs(size_t index);
  static uint64_t BucketHighestNs(size_t index);
  static constexpr size_t bucket_count() { return kBucketCount; }

  // Calls f(lowest_ns, highest_ns, count) for each non-empty bucket, in increasing order.
  // The first bucket also holds values below kLowestNs, the last values above kHighestNs.
  template <class F>
  void ForEachBucket(F&& f) const {
    for (size_t i = 0; i < bucket_count(); ++i) {
      if (counts_[i] != 0) f(BucketLowestNs(i), BucketHighestNs(i), counts_[i]);
    }
  }

 private:
  static size_t IndexOf(uint64_t ns) { return histogram_detail::IndexOf(ns); }
  static constexpr size_t kBucketCount = histogram_detail::IndexOf(kHighestNs) + 1;

  std::unique_ptr<uint64_t[]> counts_;
  uint64_t count_ = 0;
  uint64_t min_ns_ = UINT64_MAX;
  uint64_t max_ns_ = 0;
  unsigned __int128 sum_ns_ = 0;  // exact even for billions of hour-long values
  uint64_t below_range_ = 0;
  uint64_t above_range_ = 0;
};

}  // namespace dfbench::loadgen
