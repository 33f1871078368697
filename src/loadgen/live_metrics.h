// The live metrics of a run (Config::metrics), fed by the coordinator from the seconds it has
// finished: nothing here runs on a worker thread or per request.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "loadgen/config.h"
#include "loadgen/prometheus_endpoint.h"
#include "loadgen/stat_rows.h"
#include "loadgen/stats.h"
#include "loadgen/statsd_emitter.h"
#include "loadgen/workload.h"

namespace dfbench::loadgen {

class LiveMetrics {
 public:
  // What `config.metrics` asks for, for a run of `workload` over `nodes` servers, its figures
  // in the report's `rows`. A StatsD host
  // that cannot be used is said once on stderr and the run goes on without it (as memtier); a
  // Prometheus address that cannot be listened on is an error, before any load.
  static core::Result<LiveMetrics> Open(const Config& config, const Workload& workload,
                                        const StatRows& rows, int nodes);

  void Started();
  // Sends each second `series` finished since the last call and renews the Prometheus text;
  // `elapsed_ns` is the measured window so far, `active_threads` the workers still running.
  void Publish(const SeriesCollector& series, int active_threads, int64_t elapsed_ns);
  // Answers the Prometheus scrapes that are ready; never waits.
  void Serve();
  void Finished(const Report& report);

 private:
  LiveMetrics(const Config& config, std::vector<std::string> commands, int nodes);
  void RenderPrometheus(const SeriesCollector* series, long connections);

  const Config* config_;
  std::vector<std::string> commands_;  // per row of the series: its command's name
  long connections_per_thread_;
  std::optional<StatsdEmitter> statsd_;
  std::unique_ptr<PrometheusEndpoint> prometheus_;
  std::string prometheus_text_;
  int64_t published_ = -1;  // the last second sent
};

}  // namespace dfbench::loadgen
