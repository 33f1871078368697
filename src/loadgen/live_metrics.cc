#include "loadgen/live_metrics.h"

#include <algorithm>
#include <cstdio>

#include "loadgen/clock.h"
#include "loadgen/prometheus_text.h"

namespace dfbench::loadgen {
namespace {

RunPlan RunPlanOf(const Config& config) {
  RunPlan plan{.percentiles = config.load.percentiles};
  if (config.by_time()) {
    plan.test_time_s = static_cast<double>(config.pass.test_time.count()) / 1e6;
  } else {
    for (int i = 0; i < config.total_clients(); ++i) plan.requests += config.RequestsForClient(i);
  }
  return plan;
}

}  // namespace

core::Result<LiveMetrics> LiveMetrics::Open(const Config& config, const Workload& workload,
                                            const StatRows& rows, int nodes) {
  std::vector<std::string> commands;
  for (const size_t slot : rows.first_slot) commands.push_back(workload.slots[slot].type);
  LiveMetrics metrics(config, std::move(commands), nodes);
  const LiveMetricsConfig& m = config.metrics;
  if (m.prometheus_port != 0) {
    auto endpoint = PrometheusEndpoint::Listen(m.prometheus_bind, m.prometheus_port);
    if (!endpoint) return tl::unexpected(endpoint.error());
    metrics.prometheus_ = std::move(*endpoint);
    metrics.RenderPrometheus(nullptr, 0);
  }
  return metrics;
}

LiveMetrics::LiveMetrics(const Config& config, std::vector<std::string> commands, int nodes)
    : config_(&config),
      commands_(std::move(commands)),
      connections_per_thread_(static_cast<long>(config.load.clients) * nodes) {
  const LiveMetricsConfig& m = config.metrics;
  if (m.statsd_host.empty()) return;
  auto client =
      StatsdClient::Open(m.statsd_host, m.statsd_port, m.statsd_prefix, m.statsd_run_label);
  if (!client) {
    std::fprintf(stderr, "dfbench: warning: statsd: %s; metrics will not be sent\n",
                 client.error().message.c_str());
    return;
  }
  std::fprintf(stderr, "dfbench: statsd: sending metrics to %s:%d with prefix '%s'\n",
               m.statsd_host.c_str(), m.statsd_port, client->prefix().c_str());
  // memtier posts its events to the StatsD host.
  GraphiteEvents events(m.statsd_host, m.graphite_port, client->run_label());
  statsd_.emplace(std::move(*client), std::move(events), RunPlanOf(config));
}

void LiveMetrics::Started() {
  if (statsd_) statsd_->Started(config_->load.threads, config_->load.clients);
}

void LiveMetrics::Publish(const SeriesCollector& series, int active_threads, int64_t elapsed_ns) {
  const int64_t last = series.LastFinishedSecond();
  if (last <= published_) return;
  const long connections = active_threads * connections_per_thread_;
  const double elapsed_s = static_cast<double>(elapsed_ns) / kNsPerSec;
  for (int64_t s = published_ + 1; s <= last && statsd_; ++s) {
    // A second is whole unless the run ended in it.
    const double at_end = std::min(static_cast<double>(s + 1), elapsed_s);
    statsd_->Second(series.TotalsAt(s), at_end, connections);
  }
  published_ = last;
  if (prometheus_) RenderPrometheus(&series, connections);
}

void LiveMetrics::RenderPrometheus(const SeriesCollector* series, long connections) {
  static const SlotStats kNone;
  std::vector<CommandFigures> figures;
  for (size_t i = 0; i < commands_.size(); ++i) {
    figures.push_back(CommandFigures{.command = commands_[i],
                                     .stats = series ? &series->SlotTotals()[i] : &kNone});
  }
  prometheus_text_ = PrometheusText(config_->metrics.statsd_run_label, figures, connections);
}

void LiveMetrics::Serve() {
  if (prometheus_) prometheus_->Serve(prometheus_text_);
}

void LiveMetrics::Finished(const Report& report) {
  if (statsd_) statsd_->Finished(report);
}

}  // namespace dfbench::loadgen
