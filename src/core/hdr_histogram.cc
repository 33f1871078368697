#include "core/hdr_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "core/format.h"

namespace dfbench::core {
namespace {

// Cookies as HdrHistogram writes them: the V2 base with 0x10 (counts as ZigZag LEB128); readers
// compare them without the 0xf0 bits.
constexpr uint32_t kEncodingCookie = 0x1c849303 | 0x10;
constexpr uint32_t kCompressionCookie = 0x1c849304 | 0x10;
bool IsCookie(uint64_t read, uint32_t cookie) {
  return (read & ~uint64_t{0xf0}) == (cookie & ~uint32_t{0xf0});
}
constexpr size_t kHeaderBytes = 40;

void PutBigEndian(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t GetBigEndian(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(in[at + i]);
  return v;
}

// HdrHistogram's ZigZag LEB128: 7 bits a byte, the ninth byte (if any) takes 8.
void PutZigZag(std::string* out, int64_t value) {
  uint64_t v = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  for (int i = 0; i < 8; ++i) {
    if (v < 0x80) {
      out->push_back(static_cast<char>(v));
      return;
    }
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetZigZag(std::string_view in, size_t* at, int64_t* value) {
  uint64_t v = 0;
  for (int i = 0; i < 9; ++i) {
    if (*at >= in.size()) return false;
    const auto byte = static_cast<unsigned char>(in[(*at)++]);
    if (i == 8) {
      v |= static_cast<uint64_t>(byte) << 56;
      break;
    }
    v |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) break;
  }
  *value = static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
  return true;
}

// A zlib stream of stored blocks (RFC 1950/1951): no compression, readable by any inflater.
std::string ZlibStored(std::string_view data) {
  std::string out = {'\x78', '\x01'};
  size_t at = 0;
  do {
    const size_t len = std::min<size_t>(data.size() - at, 65535);
    const bool last = at + len == data.size();
    out.push_back(last ? '\x01' : '\x00');
    const auto n = static_cast<uint16_t>(len);
    const auto nn = static_cast<uint16_t>(~n);
    for (uint16_t v : {n, nn}) {
      out.push_back(static_cast<char>(v & 0xff));
      out.push_back(static_cast<char>(v >> 8));
    }
    out.append(data.substr(at, len));
    at += len;
  } while (at < data.size());
  uint32_t a = 1, b = 0;  // Adler-32
  for (unsigned char c : data) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  PutBigEndian(&out, (static_cast<uint64_t>(b) << 16) | a, 4);
  return out;
}

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

uint64_t RankAtPercentile(double p, uint64_t count) {
  constexpr unsigned __int128 kScale = 100'000'000'000;  // 100 * 1e9
  const auto p_units =
      static_cast<unsigned __int128>(std::llround(std::clamp(p, 0.0, 100.0) * 1e9));
  const unsigned __int128 rank = (p_units * count + kScale - 1) / kScale;
  return std::clamp<uint64_t>(static_cast<uint64_t>(rank), 1, std::max<uint64_t>(count, 1));
}

Result<HdrHistogram> HdrHistogram::Make(int64_t lowest, int64_t highest, int digits) {
  if (lowest < 1 || highest < 2 * lowest || digits < 1 || digits > 5) {
    return Fail(ErrorKind::kUsage,
                Format("no HdrHistogram of values {}..{} with {} significant digits", lowest,
                       highest, digits));
  }
  HdrHistogram h;
  h.lowest_ = lowest;
  h.highest_ = highest;
  h.digits_ = digits;
  const auto single_unit = static_cast<uint64_t>(2 * std::pow(10, digits));
  const int sub_bucket_count_magnitude = std::bit_width(single_unit - 1);  // ceil(log2)
  h.sub_bucket_half_count_magnitude_ = std::max(sub_bucket_count_magnitude, 1) - 1;
  h.unit_magnitude_ = std::bit_width(static_cast<uint64_t>(lowest)) - 1;  // floor(log2)
  const int64_t sub_bucket_count = int64_t{1} << (h.sub_bucket_half_count_magnitude_ + 1);
  h.sub_bucket_half_count_ = sub_bucket_count / 2;
  h.sub_bucket_mask_ = (sub_bucket_count - 1) << h.unit_magnitude_;
  int64_t smallest_untrackable = sub_bucket_count << h.unit_magnitude_;
  h.bucket_count_ = 1;
  while (smallest_untrackable <= highest) {
    if (smallest_untrackable > INT64_MAX / 2) {
      ++h.bucket_count_;
      break;
    }
    smallest_untrackable <<= 1;
    ++h.bucket_count_;
  }
  h.counts_.assign(static_cast<size_t>((h.bucket_count_ + 1) * h.sub_bucket_half_count_), 0);
  return h;
}

int HdrHistogram::BucketOf(int64_t value) const {
  const int pow2_ceiling = 64 - std::countl_zero(static_cast<uint64_t>(value | sub_bucket_mask_));
  return pow2_ceiling - unit_magnitude_ - (sub_bucket_half_count_magnitude_ + 1);
}

size_t HdrHistogram::IndexOf(int64_t value) const {
  const int bucket = BucketOf(value);
  const int64_t sub_bucket = value >> (bucket + unit_magnitude_);
  const int64_t base = static_cast<int64_t>(bucket + 1) << sub_bucket_half_count_magnitude_;
  return static_cast<size_t>(base + sub_bucket - sub_bucket_half_count_);
}

int64_t HdrHistogram::LowestAt(size_t index) const {
  int bucket = static_cast<int>(index >> sub_bucket_half_count_magnitude_) - 1;
  int64_t sub_bucket =
      static_cast<int64_t>(index & static_cast<size_t>(sub_bucket_half_count_ - 1)) +
      sub_bucket_half_count_;
  if (bucket < 0) {
    sub_bucket -= sub_bucket_half_count_;
    bucket = 0;
  }
  return sub_bucket << (bucket + unit_magnitude_);
}

int64_t HdrHistogram::HighestAt(size_t index) const {
  const int64_t lowest = LowestAt(index);
  const int bucket = BucketOf(lowest);
  const int64_t sub_bucket = lowest >> (bucket + unit_magnitude_);
  const int adjusted = sub_bucket >= 2 * sub_bucket_half_count_ ? bucket + 1 : bucket;
  return lowest + (int64_t{1} << (unit_magnitude_ + adjusted)) - 1;
}

void HdrHistogram::Record(int64_t value, int64_t count) {
  AddAtIndex(IndexOf(std::clamp<int64_t>(value, 0, highest_)), count);
}

void HdrHistogram::AddAtIndex(size_t index, int64_t count) {
  counts_[std::min(index, counts_.size() - 1)] += count;
  total_ += count;
}

Status HdrHistogram::Merge(const HdrHistogram& other) {
  if (other.lowest_ != lowest_ || other.highest_ != highest_ || other.digits_ != digits_) {
    return Fail(ErrorKind::kUsage,
                Format("histograms of values {}..{} ({} digits) and {}..{} ({} digits) do not "
                       "merge bucket by bucket",
                       lowest_, highest_, digits_, other.lowest_, other.highest_, other.digits_));
  }
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  total_ += other.total_;
  return Ok();
}

int64_t HdrHistogram::ValueAtPercentile(double p) const {
  if (total_ == 0) return 0;
  if (!(p > 0)) return Min();
  const uint64_t rank = RankAtPercentile(p, static_cast<uint64_t>(total_));
  uint64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += static_cast<uint64_t>(counts_[i]);
    if (seen >= rank) return HighestAt(i);
  }
  return Max();
}

int64_t HdrHistogram::Max() const {
  for (size_t i = counts_.size(); i-- > 0;) {
    if (counts_[i] != 0) return HighestAt(i);
  }
  return 0;
}

int64_t HdrHistogram::Min() const {
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] != 0) return LowestAt(i);
  }
  return 0;
}

double HdrHistogram::Mean() const {
  if (total_ == 0) return 0;
  long double sum = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    const long double middle = (static_cast<long double>(LowestAt(i)) + HighestAt(i) + 1) / 2;
    sum += middle * counts_[i];
  }
  return static_cast<double>(sum / total_);
}

double HdrHistogram::StdDev() const {
  if (total_ == 0) return 0;
  const long double mean = Mean();
  long double sum = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    const long double d = (static_cast<long double>(LowestAt(i)) + HighestAt(i) + 1) / 2 - mean;
    sum += d * d * counts_[i];
  }
  return static_cast<double>(std::sqrt(sum / total_));
}

std::string HdrHistogram::EncodeV2() const {
  size_t limit = counts_.size();
  while (limit > 0 && counts_[limit - 1] == 0) --limit;
  std::string payload;
  for (size_t i = 0; i < limit;) {
    if (counts_[i] != 0) {
      PutZigZag(&payload, counts_[i++]);
      continue;
    }
    int64_t zeros = 0;
    while (i < limit && counts_[i] == 0) {
      ++zeros;
      ++i;
    }
    PutZigZag(&payload, -zeros);
  }
  std::string out;
  PutBigEndian(&out, kEncodingCookie, 4);
  PutBigEndian(&out, payload.size(), 4);
  PutBigEndian(&out, 0, 4);  // normalizing index offset
  PutBigEndian(&out, static_cast<uint64_t>(digits_), 4);
  PutBigEndian(&out, static_cast<uint64_t>(lowest_), 8);
  PutBigEndian(&out, static_cast<uint64_t>(highest_), 8);
  PutBigEndian(&out, std::bit_cast<uint64_t>(1.0), 8);  // integer to double conversion ratio
  return out + payload;
}

std::string HdrHistogram::CompressedBase64() const {
  const std::string zlib = ZlibStored(EncodeV2());
  std::string out;
  PutBigEndian(&out, kCompressionCookie, 4);
  PutBigEndian(&out, zlib.size(), 4);
  return Base64Encode(out + zlib);
}

Result<HdrHistogram> HdrHistogram::DecodeV2(std::string_view bytes) {
  const auto bad = [](const std::string& why) {
    return Fail(ErrorKind::kFailure, "not an HdrHistogram V2 encoding: " + why);
  };
  if (bytes.size() < kHeaderBytes) return bad("shorter than its header");
  if (!IsCookie(GetBigEndian(bytes, 0, 4), kEncodingCookie)) return bad("wrong cookie");
  const uint64_t payload = GetBigEndian(bytes, 4, 4);
  if (kHeaderBytes + payload > bytes.size()) return bad("payload longer than the data");
  if (GetBigEndian(bytes, 8, 4) != 0) return bad("a normalizing index offset");
  auto h = Make(static_cast<int64_t>(GetBigEndian(bytes, 16, 8)),
                static_cast<int64_t>(GetBigEndian(bytes, 24, 8)),
                static_cast<int>(GetBigEndian(bytes, 12, 4)));
  if (!h) return bad(h.error().message);
  const std::string_view counts = bytes.substr(kHeaderBytes, payload);
  size_t at = 0, index = 0;
  while (at < counts.size()) {
    int64_t v = 0;
    if (!GetZigZag(counts, &at, &v)) return bad("a count cut short");
    if (v < 0) {
      index += static_cast<size_t>(-v);
      continue;
    }
    if (index >= h->counts_.size()) return bad("more counts than its geometry holds");
    h->AddAtIndex(index++, v);
  }
  return h;
}

std::vector<PercentileRow> PercentileRows(const HdrHistogram& h, int ticks_per_half_distance) {
  std::vector<PercentileRow> rows;
  // HdrHistogram_c's percentile iterator: a row whenever the cumulative share reaches the next
  // reporting percentile, several from one bucket when it spans them, and a last row at 100 %.
  const auto& counts = h.counts();
  double next = 0;
  int64_t cumulative = 0;
  size_t i = 0;
  for (; i < counts.size() && cumulative < h.total_count(); ++i) {
    cumulative += counts[i];
    if (counts[i] == 0) continue;
    const double reached = 100.0 * static_cast<double>(cumulative) / h.total_count();
    // The bucket that completes the count reports once, then the 100 % row follows.
    const bool last = cumulative == h.total_count();
    while (next <= reached) {
      rows.push_back({h.HighestAt(i), next, cumulative});
      const auto halvings = static_cast<int64_t>(std::log(100 / (100.0 - next)) / std::log(2)) + 1;
      next += 100.0 / (ticks_per_half_distance * std::pow(2, static_cast<double>(halvings)));
      if (last) break;
    }
  }
  if (h.total_count() > 0) rows.push_back({h.HighestAt(i - 1), 100.0, cumulative});
  return rows;
}

std::string PercentileTable(const HdrHistogram& h, double value_scale,
                            int ticks_per_half_distance) {
  std::string out = Format("{:>12} {:>12} {:>12} {:>12}\n\n", "Value", "Percentile", "TotalCount",
                           "1/(1-Percentile)");
  for (const PercentileRow& r : PercentileRows(h, ticks_per_half_distance)) {
    const double share = r.percentile / 100.0;
    const std::string inverted =
        share < 1 ? Format("{:12.2f}", 1.0 / (1.0 - share)) : Format("{:>12}", "inf");
    // As HdrHistogram_c: values with as many decimals as the histogram's significant digits.
    out += Format("{:12.{}f} {:12.6f} {:12} {}\n", static_cast<double>(r.value) / value_scale,
                  h.digits(), share, r.cumulative, inverted);
  }
  const int64_t sub_buckets =
      int64_t{1} << std::bit_width(static_cast<uint64_t>(2 * std::pow(10, h.digits())) - 1);
  out += Format("#[Mean    = {:12.3f}, StdDeviation   = {:12.3f}]\n", h.Mean() / value_scale,
                h.StdDev() / value_scale);
  out += Format("#[Max     = {:12.3f}, Total count    = {:12}]\n",
                static_cast<double>(h.Max()) / value_scale, h.total_count());
  out += Format("#[Buckets = {:12}, SubBuckets     = {:12}]\n",
                h.counts().size() / static_cast<size_t>(sub_buckets / 2) - 1, sub_buckets);
  return out;
}

std::string HistogramLog(const HdrHistogram& h, const std::string& comment, double start_epoch_sec,
                         double end_epoch_sec, double max_scale) {
  return Format(
      "#[{}]\n#[Histogram log format version 1.2]\n#[StartTime: {:.3f} (seconds since epoch)]\n"
      "\"StartTimestamp\",\"EndTimestamp\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
      "{:.3f},{:.3f},{:.1f},{}\n",
      comment, start_epoch_sec, start_epoch_sec, end_epoch_sec,
      static_cast<double>(h.Max()) / max_scale, h.CompressedBase64());
}

std::vector<HdrFile> MemtierHdrFiles(const HdrHistogram& h, int64_t unit_ns,
                                     const std::string& stem, const std::string& comment,
                                     double start_epoch_sec, double end_epoch_sec) {
  const double per_ms = 1e6 / static_cast<double>(unit_ns);
  return {{stem + ".txt", PercentileTable(h, per_ms, 10)},
          {stem + ".hgrm", HistogramLog(h, comment, start_epoch_sec, end_epoch_sec, 1)}};
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size())
      n |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(kBase64[(n >> 18) & 63]);
    out.push_back(kBase64[(n >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kBase64[(n >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? kBase64[n & 63] : '=');
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0)
    return Fail(ErrorKind::kFailure, "base64 of a length not a multiple of 4");
  std::string out;
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t n = 0;
    int pad = 0;
    for (size_t j = 0; j < 4; ++j) {
      const char c = text[i + j];
      const char* at = std::strchr(kBase64, c);
      if (c == '=' && i + 4 == text.size() && j >= 2) {
        ++pad;
        n <<= 6;
        continue;
      }
      if (c == '\0' || at == nullptr || pad > 0) return Fail(ErrorKind::kFailure, "not base64");
      n = (n << 6) | static_cast<uint32_t>(at - kBase64);
    }
    out.push_back(static_cast<char>(n >> 16));
    if (pad < 2) out.push_back(static_cast<char>((n >> 8) & 0xff));
    if (pad < 1) out.push_back(static_cast<char>(n & 0xff));
  }
  return out;
}

Result<std::string_view> CompressedPayload(std::string_view bytes) {
  if (bytes.size() < 8 || !IsCookie(GetBigEndian(bytes, 0, 4), kCompressionCookie)) {
    return Fail(ErrorKind::kFailure, "not a compressed HdrHistogram (wrong cookie)");
  }
  const uint64_t length = GetBigEndian(bytes, 4, 4);
  if (8 + length > bytes.size()) {
    return Fail(ErrorKind::kFailure, "a compressed HdrHistogram cut short");
  }
  return bytes.substr(8, length);
}

}  // namespace dfbench::core
