#include "loadgen/prometheus_text.h"

#include <gtest/gtest.h>

#include <string>

namespace dfbench::loadgen {
namespace {

bool HasLine(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

SlotStats SlotFigures(uint64_t count, uint64_t errors, uint64_t hits, uint64_t misses,
                      std::initializer_list<uint64_t> latencies_ns) {
  SlotStats s;
  s.counters.count = count;
  s.counters.errors = errors;
  s.counters.hits = hits;
  s.counters.misses = misses;
  s.counters.bytes_rx = 100;
  s.counters.bytes_tx = 200;
  for (uint64_t ns : latencies_ns) {
    s.latency.Record(ns);
    s.counters.latency_sum_ns += static_cast<double>(ns);
  }
  return s;
}

TEST(PrometheusText, CountersPerCommandWithTheRunLabel) {
  const SlotStats set = SlotFigures(3, 1, 0, 0, {50'000, 200'000, 3'000'000});
  const SlotStats get = SlotFigures(2, 0, 1, 1, {80'000, 90'000});
  const std::string text = PrometheusText("r\"1", {{"SET", &set}, {"GET", &get}}, 8);
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_requests_total{run="r\"1",command="SET"} 3)"))
      << text;
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_errors_total{run="r\"1",command="SET"} 1)")) << text;
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_hits_total{run="r\"1",command="GET"} 1)")) << text;
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_misses_total{run="r\"1",command="GET"} 1)")) << text;
  EXPECT_TRUE(
      HasLine(text, R"(dfbench_loadgen_received_bytes_total{run="r\"1",command="GET"} 100)"));
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_sent_bytes_total{run="r\"1",command="GET"} 200)"));
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_connections{run="r\"1"} 8)")) << text;
  EXPECT_TRUE(HasLine(text, "# TYPE dfbench_loadgen_latency_seconds histogram")) << text;
}

TEST(PrometheusText, TheHistogramIsCumulative) {
  const SlotStats set = SlotFigures(3, 0, 0, 0, {50'000, 200'000, 3'000'000});
  const std::string text = PrometheusText("r", {{"SET", &set}}, 1);
  const std::string b = R"(dfbench_loadgen_latency_seconds_bucket{run="r",command="SET",le=)";
  EXPECT_TRUE(HasLine(text, b + R"("0.0001"} 1)")) << text;
  EXPECT_TRUE(HasLine(text, b + R"("0.00025"} 2)")) << text;
  EXPECT_TRUE(HasLine(text, b + R"("0.0025"} 2)")) << text;
  EXPECT_TRUE(HasLine(text, b + R"("0.005"} 3)")) << text;
  EXPECT_TRUE(HasLine(text, b + R"("+Inf"} 3)")) << text;
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_latency_seconds_count{run="r",command="SET"} 3)"));
  EXPECT_TRUE(
      HasLine(text, R"(dfbench_loadgen_latency_seconds_sum{run="r",command="SET"} 0.00325)"))
      << text;
}

TEST(PrometheusText, CommandsOfOneNameAreOneSeries) {
  const SlotStats a = SlotFigures(3, 0, 0, 0, {});
  const SlotStats b = SlotFigures(4, 0, 0, 0, {});
  const std::string text = PrometheusText("r", {{"LPUSH", &a}, {"LPUSH", &b}}, 1);
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_requests_total{run="r",command="LPUSH"} 7)"))
      << text;
  EXPECT_TRUE(HasLine(text, R"(dfbench_loadgen_sent_bytes_total{run="r",command="LPUSH"} 400)"));
}

}  // namespace
}  // namespace dfbench::loadgen
