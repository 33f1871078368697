// memtier's stderr lines, as Progress writes them (into a temporary file here).
#include "loadgen/progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace dfbench::loadgen {
namespace {

// Everything written to `f` so far.
std::string Written(std::FILE* f) {
  std::fflush(f);
  std::string text(static_cast<size_t>(std::ftell(f)), '\0');
  std::rewind(f);
  text.resize(std::fread(text.data(), 1, text.size(), f));
  return text;
}

Config ByRequests() {
  Config c;
  c.load.threads = 1;
  c.load.clients = 2;
  c.pass = core::Pass::Requests(1000);
  return c;
}

TEST(Progress, WritesMemtiersLinesEndingInCarriageReturns) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  Progress p(ByRequests(), 1, f);
  p.Preparing();
  p.Launching();
  ProgressSample s{.elapsed_s = 0.5, .ops = 10, .active_threads = 1};
  p.Update(s);  // before the first whole second: nothing
  s = {.elapsed_s = 1.2,
       .ops = 1000,
       .active_threads = 1,
       .seconds = 1,
       .bytes = 2048,
       .replies = 900,
       .latency_sum_ns = 900 * 50000.0,
       .last_ops = 900,
       .last_bytes = 2048,
       .last_latency_ms = 0.05};
  p.Update(s);
  s.elapsed_s = 1.3;
  p.Update(s);  // the same second: nothing
  s = {.elapsed_s = 2.0,
       .ops = 2000,
       .seconds = 2,
       .bytes = 4096,
       .replies = 2000,
       .latency_sum_ns = 2000 * 50000.0,
       .last_ops = 7,
       .last_bytes = 10};
  p.Finish(s);
  EXPECT_EQ(Written(f),
            "Writing results to stdout\n"
            "[RUN #1] Preparing benchmark client...\n"
            "[RUN #1] Launching threads now...\n"
            "[RUN #1 50%,   1 secs]  1 threads  2 conns:        1000 ops,     900 (avg:     833) "
            "ops/sec, 2.00KB/sec (avg: 2.00KB/sec),  0.05 (avg:  0.05) msec latency\r"
            // The closing line keeps the last whole second's figures, as memtier's does.
            "[RUN #1 100%,   2 secs]  0 threads  2 conns:        2000 ops,     900 (avg:    1000) "
            "ops/sec, 2.00KB/sec (avg: 2.00KB/sec),  0.05 (avg:  0.05) msec latency\r"
            "\n\n");
  std::fclose(f);
}

TEST(Progress, AnInterruptEndsTheLinesAndNeverPrintsNothing) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  Config c = ByRequests();
  c.out_file = "out.txt";
  Progress p(c, 1, f);
  p.Preparing();
  p.Interrupted(3.04);
  p.Interrupted(3.5);
  p.Finish({.elapsed_s = 3.1, .ops = 5});
  EXPECT_EQ(Written(f),
            "Writing results to out.txt...\n"
            "[RUN #1] Preparing benchmark client...\n"
            "\n[RUN #1] Interrupted by user (Ctrl+C) after 3.0 secs, stopping threads...\n"
            "\n\n");
  std::fclose(f);

  f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  c.progress = ProgressMode::kNever;
  Progress quiet(c, 1, f);
  quiet.Preparing();
  quiet.Launching();
  quiet.Update({.elapsed_s = 5});
  quiet.Interrupted(5);
  quiet.Finish({.elapsed_s = 5});
  EXPECT_EQ(Written(f), "");
  std::fclose(f);
}

TEST(Progress, LaterRunsCarryTheirNumberAndSayNothingOfTheOutput) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  Progress p(ByRequests(), 3, f);
  p.Preparing();
  p.Launching();
  p.Interrupted(1.0);
  EXPECT_EQ(Written(f),
            "[RUN #3] Preparing benchmark client...\n"
            "[RUN #3] Launching threads now...\n"
            "\n[RUN #3] Interrupted by user (Ctrl+C) after 1.0 secs, stopping threads...\n");
  std::fclose(f);
}

TEST(Progress, SizesAreMemtiers) {
  EXPECT_EQ(SizeString(512), "0.50KB");
  EXPECT_EQ(SizeString(1.5 * 1024 * 1024), "1.50MB");
  EXPECT_EQ(SizeString(2.0 * 1024 * 1024 * 1024), "2.00GB");
}

}  // namespace
}  // namespace dfbench::loadgen
