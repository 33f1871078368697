// Sample values the tests of result files (and of state.json, which records hosts) build on, and
// reading a rendered document back.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "results/schema.h"

namespace dfbench::testing {

// A `Document` of run 20260408-143217 of `setup_id`, which completed: its opening fields and the
// tool of its context block.
template <class Document>
Document CompletedRun(std::string setup_id) {
  Document d;
  d.context.tool_version = "dfbench v0.1.0 (commit abc1234, built 2026-04-08)";
  static_cast<results::RunFields&>(d) = {.run_id = "20260408-143217",
                                         .setup_id = std::move(setup_id),
                                         .created_at = "2026-04-08T14:32:17Z",
                                         .completed_at = "2026-04-08T14:41:05Z",
                                         .status = results::RunStatus::kCompleted,
                                         .region = "us-east-1"};
  return d;
}

// A trial's reference fields: throughput in ops/s, latencies in ms.
inline results::TrialResult Trial(int n, double throughput, double p50, double p99, double p999,
                                  double avg) {
  return {.trial = n,
          .throughput = throughput,
          .p50 = p50,
          .p99 = p99,
          .p999 = p999,
          .avg_latency = avg};
}

// A host with every fact known, as a setup records it.
inline results::HostFacts FullHost(core::Role role) {
  return {.role = role,
          .name = "bench-1",
          .address = "3.88.12.4",
          .private_address = "10.0.1.42",
          .cpu_model = "AMD EPYC 7R13",
          .vcpus = 16,
          .memory_bytes = 34359738368ULL,
          .kernel = "6.1.0-18-amd64",
          .os = "Debian GNU/Linux 12",
          .arch = "x86_64",
          .cpus = {2, 3}};
}

// Reads `text` into `*out` by the document's FromJson (results/json_fields.h); its error as the
// failure's message.
template <class Document>
::testing::AssertionResult Reads(const std::string& text, Document* out) {
  std::string error;
  if (FromJson(nlohmann::json::parse(text), out, &error)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << error;
}

// Renders `in` by `render` (RenderRunJson ...), reads that into `*back` and renders it again:
// fails unless it reads and gives the same text, so no field is lost or changed on the way.
template <class Document>
::testing::AssertionResult RoundTrips(const Document& in, std::string (*render)(const Document&),
                                      Document* back) {
  const std::string text = render(in);
  if (::testing::AssertionResult read = Reads(text, back); !read) return read;
  const std::string again = render(*back);
  if (again == text) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "read back as\n" << again << "instead of\n" << text;
}

}  // namespace dfbench::testing
