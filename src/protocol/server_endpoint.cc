#include "protocol/server_endpoint.h"

namespace dfbench::protocol {

core::Result<BlockingClient> ConnectTo(const ServerEndpoint& endpoint,
                                       std::chrono::milliseconds timeout) {
  auto client =
      BlockingClient::Connect(endpoint.address, endpoint.port, timeout, endpoint.tls.get());
  if (!client || endpoint.password.empty()) return client;
  std::vector<std::string> auth = {"AUTH"};
  if (!endpoint.user.empty()) auth.push_back(endpoint.user);
  auth.push_back(endpoint.password);
  auto reply = client->Command(auth);
  if (!reply) return tl::unexpected(reply.error());
  if (reply->is_error()) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        endpoint.address + ":" + std::to_string(endpoint.port) + " refused the credentials" +
            (endpoint.user.empty() ? "" : " of user " + endpoint.user) + ": " + reply->str);
  }
  return client;
}

}  // namespace dfbench::protocol
