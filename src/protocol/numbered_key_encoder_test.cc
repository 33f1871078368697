#include "protocol/numbered_key_encoder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>

#include "protocol/memcache_text.h"

namespace dfbench::protocol {
namespace {

// Key numbers of every digit count: both ends of each count and seeded draws between them.
std::vector<uint64_t> KeyNumbers() {
  std::vector<uint64_t> numbers = {0, std::numeric_limits<uint64_t>::max()};
  std::mt19937_64 rng(20261207);
  uint64_t low = 1;
  for (int digits = 1; digits <= 19; ++digits) {
    const uint64_t high = low * 10 - 1;
    numbers.push_back(low);
    numbers.push_back(high);
    for (int i = 0; i < 20; ++i) numbers.push_back(low + rng() % (high - low + 1));
    low *= 10;
  }
  for (int i = 0; i < 20; ++i)
    numbers.push_back(low + rng() % (std::numeric_limits<uint64_t>::max() - low));
  return numbers;
}

const std::vector<std::string> kPrefixes = {"", "memtier-", "k:", std::string(300, 'p')};

// A value of each size, the sizes whose lengths change digit count among them.
std::string Value(size_t size) {
  std::string value(size, 'v');
  for (size_t i = 0; i < size; ++i) value[i] = static_cast<char>('a' + i % 26);
  return value;
}
const std::vector<size_t> kDataSizes = {0, 1, 9, 10, 99, 100, 256, 1000, 12345};

// What the general encoder writes, appended after `before`.
using General = std::function<void(std::string*, std::string_view key, std::string_view data)>;

// Compares the encoder with the general one on every key number, prefix given and value size,
// both appending after existing bytes.
void ExpectSameBytes(const NumberedKeyEncoder& fast, const General& general,
                     std::string_view prefix, const std::vector<size_t>& data_sizes) {
  for (size_t data_size : data_sizes) {
    const std::string data = Value(data_size);
    for (uint64_t n : KeyNumbers()) {
      std::string expected = "before";
      general(&expected, std::string(prefix) + std::to_string(n), data);
      RequestBuffer actual;
      actual.append("before");
      fast.Encode(&actual, n, data);
      ASSERT_EQ(actual.view(), expected)
          << "key number " << n << ", prefix '" << prefix << "', value " << data_size << " bytes";
    }
  }
}

const std::vector<std::string> kTemplates = {
    "SET __key__ __data__",      "GET __key__",
    "HSET h:__key__ f __data__", "PING",
    "DEL __key__ __key__ x",     "SET __key__:__key__ x__data__y__data__z",
    "LPUSH list __data__",       "EXISTS a __key__b"};

TEST(NumberedKeyEncoderTest, TemplatesWithAFixedValueSizeWriteTheGeneralBytes) {
  for (const std::string& line : kTemplates) {
    const CommandTemplate t = *CommandTemplate::Compile(line);
    const General general = [&](std::string* out, std::string_view key, std::string_view data) {
      t.Encode(out, key, data);
    };
    for (const std::string& prefix : kPrefixes) {
      for (size_t size : kDataSizes) {
        SCOPED_TRACE(line);
        ExpectSameBytes(NumberedKeyEncoder::ForTemplate(t, prefix, size), general, prefix, {size});
      }
    }
  }
}

TEST(NumberedKeyEncoderTest, TemplatesWithAValueSizeRangeWriteTheGeneralBytes) {
  for (const std::string& line : kTemplates) {
    const CommandTemplate t = *CommandTemplate::Compile(line);
    const General general = [&](std::string* out, std::string_view key, std::string_view data) {
      t.Encode(out, key, data);
    };
    for (const std::string& prefix : kPrefixes) {
      SCOPED_TRACE(line);
      ExpectSameBytes(NumberedKeyEncoder::ForTemplate(t, prefix, std::nullopt), general, prefix,
                      kDataSizes);
    }
  }
}

TEST(NumberedKeyEncoderTest, MemcacheWritesTheGeneralBytes) {
  const General get = [](std::string* out, std::string_view key, std::string_view) {
    AppendMemcacheGet(out, key);
  };
  const General set = [](std::string* out, std::string_view key, std::string_view data) {
    AppendMemcacheSet(out, key, data);
  };
  for (const std::string& prefix : kPrefixes) {
    ExpectSameBytes(NumberedKeyEncoder::ForMemcacheGet(prefix), get, prefix, {0, 256});
    ExpectSameBytes(NumberedKeyEncoder::ForMemcacheSet(prefix, std::nullopt), set, prefix,
                    kDataSizes);
    for (size_t size : kDataSizes) {
      ExpectSameBytes(NumberedKeyEncoder::ForMemcacheSet(prefix, size), set, prefix, {size});
    }
  }
}

TEST(NumberedKeyEncoderTest, EncodesIntoReservedCapacityWithoutGrowing) {
  const NumberedKeyEncoder set =
      NumberedKeyEncoder::ForTemplate(*CommandTemplate::Compile("SET __key__ __data__"), "k", 64);
  RequestBuffer out;
  out.reserve(4096);
  const char* buffer = out.data();
  for (uint64_t n = 0; n < 20; ++n) set.Encode(&out, n * 1000003, std::string(64, 'v'));
  EXPECT_EQ(out.data(), buffer);
  EXPECT_GT(out.size(), 20u * 64);
}

}  // namespace
}  // namespace dfbench::protocol
