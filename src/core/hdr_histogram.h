// HdrHistogram's counts, geometry and V2 encoding: the form in which latency histograms leave a
// load generator (memtier's "Compressed Histogram", the --hdr-file-prefix files) so that
// histograms of several generators merge bucket by bucket, and HdrHistogram's own tools
// (HistogramLogProcessor, the hdr_* utilities) read them.
//
// The geometry is HdrHistogram's (lowest discernible value, highest trackable value,
// significant digits): values 0 .. 2^(m+1)-1 units each have a bucket, and every further power
// of two is split into 2^m equal buckets, m = ceil(log2(2 * 10^digits)) - 1.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dfbench::core {

// The rank of percentile `p` (0 < p < 100) among `count` values: ceil(p / 100 × count), with p
// rounded to 9 decimals and computed exactly (99.9 of 1000 values is rank 999, not 1000), at
// least 1 and at most `count`. Every histogram of dfbench reads its percentiles by this rank.
uint64_t RankAtPercentile(double p, uint64_t count);

class HdrHistogram {
 public:
  // kUsage unless 1 <= lowest, 2 * lowest <= highest and 1 <= digits <= 5.
  static Result<HdrHistogram> Make(int64_t lowest, int64_t highest, int digits);

  int64_t lowest() const { return lowest_; }
  int64_t highest() const { return highest_; }
  int digits() const { return digits_; }
  const std::vector<int64_t>& counts() const { return counts_; }
  int64_t total_count() const { return total_; }

  // Records `count` values equal to `value` (clamped into [0, highest]).
  void Record(int64_t value, int64_t count = 1);
  // Adds `count` at a counts index (what a decoder or a converter of another histogram with
  // the same geometry sets); the index must be below counts().size().
  void AddAtIndex(size_t index, int64_t count);

  // The counts index of `value`, and the lowest and highest values its bucket holds.
  size_t IndexOf(int64_t value) const;
  int64_t LowestAt(size_t index) const;
  int64_t HighestAt(size_t index) const;

  // kUsage when `other` has another geometry: merging is exact only bucket for bucket.
  Status Merge(const HdrHistogram& other);

  // The highest value of the bucket that holds the rank-th smallest value, rank =
  // ceil(p / 100 × total) (p rounded to 9 decimals; at least 1): never below the exact value,
  // above it by less than one bucket's width. 0 when empty.
  int64_t ValueAtPercentile(double p) const;
  int64_t Max() const;  // the highest value of the highest non-empty bucket; 0 when empty
  int64_t Min() const;  // the lowest value of the lowest non-empty bucket; 0 when empty
  double Mean() const;  // of the buckets' middles; 0 when empty
  double StdDev() const;

  // HdrHistogram's V2 encoding (cookie 0x1c849313, big-endian header, ZigZag LEB128 counts
  // with runs of zeros as negative lengths), and its compressed form (cookie 0x1c849314, a zlib
  // stream) in base64, as HdrHistogram's log readers take it. The zlib stream holds stored
  // (uncompressed) blocks: valid for every inflater, and no zlib needed to write it.
  std::string EncodeV2() const;
  std::string CompressedBase64() const;
  // Reads what EncodeV2 writes (from any HdrHistogram implementation). kFailure with what is
  // wrong for anything else.
  static Result<HdrHistogram> DecodeV2(std::string_view bytes);

 private:
  HdrHistogram() = default;
  int BucketOf(int64_t value) const;

  int64_t lowest_ = 1;
  int64_t highest_ = 2;
  int digits_ = 3;
  int unit_magnitude_ = 0;
  int sub_bucket_half_count_magnitude_ = 0;
  int64_t sub_bucket_half_count_ = 0;
  int64_t sub_bucket_mask_ = 0;
  int bucket_count_ = 0;
  std::vector<int64_t> counts_;
  int64_t total_ = 0;
};

// One step of HdrHistogram_c's percentile iterator: the highest value of the bucket reached, the
// reporting percentile (0..100) and how many values are at or below that bucket.
struct PercentileRow {
  int64_t value = 0;
  double percentile = 0;
  int64_t cumulative = 0;
};
// The rows HdrHistogram_c's percentile iterator gives (hdr_iter_percentile_init with
// `ticks_per_half_distance`): what its percentile table and memtier's CSV tables print. None
// when empty.
std::vector<PercentileRow> PercentileRows(const HdrHistogram& h, int ticks_per_half_distance);

// HdrHistogram's percentile distribution table (HdrHistogram_c's CLASSIC hdr_percentiles_print:
// rows at percentiles that halve the distance to 100 % in `ticks_per_half_distance` steps, then
// mean, deviation, max and count), values divided by `value_scale` (1000: ns as us).
std::string PercentileTable(const HdrHistogram& h, double value_scale, int ticks_per_half_distance);

// HdrHistogram's log format (version 1.2) holding `h` as one interval from `start_epoch_sec` to
// `end_epoch_sec`, its max divided by `max_scale`: what HistogramLogProcessor reads.
std::string HistogramLog(const HdrHistogram& h, const std::string& comment, double start_epoch_sec,
                         double end_epoch_sec, double max_scale);

// The files memtier's --hdr-file-prefix writes for one histogram whose values count `unit_ns`
// nanoseconds each: <stem>.txt, the percentile table in ms (HdrHistogram_c's, 10 ticks per half
// distance, as memtier prints it), and <stem>.hgrm, the histogram log titled `comment`.
struct HdrFile {
  std::string path;
  std::string text;
};
std::vector<HdrFile> MemtierHdrFiles(const HdrHistogram& h, int64_t unit_ns,
                                     const std::string& stem, const std::string& comment,
                                     double start_epoch_sec, double end_epoch_sec);

// The stem memtier gives the whole run's histogram files after the prefix.
inline constexpr std::string_view kFullRunStem = "_FULL_RUN_1";

// RFC 4648 base64 (with padding); Base64Decode refuses anything else with kFailure.
std::string Base64Encode(std::string_view bytes);
Result<std::string> Base64Decode(std::string_view text);

// The payload of HdrHistogram's compressed encoding: after its cookie 0x1c849314 and length,
// the zlib stream. The caller inflates it (zlib) and hands the result to DecodeV2.
Result<std::string_view> CompressedPayload(std::string_view bytes);

}  // namespace dfbench::core
