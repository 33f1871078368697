// A small HTTP server for Prometheus scrapes, driven by the coordinator: Serve() accepts, reads
// and answers whatever is ready and returns at once (non-blocking sockets, no thread of its
// own). GET /metrics gets the body given; anything else 404.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"

namespace dfbench::loadgen {

class PrometheusEndpoint {
 public:
  // kEnvironment when the address cannot be listened on (taken, not ours).
  static core::Result<std::unique_ptr<PrometheusEndpoint>> Listen(const std::string& bind,
                                                                  int port);
  PrometheusEndpoint(const PrometheusEndpoint&) = delete;
  PrometheusEndpoint& operator=(const PrometheusEndpoint&) = delete;
  ~PrometheusEndpoint();

  // Accepts pending connections, reads their requests and sends what fits; a scraper that takes
  // longer than a few seconds is dropped.
  void Serve(const std::string& metrics_body);
  // The port listened on (the kernel's choice when asked for 0).
  int port() const;

 private:
  struct Scrape {
    int fd;
    int64_t deadline_ns;
    std::string request;
    std::string response;  // set once the request is whole
    size_t sent = 0;
  };
  explicit PrometheusEndpoint(int fd) : listen_fd_(fd) {}
  // Whether `s` is done (answered or dropped).
  static bool Progress(Scrape& s, const std::string& metrics_body, int64_t now_ns);

  int listen_fd_;
  std::vector<Scrape> scrapes_;
};

// The HTTP response to `request` (its head): the body for GET /metrics, else 404.
std::string PrometheusResponse(const std::string& request, const std::string& metrics_body);

}  // namespace dfbench::loadgen
