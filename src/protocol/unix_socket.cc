#include "protocol/unix_socket.h"

#include <sys/socket.h>

#include <cstring>

namespace dfbench::protocol {

core::Result<sockaddr_un> UnixSocketAddress(const std::string& path) {
  sockaddr_un addr{};
  if (path.empty() || path.size() >= sizeof(addr.sun_path)) {
    return core::Fail(core::ErrorKind::kUsage, "unix socket '" + path + "': use 1 to " +
                                                   std::to_string(sizeof(addr.sun_path) - 1) +
                                                   " characters");
  }
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.data(), path.size());
  return addr;
}

}  // namespace dfbench::protocol
