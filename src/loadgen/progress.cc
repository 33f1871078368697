#include "loadgen/progress.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace dfbench::loadgen {

std::string SizeString(double bytes) {
  char buf[40];
  constexpr double kKb = 1024, kMb = kKb * 1024, kGb = kMb * 1024;
  if (bytes >= kGb) {
    std::snprintf(buf, sizeof(buf), "%.2fGB", bytes / kGb);
  } else if (bytes >= kMb) {
    std::snprintf(buf, sizeof(buf), "%.2fMB", bytes / kMb);
  } else {
    std::snprintf(buf, sizeof(buf), "%.2fKB", bytes / kKb);
  }
  return buf;
}

Progress::Progress(const Config& config, int run, std::FILE* out)
    : out_(out),
      run_(run),
      out_file_(config.out_file),
      on_(config.progress != ProgressMode::kNever),
      by_time_(config.by_time()),
      test_time_s_(static_cast<double>(config.pass.test_time.count()) / 1e6),
      threads_(config.load.threads),
      staircase_(config.Staircase()) {
  if (!by_time_) {
    for (int i = 0; i < config.total_clients(); ++i) total_requests_ += config.RequestsForClient(i);
  }
}

void Progress::Preparing() {
  if (!on_) return;
  // memtier says where the results go once, before its first run (memtier_benchmark.cpp main).
  if (run_ == 1 && (out_file_.empty() || out_file_ == "-")) {
    std::fprintf(out_, "Writing results to stdout\n");
  } else if (run_ == 1) {
    std::fprintf(out_, "Writing results to %s...\n", out_file_.c_str());
  }
  std::fprintf(out_, "[RUN #%d] Preparing benchmark client...\n", run_);
  std::fflush(out_);
}

void Progress::Launching() {
  if (!on_) return;
  std::fprintf(out_, "[RUN #%d] Launching threads now...\n", run_);
  std::fflush(out_);
}

void Progress::StaircasePattern() {
  if (!on_ || !staircase_.enabled()) return;
  const ClientStaircase& s = staircase_;
  const auto test_time = static_cast<uint32_t>(test_time_s_);
  const uint32_t steps = (s.clients - s.start + s.step - 1) / s.step;
  std::fprintf(out_, "[RUN #%d] Client staircase pattern (per thread x %d threads):\n", run_,
               threads_);
  for (uint32_t step = 0; step <= steps; ++step) {
    const uint32_t from = step * s.step_duration_s;
    if (step > 0 && from >= test_time) break;  // a step the run ends before
    const uint32_t clients = s.ClientsAt(from);
    const bool top = clients >= s.clients;
    const uint32_t to = std::min(top ? test_time : from + s.step_duration_s, test_time);
    // A bar of up to 20 blocks, proportional to the clients.
    const uint32_t bar = std::max<uint32_t>(1, (clients * 20 + s.clients - 1) / s.clients);
    std::string blocks;
    for (uint32_t b = 0; b < bar; ++b) blocks += "\xe2\x96\x88";  // U+2588, a full block
    std::fprintf(out_, "  Step %u: %3us - %3us : %3u clients  %s%s\n", step, from, to, clients,
                 blocks.c_str(), top ? "  (max)" : "");
    if (top) break;
  }
  std::fprintf(out_, "  Total max connections: %u x %d = %u\n", s.clients, threads_,
               s.clients * static_cast<uint32_t>(threads_));
  const uint32_t to_top = steps * s.step_duration_s;
  if (test_time >= to_top) {
    std::fprintf(out_, "  Minimum time to reach max: %us (test_time: %us OK)\n", to_top, test_time);
  } else {
    std::fprintf(out_,
                 "  WARNING: test_time (%us) < time to reach max clients (%us), max will not be "
                 "reached\n",
                 test_time, to_top);
  }
  std::fprintf(out_, "\n");
  std::fflush(out_);
}

void Progress::Update(const ProgressSample& sample) {
  if (!on_ || sample.elapsed_s < next_s_) return;
  next_s_ = std::floor(sample.elapsed_s) + 1;
  if (sample.active_threads == threads_) {
    current_ = {
        .ops = sample.last_ops, .bytes = sample.last_bytes, .latency_ms = sample.last_latency_ms};
  }
  Line(sample, false);
}

void Progress::Interrupted(double elapsed_s) {
  if (!on_ || interrupted_) return;
  interrupted_ = true;
  std::fprintf(out_,
               "\n[RUN #%d] Interrupted by user (Ctrl+C) after %.1f secs, stopping threads...\n",
               run_, elapsed_s);
  std::fflush(out_);
}

void Progress::Finish(const ProgressSample& sample) {
  if (!on_) return;
  // memtier stops its progress lines at the interrupt's.
  if (!interrupted_) Line(sample, true);
  std::fprintf(out_, "\n\n");
  std::fflush(out_);
}

void Progress::Line(const ProgressSample& s, bool final) {
  double percent = 0;
  if (by_time_) {
    percent = test_time_s_ > 0 ? 100.0 * s.elapsed_s / test_time_s_ : 0;
  } else if (total_requests_ > 0) {
    percent = 100.0 * static_cast<double>(s.ops) / static_cast<double>(total_requests_);
  }
  const double elapsed = std::max(s.elapsed_s, 1e-9);
  const double seconds = final ? elapsed : std::max<double>(static_cast<double>(s.seconds), 1);
  const double avg_latency_ms =
      s.replies > 0 ? s.latency_sum_ns / 1e6 / static_cast<double>(s.replies) : 0;
  std::fprintf(out_,
               "[RUN #%d %.0f%%, %3u secs] %2d threads %2d conns: %11llu ops, %7llu (avg: %7llu) "
               "ops/sec, %s/sec (avg: %s/sec), %5.2f (avg: %5.2f) msec latency\r",
               run_, percent, static_cast<unsigned>(s.elapsed_s), s.active_threads,
               static_cast<int>(staircase_.ClientsAt(static_cast<int64_t>(s.elapsed_s))),
               static_cast<unsigned long long>(s.ops),
               static_cast<unsigned long long>(current_.ops),
               static_cast<unsigned long long>(static_cast<double>(s.ops) / elapsed),
               SizeString(static_cast<double>(current_.bytes)).c_str(),
               SizeString(static_cast<double>(s.bytes) / seconds).c_str(), current_.latency_ms,
               avg_latency_ms);
  std::fflush(out_);
}

}  // namespace dfbench::loadgen
