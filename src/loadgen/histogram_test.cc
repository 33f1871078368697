#include "loadgen/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <vector>

namespace dfbench::loadgen {
namespace {

using H = LatencyHistogram;

// Percentiles as millionths of a percent, so the test's exact ranks use integer math only.
const std::vector<uint64_t> kPercentilesMicro = {
    1,          100,        1'000'000,  10'000'000, 25'000'000, 50'000'000, 75'000'000,
    90'000'000, 99'000'000, 99'900'000, 99'990'000, 99'999'000, 99'999'999};

std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> Buckets(const H& h) {
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> out;
  h.ForEachBucket([&](uint64_t lo, uint64_t hi, uint64_t n) { out.emplace_back(lo, hi, n); });
  return out;
}

void ExpectSame(const H& a, const H& b) {
  EXPECT_EQ(a.count(), b.count());
  EXPECT_EQ(a.min_ns(), b.min_ns());
  EXPECT_EQ(a.max_ns(), b.max_ns());
  EXPECT_EQ(a.mean_ns(), b.mean_ns());
  EXPECT_EQ(a.below_range_count(), b.below_range_count());
  EXPECT_EQ(a.above_range_count(), b.above_range_count());
  EXPECT_EQ(Buckets(a), Buckets(b));
  for (uint64_t micro : kPercentilesMicro) {
    const double p = static_cast<double>(micro) / 1e6;
    EXPECT_EQ(a.ValueAtPercentile(p), b.ValueAtPercentile(p)) << p;
  }
}

TEST(LatencyHistogramTest, BucketGeometry) {
  EXPECT_EQ(H::BucketLowestNs(0), H::kLowestNs);
  EXPECT_EQ(H::BucketHighestNs(0), H::kLowestNs);
  EXPECT_EQ(H::BucketIndex(H::kHighestNs), H::bucket_count() - 1);
  EXPECT_LE(H::BucketLowestNs(H::bucket_count() - 1), H::kHighestNs);
  EXPECT_GE(H::BucketHighestNs(H::bucket_count() - 1), H::kHighestNs);
  EXPECT_LT(H::bucket_count(), 40'000u);  // fixed memory: ~32k buckets
  for (size_t i = 0; i < H::bucket_count(); ++i) {
    const uint64_t lo = H::BucketLowestNs(i);
    const uint64_t hi = H::BucketHighestNs(i);
    ASSERT_LE(lo, hi);
    if (i > 0) {
      ASSERT_EQ(lo, H::BucketHighestNs(i - 1) + 1) << i;
    }
    ASSERT_EQ(H::BucketIndex(lo), i);
    if (i + 1 < H::bucket_count()) {
      ASSERT_EQ(H::BucketIndex(hi), i);
    }
    // 3 significant digits: a bucket is at most 1/1000 of its lowest value wide.
    ASSERT_LE((hi - lo + 1) * 1000, lo) << i;
  }
  EXPECT_EQ(H::BucketIndex(0), 0u);
  EXPECT_EQ(H::BucketIndex(UINT64_MAX), H::bucket_count() - 1);
}

TEST(LatencyHistogramTest, Empty) {
  H h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min_ns(), 0u);
  EXPECT_EQ(h.max_ns(), 0u);
  EXPECT_EQ(h.mean_ns(), 0.0);
  for (double p : {0.0, 50.0, 100.0}) EXPECT_EQ(h.ValueAtPercentile(p), 0u);
  EXPECT_TRUE(Buckets(h).empty());
  h.RecordN(5000, 0);  // a zero count records nothing
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.max_ns(), 0u);
}

TEST(LatencyHistogramTest, SingleValueIsExactAtEveryPercentile) {
  for (uint64_t v : {uint64_t{1'000}, uint64_t{1'234}, uint64_t{123'456}, uint64_t{987'654'321},
                     H::kHighestNs}) {
    H h;
    h.Record(v);
    EXPECT_EQ(h.count(), 1u);
    EXPECT_EQ(h.min_ns(), v);
    EXPECT_EQ(h.max_ns(), v);
    EXPECT_EQ(h.mean_ns(), static_cast<double>(v));
    for (double p : {-1.0, 0.0, 1e-9, 0.001, 50.0, 99.999, 100.0, 1000.0}) {
      EXPECT_EQ(h.ValueAtPercentile(p), v) << v << " at " << p;
    }
  }
}

TEST(LatencyHistogramTest, EdgePercentilesAndRanks) {
  H h;
  h.Record(1'000);
  h.Record(2'000);
  EXPECT_EQ(h.ValueAtPercentile(0), 1'000u);
  EXPECT_EQ(h.ValueAtPercentile(std::nan("")), 1'000u);
  EXPECT_EQ(h.ValueAtPercentile(50), 1'000u);         // rank ceil(1.0) = 1
  EXPECT_EQ(h.ValueAtPercentile(50.000001), 2'000u);  // rank 2
  EXPECT_EQ(h.ValueAtPercentile(100), 2'000u);
  // 99.9 of 1000 values is rank 999 exactly, though 99.9 is not exact in binary.
  H k;
  for (uint64_t v = 1; v <= 1000; ++v) k.Record(1'000 + v);
  EXPECT_EQ(k.ValueAtPercentile(99.9), 1'999u);
  EXPECT_EQ(k.ValueAtPercentile(99.90001), 2'000u);
  EXPECT_EQ(k.ValueAtPercentile(0.1), 1'001u);
}

TEST(LatencyHistogramTest, PercentilesWithinPrecisionOfSortedValues) {
  std::mt19937_64 rng(42);
  struct Range {
    uint64_t lo, hi;
    bool log_uniform;
  };
  const std::vector<Range> ranges = {{1'000, 2'000, false},
                                     {1'000, 1'000'000, false},
                                     {50'000, 5'000'000, false},
                                     {1'000'000, 1'000'000'000, false},
                                     {1'000, H::kHighestNs, true}};
  for (const Range& r : ranges) {
    for (size_t n : {size_t{1}, size_t{7}, size_t{1000}, size_t{100'000}}) {
      SCOPED_TRACE(std::to_string(r.lo) + ".." + std::to_string(r.hi) + " n=" + std::to_string(n));
      H h;
      std::vector<uint64_t> values(n);
      long double sum = 0;
      for (auto& v : values) {
        if (r.log_uniform) {
          std::uniform_real_distribution<double> e(std::log(double(r.lo)), std::log(double(r.hi)));
          v = std::clamp<uint64_t>(static_cast<uint64_t>(std::exp(e(rng))), r.lo, r.hi);
        } else {
          v = std::uniform_int_distribution<uint64_t>(r.lo, r.hi)(rng);
        }
        h.Record(v);
        sum += v;
      }
      std::sort(values.begin(), values.end());
      EXPECT_EQ(h.count(), n);
      EXPECT_EQ(h.min_ns(), values.front());
      EXPECT_EQ(h.max_ns(), values.back());
      EXPECT_NEAR(h.mean_ns(), static_cast<double>(sum / n), h.mean_ns() * 1e-12);
      EXPECT_EQ(h.ValueAtPercentile(0), values.front());
      EXPECT_EQ(h.ValueAtPercentile(100), values.back());
      uint64_t previous = 0;
      for (uint64_t micro : kPercentilesMicro) {
        const uint64_t rank = std::max<uint64_t>(1, (micro * n + 99'999'999) / 100'000'000);
        const uint64_t exact = values[rank - 1];
        const uint64_t got = h.ValueAtPercentile(static_cast<double>(micro) / 1e6);
        EXPECT_GE(got, exact) << "p" << micro;
        EXPECT_LE(got - exact, exact / 1000) << "p" << micro;
        EXPECT_LE(got, values.back());
        EXPECT_GE(got, previous);  // monotonic in p
        previous = got;
      }
    }
  }
}

TEST(LatencyHistogramTest, MergeEqualsRecordingAllInOne) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<uint64_t> dist(0, 50'000'000);
  H a, b, all;
  for (int i = 0; i < 20'000; ++i) {
    const uint64_t v = dist(rng);
    (i % 3 == 0 ? a : b).Record(v);
    all.Record(v);
  }
  a.Record(H::kHighestNs * 2);
  all.Record(H::kHighestNs * 2);
  H merged;
  merged.Merge(a);
  merged.Merge(b);
  merged.Merge(H());  // merging an empty histogram changes nothing
  ExpectSame(merged, all);
  a.Merge(b);
  ExpectSame(a, all);
}

TEST(LatencyHistogramTest, ClampsOutOfRangeValuesAndCountsThem) {
  H h;
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{999}}) h.Record(v);
  for (uint64_t v : {H::kHighestNs + 1, UINT64_MAX}) h.Record(v);
  h.Record(50'000);
  EXPECT_EQ(h.count(), 6u);
  EXPECT_EQ(h.below_range_count(), 3u);
  EXPECT_EQ(h.above_range_count(), 2u);
  EXPECT_EQ(h.min_ns(), 0u);
  EXPECT_EQ(h.max_ns(), UINT64_MAX);
  const long double sum = 0.0L + 1 + 999 + (H::kHighestNs + 1) + UINT64_MAX + 50'000;
  EXPECT_DOUBLE_EQ(h.mean_ns(), static_cast<double>(sum / 6));
  const auto buckets = Buckets(h);
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_EQ(buckets.front(), std::make_tuple(H::kLowestNs, H::kLowestNs, uint64_t{3}));
  EXPECT_EQ(std::get<2>(buckets.back()), 2u);
  EXPECT_EQ(std::get<0>(buckets.back()), H::BucketLowestNs(H::bucket_count() - 1));
  EXPECT_EQ(h.ValueAtPercentile(50), H::kLowestNs);  // the first bucket's highest value
  EXPECT_EQ(h.ValueAtPercentile(100), UINT64_MAX);
  EXPECT_EQ(h.ValueAtPercentile(99), H::BucketHighestNs(H::bucket_count() - 1));

  H low;
  low.Record(500);
  EXPECT_EQ(low.ValueAtPercentile(50), 500u);  // capped at the exact max
}

TEST(LatencyHistogramTest, LargeCounts) {
  H h;
  const uint64_t n = 1'000'000'000'000'000;  // 1e15 each: sums far beyond 64 bits
  h.RecordN(5'000, n);
  h.RecordN(1'000'000'000, n);
  EXPECT_EQ(h.count(), 2 * n);
  EXPECT_EQ(h.ValueAtPercentile(50), H::BucketHighestNs(H::BucketIndex(5'000)));
  EXPECT_EQ(h.ValueAtPercentile(50.000001), 1'000'000'000u);
  EXPECT_DOUBLE_EQ(h.mean_ns(), (5'000.0 + 1e9) / 2);
  H twice;
  twice.Merge(h);
  twice.Merge(h);
  EXPECT_EQ(twice.count(), 4 * n);
  EXPECT_DOUBLE_EQ(twice.mean_ns(), h.mean_ns());
}

TEST(LatencyHistogramTest, ResetAndCopy) {
  H h;
  for (uint64_t v = 1'000; v < 100'000; v += 37) h.Record(v);
  H copy = h;
  ExpectSame(copy, h);
  copy.Record(5);
  EXPECT_EQ(copy.count(), h.count() + 1);
  H assigned;
  assigned = h;
  ExpectSame(assigned, h);
  H moved = std::move(assigned);
  ExpectSame(moved, h);
  h.Reset();
  ExpectSame(h, H());
  h.Record(4'242);
  EXPECT_EQ(h.min_ns(), 4'242u);
  EXPECT_EQ(h.ValueAtPercentile(50), 4'242u);
}

// The buckets are HdrHistogram's: as an HdrHistogram they hold the same counts in the same
// ranges, and give the same percentiles up to the cap at the exact maximum.
TEST(LatencyHistogramTest, ItsHdrFormHasTheSameBucketsAndPercentiles) {
  H h;
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> latency(12.0, 1.2);
  for (int i = 0; i < 50000; ++i) h.Record(static_cast<uint64_t>(latency(rng)));
  const core::HdrHistogram hdr = h.ToHdr();
  EXPECT_EQ(hdr.total_count(), static_cast<int64_t>(h.count()));
  h.ForEachBucket([&](uint64_t lo, uint64_t hi, uint64_t n) {
    const size_t i = hdr.IndexOf(static_cast<int64_t>(lo));
    EXPECT_EQ(hdr.LowestAt(i), static_cast<int64_t>(lo));
    EXPECT_EQ(hdr.HighestAt(i), static_cast<int64_t>(hi));
    EXPECT_EQ(hdr.counts()[i], static_cast<int64_t>(n));
  });
  for (uint64_t micro : kPercentilesMicro) {
    const double p = static_cast<double>(micro) / 1e6;
    EXPECT_EQ(std::min<uint64_t>(static_cast<uint64_t>(hdr.ValueAtPercentile(p)), h.max_ns()),
              h.ValueAtPercentile(p))
        << p;
  }
}

TEST(LatencyHistogramTest, BucketsAreOrderedAndHoldEveryValue) {
  H h;
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<uint64_t> dist(1'000, 10'000'000);
  for (int i = 0; i < 5'000; ++i) h.Record(dist(rng));
  uint64_t total = 0, last_hi = 0;
  h.ForEachBucket([&](uint64_t lo, uint64_t hi, uint64_t n) {
    EXPECT_GT(lo, last_hi);
    EXPECT_GT(n, 0u);
    EXPECT_EQ(H::BucketIndex(lo), H::BucketIndex(hi));
    last_hi = hi;
    total += n;
  });
  EXPECT_EQ(total, h.count());
}

}  // namespace
}  // namespace dfbench::loadgen
