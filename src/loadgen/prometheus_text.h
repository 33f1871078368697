// The run's figures in the Prometheus text exposition format (version 0.0.4): counters of
// requests, bytes, hits, misses and errors and a latency histogram per command, and a gauge of
// connections, each labelled with the run label and the command.
#pragma once

#include <string>
#include <vector>

#include "loadgen/stats.h"

namespace dfbench::loadgen {

// One command's whole-run figures so far.
struct CommandFigures {
  std::string command;  // "SET"
  const SlotStats* stats;
};

// The histogram's upper bounds, in seconds (the last bucket, +Inf, is implied).
const std::vector<double>& PrometheusLatencyBounds();

// Commands of the same name are summed under one label (a series is unique by its labels).
std::string PrometheusText(const std::string& run_label, const std::vector<CommandFigures>& figures,
                           long connections);

}  // namespace dfbench::loadgen
