#include "drivers/generator_report.h"

#include <gtest/gtest.h>

#include <random>

#include "support/test_data.h"

namespace dfbench::drivers {
namespace {

// memtier's JSON carries its Totals histogram (microseconds): it decodes to the run's count,
// and its percentiles are the JSON's within a bucket.
TEST(GeneratorReport, ReadsMemtiersHistogramAndTimes) {
  auto r = ParseGeneratorReport(testing::FixtureText("peers/memtier_f_percentiles_hdr.json"),
                                {.test_time_sec = 3});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->histogram);
  EXPECT_EQ(r->unit_ns, 1000);
  EXPECT_EQ(r->histogram->total_count(), 111852);
  const double p99_ms = static_cast<double>(r->histogram->ValueAtPercentile(99)) / 1000;
  EXPECT_NEAR(p99_ms, r->trial.p99, 0.02);
  EXPECT_GT(r->start_epoch_us, 0);
  EXPECT_GT(r->finish_epoch_us, r->start_epoch_us);
  EXPECT_FALSE(DecodeCompressedHistogram("SElTVEZBQUFB"));  // the cookie, then nothing
}

// A report of our generator with `count` latencies drawn from `seed`, starting at `start_us`.
GeneratorReport Generated(int seed, int count, int64_t start_us, double cpu) {
  GeneratorReport r{.histogram = *core::HdrHistogram::Make(1, 3'600'000'000'000, 3)};
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> latency(12.0 + seed * 0.3, 0.8);
  double sum_ms = 0;
  for (int i = 0; i < count; ++i) {
    const auto v = static_cast<int64_t>(latency(rng));
    r.histogram->Record(v);
    sum_ms += static_cast<double>(v) / 1e6;
  }
  r.trial.ops = static_cast<uint64_t>(count);
  r.trial.errors = 1;
  r.trial.avg_latency = sum_ms / count;
  r.trial.client_cpu = cpu;
  r.trial.client_cpu_demand = cpu;
  r.start_epoch_us = start_us;
  r.finish_epoch_us = start_us + 2'000'000;
  return r;
}

// Two generators' trial: counts summed, percentiles of the two histograms merged bucket by
// bucket (not averaged), throughput over both windows, start skew and client-bound recorded.
TEST(MergeGenerators, MergesHistogramsExactlyAndRecordsEachPart) {
  std::vector<GeneratorPart> parts = {
      {.name = "client", .threads = 2, .clients = 5, .report = Generated(1, 30000, 1000, 0.5)},
      {.name = "client-2",
       .threads = 1,
       .clients = 5,
       .report = Generated(2, 10000, 4000 + 500, 0.95),
       .clock_offset_us = 500}};
  auto t = MergeGenerators(parts);
  ASSERT_TRUE(t) << t.error().message;
  core::HdrHistogram all = *parts[0].report.histogram;
  ASSERT_TRUE(all.Merge(*parts[1].report.histogram));
  EXPECT_EQ(t->p50, static_cast<double>(all.ValueAtPercentile(50)) / 1e6);
  EXPECT_EQ(t->p99, static_cast<double>(all.ValueAtPercentile(99)) / 1e6);
  EXPECT_EQ(t->p999, static_cast<double>(all.ValueAtPercentile(99.9)) / 1e6);
  // Not what averaging the two p99s would give: the slower generator's tail weighs its share.
  EXPECT_EQ(t->ops, 40000u);
  EXPECT_EQ(t->errors, 2u);
  EXPECT_NEAR(t->duration_sec, 2.003, 1e-9);  // 1000 us .. 4000 + 2,000,000 us
  EXPECT_NEAR(t->throughput, 40000 / 2.003, 1e-6);
  EXPECT_NEAR(t->avg_latency,
              (parts[0].report.trial.avg_latency * 3 + parts[1].report.trial.avg_latency) / 4,
              1e-9);
  EXPECT_EQ(t->start_skew_ms, 3.0);
  EXPECT_TRUE(t->client_bound);
  EXPECT_EQ(t->client_cpu, 0.95);
  ASSERT_EQ(t->clients.size(), 2u);
  EXPECT_EQ(t->clients[0].name, "client");
  EXPECT_EQ(t->clients[0].connections(), 10);
  EXPECT_FALSE(t->clients[0].client_bound);
  EXPECT_TRUE(t->clients[1].client_bound);
  EXPECT_EQ(t->clients[1].start_offset_ms, 3.0);
}

// Two processes that share one CPU, each using half of it, fill it: both are client-bound,
// though neither used its own CPU to 90 %.
TEST(MergeGenerators, ProcessesSharingCpusCountTheirUseTogether) {
  std::vector<GeneratorPart> parts;
  for (int i = 0; i < 2; ++i) {
    GeneratorPart p{.name = "process " + std::to_string(i + 1),
                    .report = Generated(i, 100, 0, 0.48),
                    .cpu_group = "host,1",
                    .group_cpus = 1};
    p.report.cpu_sec = 0.48;
    p.report.wall_sec = 1.0;
    p.report.usable_cpus = 1;
    parts.push_back(std::move(p));
  }
  auto t = MergeGenerators(parts);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(t->client_bound);
  EXPECT_NEAR(t->client_cpu, 0.96, 1e-9);
  EXPECT_TRUE(t->clients[1].client_bound);
  parts[1].cpu_group = "host,2";  // on CPUs of their own, each half busy
  EXPECT_FALSE(MergeGenerators(parts)->client_bound);
  // Half busy, and as long runnable but waiting for its CPU: starved, hence client-bound.
  parts[1].report.run_delay_sec = 0.45;
  t = MergeGenerators(parts);
  EXPECT_FALSE(t->clients[0].client_bound);
  EXPECT_TRUE(t->clients[1].client_bound);
  EXPECT_NEAR(t->clients[1].client_cpu_demand, 0.93, 1e-9);
}

TEST(MergeGenerators, RefusesWhatDoesNotMergeExactly) {
  GeneratorPart a{.name = "client", .report = Generated(1, 100, 0, 0)};
  GeneratorPart b{.name = "client-2", .report = Generated(2, 100, 0, 0)};
  b.report.histogram.reset();
  EXPECT_EQ(MergeGenerators({a, b}).error().message,
            "client-2: its report holds no histogram to merge");
  b.report = Generated(2, 100, 0, 0);
  b.report.unit_ns = 1000;
  EXPECT_FALSE(MergeGenerators({a, b}));
  b.report.unit_ns = 1;
  b.report.histogram = *core::HdrHistogram::Make(1, 1'000'000, 2);
  EXPECT_FALSE(MergeGenerators({a, b}));
  EXPECT_FALSE(MergeGenerators({}));
}

}  // namespace
}  // namespace dfbench::drivers
