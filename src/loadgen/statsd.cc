#include "loadgen/statsd.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "loadgen/ipv4_address.h"

namespace dfbench::loadgen {

std::string SanitizeMetricPart(std::string_view text, bool keep_dots) {
  std::string out(text);
  for (char& ch : out) {
    const bool kept = std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_' || ch == '-' ||
                      (keep_dots && ch == '.');
    if (!kept) ch = '_';
  }
  return out;
}

std::string PercentileMetricName(double percentile) {
  // memtier prints the percentile with %g (shortest exact form) and turns its '.' into '_'.
  char text[32];
  std::snprintf(text, sizeof(text), "%g", percentile);
  std::string name = std::string("latency_p") + text;
  for (char& ch : name) {
    if (ch == '.') ch = '_';
  }
  return name;
}

core::Result<StatsdClient> StatsdClient::Open(const std::string& host, int port,
                                              const std::string& prefix,
                                              const std::string& run_label) {
  auto address = ResolveIpv4(host, port);
  if (!address) return tl::unexpected(address.error());
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      std::string("cannot open a UDP socket: ") + std::strerror(errno));
  }
  // Connected, so each metric is one send(); a refused datagram only fails a later send.
  if (connect(fd, reinterpret_cast<const sockaddr*>(&*address), sizeof(*address)) != 0) {
    const int error = errno;
    close(fd);
    return core::Fail(
        core::ErrorKind::kEnvironment,
        "cannot address " + host + ":" + std::to_string(port) + ": " + std::strerror(error));
  }
  const std::string label = run_label.empty() ? "default" : SanitizeMetricPart(run_label, false);
  std::string full_prefix =
      prefix.empty() ? label + "." : SanitizeMetricPart(prefix, true) + "." + label + ".";
  return StatsdClient(fd, std::move(full_prefix), label);
}

StatsdClient::StatsdClient(StatsdClient&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      prefix_(std::move(other.prefix_)),
      run_label_(std::move(other.run_label_)) {}

StatsdClient& StatsdClient::operator=(StatsdClient&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    prefix_ = std::move(other.prefix_);
    run_label_ = std::move(other.run_label_);
  }
  return *this;
}

StatsdClient::~StatsdClient() {
  if (fd_ >= 0) close(fd_);
}

void StatsdClient::Gauge(std::string_view name, long value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%ld", value);
  Send(name, text, "g");
}

void StatsdClient::Gauge(std::string_view name, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.6f", value);
  Send(name, text, "g");
}

void StatsdClient::Timing(std::string_view name, double ms) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.3f", ms);
  Send(name, text, "ms");
}

void StatsdClient::Send(std::string_view name, const char* value, const char* type) {
  std::string line = prefix_;
  line.append(name).append(":").append(value).append("|").append(type);
  // Fire and forget, as memtier: a full buffer or an absent listener loses the datagram.
  (void)send(fd_, line.data(), line.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
}

}  // namespace dfbench::loadgen
