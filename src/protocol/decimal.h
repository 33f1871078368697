// Decimal digits of unsigned numbers, for encoders that size a request before writing it.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace dfbench::protocol {

namespace decimal_detail {

inline constexpr std::array<uint64_t, 20> kPowersOf10 = [] {
  std::array<uint64_t, 20> powers{};
  uint64_t p = 1;
  for (uint64_t& power : powers) {
    power = p;
    p *= 10;
  }
  return powers;
}();

// "00" "01" ... "99": two digits per division.
inline constexpr std::array<char, 200> kDigitPairs = [] {
  std::array<char, 200> pairs{};
  for (size_t i = 0; i < 100; ++i) {
    pairs[2 * i] = static_cast<char>('0' + i / 10);
    pairs[2 * i + 1] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}();

}  // namespace decimal_detail

// 1 for 0..9, 20 for the largest uint64_t.
inline size_t DecimalDigits(uint64_t n) {
  // bit_width * 1233 / 4096 is bit_width * log10(2): the digit count or one less.
  const uint64_t m = n | 1;  // 0 has one digit, as 1 does
  const auto guess = static_cast<size_t>((std::bit_width(m) * 1233) >> 12);
  return guess + 1 - (m < decimal_detail::kPowersOf10[guess] ? 1 : 0);
}

// Writes n's decimal digits so that the last one lands just before `end`.
inline void WriteDigitsBefore(char* end, uint64_t n) {
  using decimal_detail::kDigitPairs;
  while (n >= 100) {
    end -= 2;
    std::memcpy(end, &kDigitPairs[(n % 100) * 2], 2);
    n /= 100;
  }
  if (n >= 10) {
    std::memcpy(end - 2, &kDigitPairs[n * 2], 2);
  } else {
    end[-1] = static_cast<char>('0' + n);
  }
}

}  // namespace dfbench::protocol
