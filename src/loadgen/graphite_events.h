// Graphite event annotations, as memtier_benchmark posts them when StatsD is on: one HTTP POST
// of {"what", "tags", "data"} to /events/ on the StatsD host at --graphite-port, when the run
// starts and when it ends. A Graphite that cannot be reached is said once on stderr and not
// tried again; a post never waits longer than its deadline.
#pragma once

#include <chrono>
#include <string>

namespace dfbench::loadgen {

// The request memtier sends: `tags` gets ",run:<label>" appended.
std::string GraphiteEventRequest(const std::string& host, int port, const std::string& what,
                                 const std::string& data, const std::string& tags,
                                 const std::string& run_label);

class GraphiteEvents {
 public:
  GraphiteEvents(std::string host, int port, std::string run_label)
      : host_(std::move(host)), port_(port), run_label_(std::move(run_label)) {}

  // Connects, sends the request and closes without reading the answer (as memtier).
  void Post(const std::string& what, const std::string& data, const std::string& tags);

 private:
  // Whether the request was handed to the kernel within the deadline; why not in `why`.
  bool Send(const std::string& request, std::string* why) const;

  static constexpr std::chrono::seconds kDeadline{1};
  std::string host_;
  int port_;
  std::string run_label_;
  bool down_ = false;
};

}  // namespace dfbench::loadgen
