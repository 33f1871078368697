// A StatsD client over UDP, named and formatted as memtier_benchmark's: every metric is
// "<prefix>.<run label>.<name>:<value>|<type>", one per datagram, sent without waiting (a lost
// datagram is lost; nothing blocks the run).
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace dfbench::loadgen {

class StatsdClient {
 public:
  // Resolves `host` (IPv4, as memtier) and opens a non-blocking UDP socket. The prefix keeps
  // letters, digits, '_', '-' and '.', the run label the same but '.'; anything else becomes '_'.
  static core::Result<StatsdClient> Open(const std::string& host, int port,
                                         const std::string& prefix, const std::string& run_label);
  StatsdClient(StatsdClient&& other) noexcept;
  StatsdClient& operator=(StatsdClient&& other) noexcept;
  StatsdClient(const StatsdClient&) = delete;
  StatsdClient& operator=(const StatsdClient&) = delete;
  ~StatsdClient();

  void Gauge(std::string_view name, long value);    // "%ld|g"
  void Gauge(std::string_view name, double value);  // "%.6f|g"
  void Timing(std::string_view name, double ms);    // "%.3f|ms"

  // "memtier.default." (the prefix of every name).
  const std::string& prefix() const { return prefix_; }
  const std::string& run_label() const { return run_label_; }

 private:
  StatsdClient(int fd, std::string prefix, std::string run_label)
      : fd_(fd), prefix_(std::move(prefix)), run_label_(std::move(run_label)) {}
  void Send(std::string_view name, const char* value, const char* type);

  int fd_ = -1;
  std::string prefix_;
  std::string run_label_;
};

// memtier's sanitising: characters other than letters, digits, '_', '-' (and '.' when
// `keep_dots`) become '_'.
std::string SanitizeMetricPart(std::string_view text, bool keep_dots);

// memtier's percentile metric name: 50 -> "latency_p50", 99.9 -> "latency_p99_9".
std::string PercentileMetricName(double percentile);

}  // namespace dfbench::loadgen
