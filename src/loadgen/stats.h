// Per-thread measurements (one writer each, merged once at the end) and the per-second
// time series, which workers hand to the coordinating thread one finished second at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "loadgen/histogram.h"
#include "loadgen/report.h"

namespace dfbench::loadgen {

struct SlotCounters {
  uint64_t count = 0;  // operations: successful replies, and error replies when they count as ops
  uint64_t errors = 0;
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t bytes_rx = 0;
  uint64_t bytes_tx = 0;
  uint64_t moved = 0;  // cluster: redirections answered, each followed by a resend
  uint64_t ask = 0;
  double latency_sum_ns = 0;

  void Add(const SlotCounters& o);
};

// A command's whole-run figures: counters and latency from the due time (open loop) or the
// send time (closed loop).
struct SlotStats {
  SlotCounters counters;
  LatencyHistogram latency;
};

// What one worker measured besides the time series, which carries each reply's counters and
// latency exactly once (whole-run figures are the sum of its seconds).
struct ThreadStats {
  std::vector<LatencyHistogram> uncorrected;  // open loop only, per slot: from the send time
  // Open loop only: how late each measured request left by the generator's doing: its send time
  // minus its due time, or minus when a full pipeline got room if that was later (a wait for
  // the server is the server's). The latency from the due time includes it.
  LatencyHistogram send_lag;
  uint64_t warmup_count = 0;
  uint64_t connection_errors = 0;
  uint64_t reconnects = 0;
  uint64_t tls_handshakes = 0;  // completed, the first ones included
  uint64_t pushes = 0;          // RESP3 out-of-band pushes (they answer no request)
  uint64_t unanswered = 0;
  // Measured requests sent and never answered (lost with their connection, or still in flight
  // when the run stopped): each is an error of its command too.
  uint64_t lost_requests = 0;
  int64_t last_reply_ns = 0;  // monotonic time of the last measured reply
  // When the load was first cut after it started (a connection lost, the server silent), and
  // why; 0 when it never was. Then the measured window ended early.
  int64_t cut_ns = 0;
  std::string cut_reason;
  int64_t stopped_ns = 0;  // when the worker stopped sending and waiting
  std::vector<std::string> error_samples;
  // How long the thread was runnable but waited for a CPU during the load (the kernel's
  // schedstat run delay): time a starved generator cannot show as its own CPU use.
  int64_t run_delay_ns = 0;
};

// One second of one worker's measurements.
struct SecondBlock {
  int64_t second = 0;
  uint32_t clients = 0;  // the worker's clients taking part by the second's end (staircase)
  struct PerSlot {
    SlotCounters counters;
    LatencyHistogram latency;
  };
  std::vector<PerSlot> slots;
};

// Hand-off point between a worker (producer) and the coordinator (consumer).
class SeriesMailbox {
 public:
  void Post(std::unique_ptr<SecondBlock> block);
  std::vector<std::unique_ptr<SecondBlock>> Take();
  // The second the worker is filling now; the coordinator may finish every earlier second.
  // INT64_MAX once the worker has posted its last block.
  std::atomic<int64_t> current_second{0};

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<SecondBlock>> blocks_;
};

// Merges the workers' seconds, turns each finished second into SeriesPoints per slot and for
// the totals, and sums the seconds into whole-run figures per slot. Coordinator thread only.
class SeriesCollector {
 public:
  SeriesCollector(size_t slots, std::vector<double> percentiles)
      : slots_(slots), percentiles_(std::move(percentiles)), slot_totals_(slots) {}

  void Add(std::unique_ptr<SecondBlock> block);
  // Summarises every second before `second` (all workers are past it).
  void FinishBefore(int64_t second);

  // Finished points: per_slot[slot][second], totals[second]; seconds with no data are empty
  // points. `seconds` pads the series to that length.
  std::vector<std::vector<SeriesPoint>> PerSlot(size_t seconds) const;
  std::vector<SeriesPoint> Totals(size_t seconds) const;

  // The most recent finished second's totals (for the progress line); null if none.
  const SeriesPoint* LastFinished() const;
  // The seconds finished so far are 0..LastFinishedSecond() (-1: none); one second's totals.
  int64_t LastFinishedSecond() const { return last_finished_; }
  const SeriesPoint& TotalsAt(int64_t second) const {
    return done_totals_[static_cast<size_t>(second)];
  }

  // Whole-run figures per slot: the sum of every finished second.
  const std::vector<SlotStats>& SlotTotals() const { return slot_totals_; }

 private:
  struct Pending {
    int64_t second;
    std::vector<SecondBlock::PerSlot> slots;
    uint32_t clients = 0;  // every worker's
  };
  size_t slots_;
  std::vector<double> percentiles_;
  std::vector<Pending> pending_;                // merged but not finished yet
  std::vector<std::vector<SeriesPoint>> done_;  // [second] -> per slot
  std::vector<SeriesPoint> done_totals_;        // [second]
  int64_t last_finished_ = -1;
  std::vector<SlotStats> slot_totals_;
};

}  // namespace dfbench::loadgen
