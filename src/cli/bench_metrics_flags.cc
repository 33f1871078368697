#include "cli/bench_metrics_flags.h"

#include <charconv>

#include "cli/flag_ranges.h"
#include "core/format.h"

namespace dfbench::cli {
namespace {

constexpr int kMaxPort = 65535;

[[noreturn]] void BadStatsd(const std::string& given, const std::string& why) {
  ExitWith(core::ErrorKind::kUsage, "--statsd \"" + given + "\": " + why);
}

}  // namespace

void AddBenchMetricsFlags(CLI::App* sub, BenchMetricsFlags* flags) {
  const std::string group = "Live metrics";
  sub->add_option("--statsd", flags->statsd,
                  "Every load generator sends memtier's StatsD metrics to HOST[:PORT] (UDP, "
                  "port 8125 by default) while each pass runs, labelled <engine>-<pass>, e.g. "
                  "redis-t2 (default: none)")
      ->type_name("HOST:PORT")
      ->group(group);
  WithRange(sub->add_option("--prometheus-port", flags->prometheus_port,
                            "The built-in load generator serves http://127.0.0.1:PORT/metrics on "
                            "the client while each pass runs, labelled as --statsd's; generator "
                            "N of --loadgen-processes on PORT+N-1 (default: none)"),
            NumberKind::kInteger)
      ->group(group);
}

core::LiveMetrics ToLiveMetrics(const BenchMetricsFlags& flags, int processes) {
  core::LiveMetrics m;
  if (!flags.statsd.empty()) {
    const size_t colon = flags.statsd.rfind(':');
    m.statsd_host = flags.statsd.substr(0, colon);
    if (m.statsd_host.empty()) BadStatsd(flags.statsd, "expected HOST or HOST:PORT");
    if (colon != std::string::npos) {
      const std::string_view text = std::string_view(flags.statsd).substr(colon + 1);
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), m.statsd_port);
      if (ec != std::errc() || end != text.data() + text.size() || m.statsd_port < 1 ||
          m.statsd_port > kMaxPort) {
        BadStatsd(flags.statsd, "the port must be 1-65535");
      }
    }
  }
  m.prometheus_port = flags.prometheus_port;
  if (m.prometheus_port > 0 && m.prometheus_port + processes - 1 > kMaxPort) {
    ExitWith(core::ErrorKind::kUsage,
             core::Format("--prometheus-port {}: {} load generator processes need ports up to {}",
                          m.prometheus_port, processes, m.prometheus_port + processes - 1));
  }
  return m;
}

void CheckLiveMetricsFor(const drivers::Driver& driver, const core::LiveMetrics& metrics) {
  OrExitFor(metrics.prometheus_port > 0 ? "--prometheus-port:" : "--statsd:",
            drivers::CheckLiveMetrics(driver.Kind(), metrics));
}

}  // namespace dfbench::cli
