#include "engines/cluster_formation.h"

#include "protocol/blocking_client.h"
#include "protocol/cluster_slots.h"

namespace dfbench::engines {
namespace {

using core::ErrorKind;
using core::Fail;

constexpr auto kMemberTimeout = std::chrono::seconds(5);
constexpr auto kFormPollInterval = std::chrono::milliseconds(50);

std::string MemberName(const ClusterMember& m) {
  return m.host + ":" + std::to_string(m.port);
}

core::Status MemberCommand(protocol::BlockingClient& client, const ClusterMember& member,
                           const std::vector<std::string>& args) {
  auto reply = client.Command(args);
  if (!reply) return tl::unexpected(core::WithContext(reply.error(), MemberName(member)));
  if (reply->is_error()) {
    return Fail(ErrorKind::kEnvironment,
                MemberName(member) + " refused " + args[0] + " " + args[1] + ": " + reply->str);
  }
  return core::Ok();
}

// ADDSLOTSRANGE came with Redis 7.0; older servers get the slots one by one.
core::Status AssignSlots(protocol::BlockingClient& client, const ClusterMember& member,
                         SlotRange range) {
  auto reply = client.Command(
      {"CLUSTER", "ADDSLOTSRANGE", std::to_string(range.first), std::to_string(range.last)});
  if (!reply) return tl::unexpected(core::WithContext(reply.error(), MemberName(member)));
  if (!reply->is_error()) return core::Ok();
  std::vector<std::string> args = {"CLUSTER", "ADDSLOTS"};
  for (int slot = range.first; slot <= range.last; ++slot) args.push_back(std::to_string(slot));
  return MemberCommand(client, member, args);
}

// What a node still lacks, or "" once it sees the whole cluster.
std::string MissingFromView(protocol::BlockingClient& client, size_t nodes) {
  auto info = client.Command({"CLUSTER", "INFO"});
  if (!info) return info.error().message;
  const std::string state = protocol::InfoField(info->str, "cluster_state");
  const std::string known = protocol::InfoField(info->str, "cluster_known_nodes");
  const std::string assigned = protocol::InfoField(info->str, "cluster_slots_assigned");
  if (state == "ok" && known == std::to_string(nodes) &&
      assigned == std::to_string(protocol::kClusterSlots)) {
    return "";
  }
  return "cluster_state:" + state + ", " + known + " of " + std::to_string(nodes) +
         " nodes known, " + assigned + " slots assigned";
}

}  // namespace

SlotRange EvenSlotRange(int index, int count) {
  return SlotRange{.first = index * protocol::kClusterSlots / count,
                   .last = (index + 1) * protocol::kClusterSlots / count - 1};
}

core::Status FormCluster(const std::vector<ClusterMember>& members,
                         std::chrono::milliseconds timeout, core::Clock& clock) {
  if (members.empty()) return Fail(ErrorKind::kUsage, "a cluster needs at least one node");
  std::vector<protocol::BlockingClient> clients;
  for (const auto& member : members) {
    const protocol::ServerEndpoint plain{.address = member.host, .port = member.port};
    auto client = protocol::ConnectTo(member.control.address.empty() ? plain : member.control,
                                      kMemberTimeout);
    if (!client) return tl::unexpected(client.error());
    clients.push_back(std::move(*client));
  }
  const int count = static_cast<int>(members.size());
  for (int i = 0; i < count; ++i) {
    // Each node its own config epoch before it meets the others, as redis-cli --cluster create
    // does: left all at 0, the nodes settle the collision later by bumping epochs, and a slot
    // moved meanwhile can be taken back by its old owner's higher epoch (MOVED back and forth).
    if (auto st = MemberCommand(clients[i], members[i],
                                {"CLUSTER", "SET-CONFIG-EPOCH", std::to_string(i + 1)});
        !st) {
      return st;
    }
    if (auto st = AssignSlots(clients[i], members[i], EvenSlotRange(i, count)); !st) return st;
  }
  for (int i = 1; i < count; ++i) {
    std::vector<std::string> meet = {"CLUSTER", "MEET", members[0].host,
                                     std::to_string(members[0].port)};
    if (members[0].bus_port != 0) meet.push_back(std::to_string(members[0].bus_port));
    if (auto st = MemberCommand(clients[i], members[i], meet); !st) return st;
  }
  const auto deadline = clock.Now() + timeout;
  for (int i = 0; i < count; ++i) {
    while (true) {
      const std::string missing = MissingFromView(clients[i], members.size());
      if (missing.empty()) break;
      if (clock.Now() >= deadline) {
        return Fail(ErrorKind::kEnvironment, "the cluster did not form within " +
                                                 std::to_string((timeout.count() + 999) / 1000) +
                                                 " s: " + MemberName(members[i]) + " reports " +
                                                 missing);
      }
      clock.SleepFor(kFormPollInterval);
    }
  }
  return core::Ok();
}

}  // namespace dfbench::engines
