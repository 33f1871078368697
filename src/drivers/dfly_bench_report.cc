#include "drivers/dfly_bench_report.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "core/format.h"

namespace dfbench::drivers {
namespace {

using nlohmann::json;

core::Error Unknown(const std::string& file, const std::string& what) {
  return {core::ErrorKind::kUsage,
          core::Format("{}: not a dfly_bench output this dfbench knows ({})",
                       file.empty() ? std::string("dfly_bench") : file, what)};
}

bool IsNumber(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_number();
}

// The report's shape: "ALL STATS" with "Runtime" and "Totals" (Count, Average Latency and the
// three percentiles) and one section per operation. "" when it is all there.
std::string MissingFromReport(const json& doc) {
  auto all = doc.find("ALL STATS");
  if (all == doc.end() || !all->is_object()) return "expected an \"ALL STATS\" object";
  auto totals = all->find("Totals");
  if (totals == all->end() || !totals->is_object()) return "expected \"ALL STATS\".\"Totals\"";
  for (const char* key : {"Count", "Average Latency"}) {
    if (!IsNumber(*totals, key)) return core::Format("expected a number at Totals.\"{}\"", key);
  }
  auto pl = totals->find("Percentile Latencies");
  if (pl == totals->end() || !pl->is_object()) {
    return "expected Totals.\"Percentile Latencies\"";
  }
  for (const char* key : {"p50.00", "p99.00", "p99.90"}) {
    if (!IsNumber(*pl, key)) {
      return core::Format("expected a number at Totals.\"Percentile Latencies\".\"{}\"", key);
    }
  }
  auto rt = all->find("Runtime");
  if (rt == all->end() || !rt->is_object() || !IsNumber(*rt, "Total duration")) {
    return "expected a number at \"ALL STATS\".Runtime.\"Total duration\"";
  }
  for (auto it = all->begin(); it != all->end(); ++it) {
    if (it.key() != "Runtime" && it.key() != "Totals" && it->is_object() &&
        IsNumber(*it, "Count")) {
      return "";
    }
  }
  return "expected a section per operation (\"Sets\"/\"Gets\" or the command's name) besides "
         "Totals";
}

// The unsigned integer right after `label` in `text`.
std::optional<uint64_t> NumberAfter(std::string_view text, std::string_view label) {
  const size_t at = text.find(label);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string rest(text.substr(at + label.size(), 24));
  char* end = nullptr;
  const unsigned long long n = std::strtoull(rest.c_str(), &end, 10);
  if (end == rest.c_str()) return std::nullopt;
  return n;
}

// An absl duration as dfly_bench prints it: "1.000609664s", "13.314419ms", "1m2.5s", "950us".
std::optional<double> DurationSeconds(std::string_view text) {
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    const std::string rest(text.substr(i));
    char* end = nullptr;
    const double v = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str()) return std::nullopt;
    i += static_cast<size_t>(end - rest.c_str());
    const std::string_view unit = text.substr(i);
    double scale = 0;
    size_t len = 0;
    for (auto [name, s] : {std::pair{"ms", 1e-3}, std::pair{"us", 1e-6}, std::pair{"ns", 1e-9},
                           std::pair{"h", 3600.0}, std::pair{"m", 60.0}, std::pair{"s", 1.0}}) {
      if (unit.starts_with(name)) {
        scale = s;
        len = std::string_view(name).size();
        break;
      }
    }
    if (len == 0) return std::nullopt;
    total += v * scale;
    i += len;
  }
  return total;
}

struct StdoutSummary {
  uint64_t requests = 0;
  double seconds = 0;
  uint64_t errors = 0;
};

// "Total time: 1.000609664s. Overall number of requests: 79170, QPS: ..." and, when some replies
// were errors, "Got 130035 error responses!".
std::optional<StdoutSummary> ReadStdout(std::string_view text) {
  static constexpr std::string_view kTime = "Total time: ";
  static constexpr std::string_view kRequests = ". Overall number of requests: ";
  const size_t time_at = text.find(kTime);
  if (time_at == std::string_view::npos) return std::nullopt;
  const size_t requests_at = text.find(kRequests, time_at);
  if (requests_at == std::string_view::npos) return std::nullopt;
  StdoutSummary s;
  auto seconds =
      DurationSeconds(text.substr(time_at + kTime.size(), requests_at - time_at - kTime.size()));
  auto requests = NumberAfter(text.substr(requests_at), kRequests);
  if (!seconds || !requests) return std::nullopt;
  s.seconds = *seconds;
  s.requests = *requests;
  static constexpr std::string_view kGot = "Got ";
  for (size_t at = text.find(kGot); at != std::string_view::npos; at = text.find(kGot, at + 1)) {
    const size_t line_end = text.find('\n', at);
    const std::string_view line = text.substr(at, line_end - at);
    if (line.ends_with(" error responses!")) {
      auto n = NumberAfter(line, kGot);
      if (!n) return std::nullopt;
      s.errors = *n;
    }
  }
  return s;
}

}  // namespace

core::Result<results::TrialResult> ParseDflyBenchOutput(const ToolOutput& output,
                                                        const core::Pass& pass) {
  const json doc = json::parse(output.report, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return tl::unexpected(Unknown(output.report_path, "expected a JSON object"));
  }
  if (auto missing = MissingFromReport(doc); !missing.empty()) {
    return tl::unexpected(Unknown(output.report_path, missing));
  }
  auto summary = ReadStdout(output.stdout_text);
  if (!summary) {
    return tl::unexpected(Unknown(output.stdout_path,
                                  "expected a line \"Total time: <duration>. Overall number of "
                                  "requests: <N>, QPS: ...\" on its stdout"));
  }
  auto trial = ParseLoadReport(output.report, ReportOptionsFor(pass));
  if (!trial) return tl::unexpected(Unknown(output.report_path, trial.error().message));
  if (summary->requests != trial->ops) {
    return tl::unexpected(Unknown(
        output.stdout_path, core::Format("its {} requests should be the report's Totals.Count, {}",
                                         summary->requests, trial->ops)));
  }
  if (summary->errors > trial->ops) {
    return tl::unexpected(
        Unknown(output.stdout_path,
                core::Format("{} error responses of {} requests", summary->errors, trial->ops)));
  }
  trial->errors = summary->errors;
  trial->ops -= summary->errors;
  if (pass.length != core::Pass::Length::kTestTime) trial->duration_sec = summary->seconds;
  trial->throughput =
      trial->duration_sec > 0 ? static_cast<double>(trial->ops) / trial->duration_sec : 0;
  return trial;
}

}  // namespace dfbench::drivers
