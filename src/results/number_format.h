// Numbers as people read them in tables, reports and charts.
#pragma once

#include <string>

namespace dfbench::results {

// Rounded to an integer with thousands separators: 2646502.4 -> "2,646,502".
std::string WithSeparators(double v);

// Three significant digits with a k/M/G/T suffix: 1210000 -> "1.21M", 85200 -> "85.2k",
// 950 -> "950".
std::string ShortCount(double v);

// Fixed decimals: Fixed(4.6, 3) -> "4.600".
std::string Fixed(double v, int decimals);

// A signed percentage with one decimal: "+2.3%", "-10.0%", "0.0%".
std::string SignedPercent(double pct);

}  // namespace dfbench::results
