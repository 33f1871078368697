// Human and machine renderings of the same result data.
#pragma once

#include <string>

#include "results/schema.h"

namespace dfbench::results {

// The comparison table printed after a run: one row per engine, median throughput with the
// [min..max] spread, p50/p99/p99.9/avg latency (ms), and an error column when any engine failed.
std::string RenderRunTable(const RunResults& r);

// results.csv: header, then one row per (engine, trial), its last column `failed` why the trial
// failed ("" when it passed), then one "median" row per engine (over the trials that passed).
// Columns: engine,version,trial,throughput,p50,p99,p999,avg_latency,ops,errors,duration_sec
std::string RenderRunCsv(const RunResults& r);

// results.json, pretty-printed with a trailing newline.
std::string RenderRunJson(const RunResults& r);

// The engine rows of the comparison table (RenderRunTable without its header line); shared by
// every per-engine result file.
std::string RenderEngineTable(const std::vector<EngineResult>& engines);

// One row per load generator of each trial measured by several (--per-client): its share,
// figures, CPU use and start offset; "" when no trial had several generators.
std::string RenderClientTable(const std::vector<EngineResult>& engines);

// One CSV line (RFC 4180 quoting) ending in "\n", and a number in its shortest exact form.
std::string CsvRow(const std::vector<std::string>& fields);
std::string CsvNumber(double v);
// `v` rounded to at most `max_decimals` decimals, then in its shortest form: a figure computed
// as 4018.1800000000003 is written 4018.18 (for readers that parse numbers as text).
std::string CsvNumber(double v, int max_decimals);

}  // namespace dfbench::results
