#include "scenarios/replication_signals.h"

#include <charconv>

#include "protocol/blocking_client.h"

namespace dfbench::scenarios {

bool FullSyncDone(const std::string& info_replication) {
  using protocol::InfoField;
  const std::string role = InfoField(info_replication, "role");
  return (role == "slave" || role == "replica") &&
         InfoField(info_replication, "master_link_status") == "up" &&
         InfoField(info_replication, "master_sync_in_progress") == "0" &&
         !InfoField(info_replication, "slave_repl_offset").empty();
}

std::optional<int> ConnectedReplicas(const std::string& info_replication) {
  const std::string text = protocol::InfoField(info_replication, "connected_slaves");
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

}  // namespace dfbench::scenarios
