// memtier's lines on stderr, as memtier_benchmark.cpp's run_benchmark writes them: the run's two
// announcements, once a second the progress line (ending in "\r" whether stderr is a terminal
// or not, as memtier's does), the interrupt's line, and the blank lines that close the run.
// --progress never writes none of them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "loadgen/config.h"

namespace dfbench::loadgen {

// What the coordinator knows of the run at one look.
struct ProgressSample {
  double elapsed_s = 0;  // into the measured window
  uint64_t ops = 0;      // replies so far (live)
  int active_threads = 0;
  // The finished seconds: how many, and their bytes, replies and replies' latency sum.
  uint64_t seconds = 0;
  uint64_t bytes = 0;
  uint64_t replies = 0;
  double latency_sum_ns = 0;
  // The last finished second (memtier's "current" figures).
  uint64_t last_ops = 0;
  uint64_t last_bytes = 0;
  double last_latency_ms = 0;
};

// The "current" figures a progress line shows.
struct ProgressCurrent {
  uint64_t ops = 0;
  uint64_t bytes = 0;
  double latency_ms = 0;
};

class Progress {
 public:
  // Writes to `out` (stderr; a file in tests), for the run numbered `run` (from 1, memtier's
  // --run-count).
  Progress(const Config& config, int run, std::FILE* out);

  // "Writing results to ...", where the report goes, then the first announcement.
  void Preparing();
  void Launching();
  // The client staircase's steps, as memtier draws them before the launch; nothing without one.
  void StaircasePattern();
  // Prints the progress line when a whole second passed since the last one.
  void Update(const ProgressSample& sample);
  // Once, at the first look that sees the interrupt (SIGINT: memtier's Ctrl+C).
  void Interrupted(double elapsed_s);
  // The last progress line (memtier's loop prints one more after the threads end, none after an
  // interrupt) and the run's closing blank lines.
  void Finish(const ProgressSample& sample);

 private:
  // `final`: the run is over, every second counted; the averages are over the whole window.
  void Line(const ProgressSample& sample, bool final);

  std::FILE* out_;
  const int run_;
  const std::string out_file_;
  const bool on_;
  const bool by_time_;
  const double test_time_s_;
  uint64_t total_requests_ = 0;  // by requests: every client's, summed
  const int threads_;
  // The clients per thread shown: all of them, or with a staircase those of the elapsed seconds.
  const ClientStaircase staircase_;
  // Updated while every thread runs, kept after (memtier's cur_* figures): a short run's
  // closing line shows zeros, a long one's its last full second.
  ProgressCurrent current_;
  double next_s_ = 1;
  bool interrupted_ = false;
};

// memtier's size_to_str: "12.34KB", "1.85MB", "2.00GB" (1024-based).
std::string SizeString(double bytes);

}  // namespace dfbench::loadgen
