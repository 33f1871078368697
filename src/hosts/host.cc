#include "hosts/host.h"

#include "hosts/remote_facts.h"

namespace dfbench::hosts {

core::Result<bool> Host::PortListening(int port) {
  // Asked on the host itself: through an SSH forward a connection is always accepted here.
  // tcp6 may be absent (IPv6 disabled): what was printed still counts.
  auto r = Run(
      {.argv = {"cat", "/proc/net/tcp", "/proc/net/tcp6"}, .timeout = std::chrono::seconds(30)});
  if (!r) return tl::unexpected(r.error());
  return ListeningPorts(r->out).contains(port);
}

}  // namespace dfbench::hosts
