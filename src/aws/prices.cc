#include "aws/prices.h"

#include <algorithm>
#include <string_view>

#include "core/format.h"
#include "core/time_format.h"

namespace dfbench::aws {
namespace {

// Within these families the price is linear in the size: `large` × the size's units.
struct SizeUnits {
  std::string_view size;
  double units;
};
constexpr SizeUnits kSizes[] = {
    {"medium", 0.5},  {"large", 1},     {"xlarge", 2},    {"2xlarge", 4},   {"4xlarge", 8},
    {"8xlarge", 16},  {"9xlarge", 18},  {"12xlarge", 24}, {"16xlarge", 32}, {"18xlarge", 36},
    {"24xlarge", 48}, {"32xlarge", 64}, {"48xlarge", 96},
};

struct Family {
  std::string_view name;
  double large_per_hour;   // us-east-1 on-demand Linux
  std::string_view sizes;  // the sizes the family offers, space-separated
};
constexpr Family kFamilies[] = {
    {"c5", 0.085, "large xlarge 2xlarge 4xlarge 9xlarge 12xlarge 18xlarge 24xlarge"},
    {"c6i", 0.085, "large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge 24xlarge 32xlarge"},
    {"c7i", 0.08925, "large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge 24xlarge 48xlarge"},
    {"c6g", 0.068, "medium large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge"},
    {"c7g", 0.07225, "medium large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge"},
    {"c6gn", 0.0864, "medium large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge"},
    {"c7gn", 0.1248, "medium large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge"},
    {"m5", 0.096, "large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge 24xlarge"},
    {"m6i", 0.096, "large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge 24xlarge 32xlarge"},
    {"m7i", 0.1008, "large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge 24xlarge 48xlarge"},
    {"m6g", 0.077, "medium large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge"},
    {"m7g", 0.0816, "medium large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge"},
    {"r6i", 0.126, "large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge 24xlarge 32xlarge"},
    {"r7g", 0.1071, "medium large xlarge 2xlarge 4xlarge 8xlarge 12xlarge 16xlarge"},
};

// Regional prices relative to us-east-1 (their c6i/c7g/m6i prices, which agree within ~2%).
struct RegionFactor {
  std::string_view name;
  double factor;
};
constexpr RegionFactor kRegions[] = {
    {"us-east-1", 1.0},  {"us-east-2", 1.0},     {"us-west-2", 1.0},
    {"eu-west-1", 1.12}, {"eu-central-1", 1.15}, {"ap-northeast-1", 1.26},
};

bool Offers(std::string_view sizes, std::string_view size) {
  while (!sizes.empty()) {
    const size_t sp = sizes.find(' ');
    if (sizes.substr(0, sp) == size) return true;
    if (sp == std::string_view::npos) break;
    sizes.remove_prefix(sp + 1);
  }
  return false;
}

}  // namespace

std::optional<double> HourlyPrice(const std::string& instance_type, const std::string& region) {
  const size_t dot = instance_type.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string_view family = std::string_view(instance_type).substr(0, dot);
  const std::string_view size = std::string_view(instance_type).substr(dot + 1);
  auto f = std::find_if(std::begin(kFamilies), std::end(kFamilies),
                        [&](const Family& x) { return x.name == family; });
  auto s = std::find_if(std::begin(kSizes), std::end(kSizes),
                        [&](const SizeUnits& x) { return x.size == size; });
  auto r = std::find_if(std::begin(kRegions), std::end(kRegions),
                        [&](const RegionFactor& x) { return x.name == region; });
  if (f == std::end(kFamilies) || s == std::end(kSizes) || r == std::end(kRegions) ||
      !Offers(f->sizes, size)) {
    return std::nullopt;
  }
  return f->large_per_hour * s->units * r->factor;
}

FleetCost EstimateFleetCost(const std::vector<std::string>& instance_types,
                            const std::string& region) {
  FleetCost cost;
  for (const auto& type : instance_types) {
    if (auto price = HourlyPrice(type, region)) {
      cost.known_per_hour += *price;
    } else if (std::find(cost.unknown.begin(), cost.unknown.end(), type) == cost.unknown.end()) {
      cost.unknown.push_back(type);
    }
  }
  return cost;
}

std::string CostLine(const std::vector<std::string>& types, const std::string& region) {
  const FleetCost cost = EstimateFleetCost(types, region);
  std::string unknown;
  for (const auto& t : cost.unknown) unknown += (unknown.empty() ? "" : ", ") + t;
  if (!cost.unknown.empty() && cost.known_per_hour == 0) {
    return "price unknown for " + unknown + " in " + region;
  }
  std::string line = core::Format("~${:.3f}/hr on demand in {}", cost.known_per_hour, region);
  if (!unknown.empty()) line += " plus price unknown for " + unknown;
  return line;
}

double CostSoFar(double per_hour, std::chrono::seconds up) {
  if (up.count() <= 0) return 0;
  return per_hour * static_cast<double>(up.count()) / 3600.0;
}

std::string CostSoFarLine(const std::vector<std::string>& types, const std::string& region,
                          std::chrono::seconds up) {
  const FleetCost cost = EstimateFleetCost(types, region);
  if (cost.known_per_hour == 0) return "cost so far unknown";
  return core::Format("~${:.2f} so far ({} up)", CostSoFar(cost.known_per_hour, up),
                      core::FormatAge(std::max(up, std::chrono::seconds(0))));
}

}  // namespace dfbench::aws
