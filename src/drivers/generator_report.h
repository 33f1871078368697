// One load generator's report as a part of a trial that several generators measured together:
// its own figures, its latency histogram for the exact merge, when its measured part ran and
// how busy it was. And the merge itself: histograms added bucket by bucket, counts summed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/hdr_histogram.h"
#include "drivers/load_report.h"
#include "results/schema.h"

namespace dfbench::drivers {

struct GeneratorReport {
  results::TrialResult trial;  // ParseLoadReport's figures, client_cpu included
  // The Totals histogram ("Compressed Histogram"), whose values count `unit_ns` nanoseconds
  // each (ours: 1, memtier's: 1000); nullopt when the report holds none.
  std::optional<core::HdrHistogram> histogram;
  int64_t unit_ns = 1;
  int64_t start_epoch_us = 0;  // its measured part, on its host's clock (0: unknown)
  int64_t finish_epoch_us = 0;
  // Its CPU use ("dfbench" block): CPU seconds over wall seconds, on up to `usable_cpus`.
  double cpu_sec = 0;
  double wall_sec = 0;
  int usable_cpus = 0;
  double run_delay_sec = 0;  // runnable, waiting for a CPU
};

// HdrHistogram's compressed form in base64 (what memtier and our generator write), inflated.
// kFailure saying what is wrong.
core::Result<core::HdrHistogram> DecodeCompressedHistogram(std::string_view base64);

// A report of any generator in memtier's layout (kUsage as ParseLoadReport; kFailure for a
// histogram that does not decode).
core::Result<GeneratorReport> ParseGeneratorReport(const std::string& json_text,
                                                   const ReportOptions& options = {});

// One generator of a trial: its name, its share of the load (recorded), its report, and how
// far its host's clock is ahead of this machine's (subtracted from its times).
struct GeneratorPart {
  std::string name;
  int threads = 0;
  int clients = 0;
  uint64_t key_minimum = 0;
  uint64_t key_maximum = 0;
  GeneratorReport report;
  int64_t clock_offset_us = 0;
  // Generators of one `cpu_group` (same host, same CPUs) share `group_cpus` CPUs: their CPU use
  // counts together, so two processes that fill one CPU between them are client-bound too.
  std::string cpu_group;
  int group_cpus = 0;
};

// The trial of several generators: ops and errors summed; throughput = all ops over the
// window from the earliest start to the latest finish; p50, p99, p99.9 from the histograms
// merged bucket by bucket (never percentiles averaged), the average weighted by ops; each
// part in `clients` with its CPU use (its group's, when it shares CPUs), the start skew, and
// client_bound when any generator was. kUsage when a
// histogram is missing or the histograms do not share a geometry. `merged`, when given, gets
// the merged histogram (in the parts' unit).
core::Result<results::TrialResult> MergeGenerators(const std::vector<GeneratorPart>& parts,
                                                   core::HdrHistogram* merged = nullptr);

}  // namespace dfbench::drivers
