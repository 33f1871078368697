#include "loadgen/ipv4_address.h"

#include <netdb.h>

#include <cstring>

namespace dfbench::loadgen {

core::Result<sockaddr_in> ResolveIpv4(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  addrinfo* found = nullptr;
  const int rc = getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc != 0 || found == nullptr) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot resolve '" + host + "': " + std::string(gai_strerror(rc)));
  }
  sockaddr_in address{};
  std::memcpy(&address, found->ai_addr, sizeof(address));
  freeaddrinfo(found);
  address.sin_port = htons(static_cast<uint16_t>(port));
  return address;
}

}  // namespace dfbench::loadgen
