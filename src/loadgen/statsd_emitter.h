// What memtier_benchmark sends to StatsD during a run, from the coordinator's finished seconds:
// once a second ops_sec, ops_sec_avg, bytes_sec, bytes_sec_avg, connections, progress_pct and
// latency_p<N> per --print-percentiles (gauges), latency_ms and latency_avg_ms (timings); at
// the end the whole run's figures, connection_errors when there were any, the "Benchmark
// Completed" event, and the rate gauges set to 0 so graphs drop.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "loadgen/graphite_events.h"
#include "loadgen/report.h"
#include "loadgen/statsd.h"

namespace dfbench::loadgen {

// What the progress figures are measured against (memtier's progress_pct): the requests the
// run sends, or its test time.
struct RunPlan {
  uint64_t requests = 0;  // by requests: all clients' requests; 0 when by time
  double test_time_s = 0;
  std::vector<double> percentiles;
};

class StatsdEmitter {
 public:
  StatsdEmitter(StatsdClient client, std::optional<GraphiteEvents> events, RunPlan plan)
      : client_(std::move(client)), events_(std::move(events)), plan_(std::move(plan)) {}

  // The "Benchmark Started" event (memtier's data: threads, connections per thread, run 1).
  void Started(int threads, int clients);
  // One finished second of the measured window: its totals, the seconds elapsed at its end (or
  // now, for a second not over yet) and the connections of the threads still running.
  void Second(const SeriesPoint& point, double elapsed_s, long connections);
  void Finished(const Report& report);

 private:
  double ProgressPct(uint64_t ops, double elapsed_s) const;

  StatsdClient client_;
  std::optional<GraphiteEvents> events_;
  RunPlan plan_;
  uint64_t ops_ = 0;
  uint64_t bytes_ = 0;
  double latency_sum_ms_ = 0;
};

}  // namespace dfbench::loadgen
