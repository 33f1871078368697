#include "core/hdr_histogram.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <random>
#include <sstream>

namespace dfbench::core {
namespace {

// What HdrHistogram's readers do with the compressed form: base64, cookie, inflate.
std::string Inflated(const std::string& base64) {
  auto bytes = Base64Decode(base64);
  EXPECT_TRUE(bytes) << bytes.error().message;
  auto payload = CompressedPayload(*bytes);
  EXPECT_TRUE(payload) << payload.error().message;
  std::string out(1 << 20, '\0');
  uLongf size = out.size();
  const int rc = uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                            reinterpret_cast<const Bytef*>(payload->data()), payload->size());
  EXPECT_EQ(rc, Z_OK);
  out.resize(size);
  return out;
}

// ... and then decode.
HdrHistogram Decompressed(const std::string& base64) {
  auto h = HdrHistogram::DecodeV2(Inflated(base64));
  EXPECT_TRUE(h) << h.error().message;
  return std::move(*h);
}

HdrHistogram Nanoseconds() {
  return *HdrHistogram::Make(1, 3'600'000'000'000, 3);
}

TEST(RankAtPercentile, CeilOfTheShareExactlyAtNineDecimals) {
  EXPECT_EQ(RankAtPercentile(99.9, 1000), 999u);
  EXPECT_EQ(RankAtPercentile(50, 3), 2u);
  EXPECT_EQ(RankAtPercentile(0.0001, 10), 1u);
  EXPECT_EQ(RankAtPercentile(100, 10), 10u);
  EXPECT_EQ(RankAtPercentile(99.99, 1), 1u);
}

// The geometry of HdrHistogram(1, 1 h in ns, 3 digits): one bucket per value up to 2047, then
// 1024 buckets per power of two.
TEST(HdrHistogram, GeometryIsHdrHistograms) {
  const HdrHistogram h = Nanoseconds();
  EXPECT_EQ(h.IndexOf(0), 0u);
  EXPECT_EQ(h.IndexOf(2047), 2047u);
  EXPECT_EQ(h.IndexOf(2048), 2048u);
  EXPECT_EQ(h.IndexOf(2049), 2048u);
  EXPECT_EQ(h.LowestAt(2048), 2048);
  EXPECT_EQ(h.HighestAt(2048), 2049);
  EXPECT_EQ(h.IndexOf(4096), 3072u);
  EXPECT_EQ(h.HighestAt(3072), 4099);
  for (int64_t v : {int64_t{1}, int64_t{999}, int64_t{123456}, int64_t{987654321},
                    int64_t{3'000'000'000'000}}) {
    const size_t i = h.IndexOf(v);
    EXPECT_LE(h.LowestAt(i), v);
    EXPECT_GE(h.HighestAt(i), v);
    EXPECT_LE(static_cast<double>(h.HighestAt(i) - h.LowestAt(i)), v / 1000.0 + 1);
  }
  EXPECT_FALSE(HdrHistogram::Make(0, 100, 3));
  EXPECT_FALSE(HdrHistogram::Make(10, 15, 3));
  EXPECT_FALSE(HdrHistogram::Make(1, 100, 6));
}

// Merging two histograms bucket by bucket gives what one histogram of every value gives.
TEST(HdrHistogram, MergeEqualsRecordingEverything) {
  HdrHistogram a = Nanoseconds(), b = Nanoseconds(), all = Nanoseconds();
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> latency(12.5, 1.0);  // ~270 us median
  for (int i = 0; i < 20000; ++i) {
    const auto v = static_cast<int64_t>(latency(rng));
    (i % 3 == 0 ? a : b).Record(v);
    all.Record(v);
  }
  ASSERT_TRUE(a.Merge(b));
  EXPECT_EQ(a.counts(), all.counts());
  EXPECT_EQ(a.total_count(), 20000);
  for (double p : {50.0, 90.0, 99.0, 99.9, 99.99}) {
    EXPECT_EQ(a.ValueAtPercentile(p), all.ValueAtPercentile(p)) << p;
  }
  const HdrHistogram us = *HdrHistogram::Make(1, 1'000'000, 3);
  EXPECT_FALSE(a.Merge(us));
}

// The percentile is the highest value of the bucket holding the rank-th value.
TEST(HdrHistogram, PercentilesAreBucketHighsAtTheRank) {
  HdrHistogram h = Nanoseconds();
  for (int64_t v = 1; v <= 1000; ++v) h.Record(v * 1000);  // 1 us .. 1 ms
  EXPECT_EQ(h.ValueAtPercentile(50), h.HighestAt(h.IndexOf(500'000)));
  EXPECT_EQ(h.ValueAtPercentile(99.9), h.HighestAt(h.IndexOf(999'000)));
  EXPECT_EQ(h.Max(), h.HighestAt(h.IndexOf(1'000'000)));
  EXPECT_EQ(h.Min(), 1000);
  EXPECT_NEAR(h.Mean(), 500'500, 500);
  EXPECT_EQ(Nanoseconds().ValueAtPercentile(50), 0);
}

// What we write, an inflater reads back: the same geometry and counts.
TEST(HdrHistogram, CompressedFormRoundTripsThroughZlib) {
  HdrHistogram h = Nanoseconds();
  for (int64_t v : {5, 1500, 1500, 70000, 123456789}) h.Record(v);
  h.Record(3'000'000, 1'000'000'000'000);  // a count that needs all of LEB128's bytes
  const HdrHistogram back = Decompressed(h.CompressedBase64());
  EXPECT_EQ(back.lowest(), 1);
  EXPECT_EQ(back.highest(), 3'600'000'000'000);
  EXPECT_EQ(back.digits(), 3);
  EXPECT_EQ(back.counts(), h.counts());
  EXPECT_EQ(back.total_count(), h.total_count());
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(*Base64Decode("Zm9vYg=="), "foob");
  EXPECT_FALSE(Base64Decode("Zm9v*g=="));
  EXPECT_FALSE(HdrHistogram::DecodeV2("short"));
}

// memtier_benchmark's own --hdr-file-prefix log (HdrHistogram_c's writer, truly compressed):
// decoded, it holds the run's count, and re-encoded, the bytes HdrHistogram_c wrote.
TEST(HdrHistogram, ReadsMemtiersCompressedHistogram) {
  std::ifstream in(std::string(DFBENCH_PEER_FIXTURES) + "/memtier_f_hdr_FULL_RUN_1.hgrm");
  ASSERT_TRUE(in) << "missing fixture";
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#' && line[0] != '"') last = line;
  }
  const std::string base64 = last.substr(last.rfind(',') + 1);
  const HdrHistogram h = Decompressed(base64);
  EXPECT_EQ(h.total_count(), 111852);  // "Total count" of its percentile table
  EXPECT_EQ(h.digits(), 2);            // its "SubBuckets = 256"
  EXPECT_EQ(h.EncodeV2(), Inflated(base64));
  // Its percentile table (memtier_f_hdr_FULL_RUN_1.txt) prints 11.13 ms as the maximum.
  EXPECT_NEAR(static_cast<double>(h.Max()) / 1000, 11.135, 0.01);
  EXPECT_NEAR(static_cast<double>(h.ValueAtPercentile(50)) / 1000, 0.37, 0.01);
}

// The percentile table of memtier's histogram, as we print it, is the table HdrHistogram_c
// printed beside it (memtier_f_hdr_FULL_RUN_1.txt), line for line.
TEST(HdrHistogram, PercentileTableIsHdrHistogramCs) {
  std::ifstream log(std::string(DFBENCH_PEER_FIXTURES) + "/memtier_f_hdr_FULL_RUN_1.hgrm");
  std::string line, last;
  while (std::getline(log, line)) {
    if (!line.empty() && line[0] != '#' && line[0] != '"') last = line;
  }
  const HdrHistogram h = Decompressed(last.substr(last.rfind(',') + 1));
  std::ifstream table(std::string(DFBENCH_PEER_FIXTURES) + "/memtier_f_hdr_FULL_RUN_1.txt");
  std::stringstream want;
  want << table.rdbuf();
  EXPECT_EQ(PercentileTable(h, 1000.0, 10), want.str());
}

}  // namespace
}  // namespace dfbench::core
