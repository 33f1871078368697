// A Unix domain socket's address, for the control client and the load generator alike.
#pragma once

#include <sys/un.h>

#include <string>

#include "core/error.h"

namespace dfbench::protocol {

// kUsage naming the path when it is empty or does not fit sockaddr_un.
core::Result<sockaddr_un> UnixSocketAddress(const std::string& path);

}  // namespace dfbench::protocol
