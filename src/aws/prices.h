// On-demand Linux prices ($/hr) of the instance families benchmarks use, in one table: for the
// plan's cost line, never for billing. Prices are us-east-1's (checked against AWS's public
// price list); a few other regions scale them by a measured factor; anything else is unknown.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace dfbench::aws {

// $/hr of one instance, or nullopt ("price unknown") for a type or region not in the table.
std::optional<double> HourlyPrice(const std::string& instance_type, const std::string& region);

struct FleetCost {
  double known_per_hour = 0;         // sum over the instances with a known price
  std::vector<std::string> unknown;  // instance types without one (each listed once)
};

// The cost of running these instances (one entry per instance) in `region`.
FleetCost EstimateFleetCost(const std::vector<std::string>& instance_types,
                            const std::string& region);

// "~$0.680/hr on demand in us-east-1" for these instances (one entry per instance), naming the
// types without a known price ("price unknown for x2idn.large in us-east-1").
std::string CostLine(const std::vector<std::string>& instance_types, const std::string& region);

// What instances billed at `per_hour` dollars have cost after running for `up`: per_hour × hours
// (0 for a negative `up`, e.g. a clock set back).
double CostSoFar(double per_hour, std::chrono::seconds up);

// "~$1.36 so far (2h up)" for these instances after `up`; "cost so far unknown" when no
// instance has a known price.
std::string CostSoFarLine(const std::vector<std::string>& instance_types, const std::string& region,
                          std::chrono::seconds up);

}  // namespace dfbench::aws
