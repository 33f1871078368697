#include "results/number_format.h"

#include <cmath>
#include <iterator>

#include "core/format.h"

namespace dfbench::results {

std::string WithSeparators(double v) {
  const auto n = static_cast<long long>(std::llround(v));
  const std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string ShortCount(double v) {
  if (std::fabs(v) < 999.5) return core::Format("{:.0f}", v);
  static constexpr const char* kSuffix[] = {"k", "M", "G", "T"};
  double x = v / 1000;
  size_t unit = 0;
  while (std::fabs(x) >= 999.5 && unit + 1 < std::size(kSuffix)) {
    x /= 1000;
    ++unit;
  }
  const double ax = std::fabs(x);
  const int decimals = ax < 9.995 ? 2 : ax < 99.95 ? 1 : 0;
  return core::Format("{:.{}f}{}", x, decimals, kSuffix[unit]);
}

std::string Fixed(double v, int decimals) {
  return core::Format("{:.{}f}", v, decimals);
}

std::string SignedPercent(double pct) {
  std::string s = core::Format("{:+.1f}%", pct);
  if (s == "+0.0%" || s == "-0.0%") s = "0.0%";
  return s;
}

}  // namespace dfbench::results
