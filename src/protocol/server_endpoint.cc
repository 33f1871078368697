#include "protocol/server_endpoint.h"

namespace dfbench::protocol {
namespace {

std::string Where(const ServerEndpoint& endpoint) {
  return endpoint.address + ":" + std::to_string(endpoint.port);
}

core::Status Authenticate(BlockingClient& client, const ServerEndpoint& endpoint) {
  std::vector<std::string> auth = {"AUTH"};
  if (!endpoint.user.empty()) auth.push_back(endpoint.user);
  auth.push_back(endpoint.password);
  auto reply = client.Command(auth);
  if (!reply) return tl::unexpected(reply.error());
  if (reply->is_error()) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      Where(endpoint) + " refused the credentials" +
                          (endpoint.user.empty() ? "" : " of user " + endpoint.user) + ": " +
                          reply->str);
  }
  return core::Ok();
}

core::Status Select(BlockingClient& client, const ServerEndpoint& endpoint) {
  auto reply = client.Command({"SELECT", std::to_string(endpoint.db)});
  if (!reply) return tl::unexpected(reply.error());
  if (reply->is_error()) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        Where(endpoint) + " refused database " + std::to_string(endpoint.db) + ": " + reply->str);
  }
  return core::Ok();
}

}  // namespace

core::Result<BlockingClient> ConnectTo(const ServerEndpoint& endpoint,
                                       std::chrono::milliseconds timeout) {
  auto client =
      BlockingClient::Connect(endpoint.address, endpoint.port, timeout, endpoint.tls.get());
  if (!client) return client;
  if (!endpoint.password.empty()) {
    if (auto st = Authenticate(*client, endpoint); !st) return tl::unexpected(st.error());
  }
  if (endpoint.db != 0) {
    if (auto st = Select(*client, endpoint); !st) return tl::unexpected(st.error());
  }
  return client;
}

}  // namespace dfbench::protocol
