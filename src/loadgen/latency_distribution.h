// memtier's "Request Latency Distribution" (shown unless --hide-histogram): each command's
// latency histogram at HdrHistogram's reporting percentiles, in the text report under each
// results section and in the JSON as one array per command in that section.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "loadgen/config.h"
#include "loadgen/report.h"

namespace dfbench::loadgen {

// The text: the heading, the header and each command's rows ("SET  0.031  50.000"), "---" after
// each command's; a SET/GET run ends with memtier's WAIT, never sent: one row at 100 %, as for
// any command without latencies.
std::string LatencyDistributionText(const Report& report, const Config& config);

// The JSON: each command's rows as [{"<=msec": 0.031, "percent": 50.0}, ...] under its name
// ("SET", "LPUSH"), added to `section`.
void AddLatencyDistributionJson(const Report& report, const Config& config,
                                nlohmann::ordered_json* section);

}  // namespace dfbench::loadgen
