#include "results/schema.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"

namespace dfbench::results {

Stats Summarize(const std::vector<double>& values) {
  Stats s;
  if (values.empty()) return s;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (n >= 2) {
    double mean = 0;
    for (double v : sorted) mean += v;
    mean /= static_cast<double>(n);
    double sum_sq = 0;
    for (double v : sorted) sum_sq += (v - mean) * (v - mean);
    s.stddev = std::sqrt(sum_sq / static_cast<double>(n - 1));
  }
  return s;
}

std::string TrialFailure(const TrialResult& t, double max_error_pct) {
  if (!t.ended_early.empty()) return "the measured window ended early: " + t.ended_early;
  if (t.server_ops && *t.server_ops + kServerOpsShortfall < t.ops) {
    return core::Format(
        "the server counted {} operations, fewer than the {} the load generator saw answered "
        "(lost work)",
        *t.server_ops, t.ops);
  }
  if (t.ops == 0) {
    return t.errors == 0 ? std::string("no request was answered")
                         : core::Format("no request succeeded ({} errors)", t.errors);
  }
  const double error_pct =
      100.0 * static_cast<double>(t.errors) / static_cast<double>(t.ops + t.errors);
  if (error_pct > max_error_pct) {
    return core::Format("{:.2f} % of requests failed ({} errors), above the {:g} % allowed",
                        error_pct, t.errors, max_error_pct);
  }
  return "";
}

void EngineResult::Aggregate() {
  auto summarize = [this](double TrialResult::*field) {
    std::vector<double> values;
    values.reserve(trials.size());
    for (const auto& t : trials) {
      if (t.failed.empty()) values.push_back(t.*field);
    }
    return Summarize(values);
  };
  throughput = summarize(&TrialResult::throughput);
  p50 = summarize(&TrialResult::p50);
  p99 = summarize(&TrialResult::p99);
  p999 = summarize(&TrialResult::p999);
  avg_latency = summarize(&TrialResult::avg_latency);
}

size_t EngineResult::ClientBoundTrials() const {
  return static_cast<size_t>(std::count_if(trials.begin(), trials.end(),
                                           [](const TrialResult& t) { return t.client_bound; }));
}

RunLoadRecord RecordOf(const core::Load& load, const core::Pass& pass) {
  const bool timed = pass.length == core::Pass::Length::kTestTime;
  return {.threads = load.threads,
          .clients = load.clients,
          .requests = timed ? 0 : pass.requests_per_client,
          .ratio = load.ratio.ToString(),
          .data_size = load.data_size,
          .pipeline = load.pipeline,
          .distinct_client_seed = load.distinct_client_seed,
          .test_time_sec = timed ? static_cast<int>(core::WholeSeconds(pass.test_time)) : 0,
          .key_maximum = load.key_maximum};
}

}  // namespace dfbench::results
