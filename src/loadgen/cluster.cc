#include "loadgen/cluster.h"

#include <charconv>

namespace dfbench::loadgen {
namespace {

// CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, no reflection.
constexpr std::array<uint16_t, 256> MakeCrc16Table() {
  std::array<uint16_t, 256> table{};
  for (int i = 0; i < 256; ++i) {
    uint16_t crc = static_cast<uint16_t>(i << 8);
    for (int bit = 0; bit < 8; ++bit) {
      crc = static_cast<uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
    }
    table[static_cast<size_t>(i)] = crc;
  }
  return table;
}
constexpr std::array<uint16_t, 256> kCrc16Table = MakeCrc16Table();

uint16_t Crc16(std::string_view bytes) {
  uint16_t crc = 0;
  for (const char ch : bytes) {
    const auto index = static_cast<uint8_t>((crc >> 8) ^ static_cast<uint8_t>(ch));
    crc = static_cast<uint16_t>((crc << 8) ^ kCrc16Table[index]);
  }
  return crc;
}

tl::unexpected<core::Error> NotSlots(const std::string& why) {
  return core::Fail(core::ErrorKind::kEnvironment, "unexpected CLUSTER SLOTS reply: " + why);
}

std::optional<int> ParsePort(std::string_view text) {
  int port = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (ec != std::errc() || end != text.data() + text.size() || port <= 0 || port > 65535) {
    return std::nullopt;
  }
  return port;
}

}  // namespace

uint16_t HashSlot(std::string_view key) {
  const size_t open = key.find('{');
  if (open != std::string_view::npos) {
    const size_t close = key.find('}', open + 1);
    if (close != std::string_view::npos && close > open + 1) {
      key = key.substr(open + 1, close - open - 1);
    }
  }
  return static_cast<uint16_t>(Crc16(key) & (kClusterSlots - 1));
}

uint16_t SlotMap::IndexOf(const ClusterNode& node) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i] == node) return static_cast<uint16_t>(i);
  }
  nodes.push_back(node);
  return static_cast<uint16_t>(nodes.size() - 1);
}

core::Result<SlotMap> ParseClusterSlots(const protocol::Reply& reply,
                                        const std::string& seed_host) {
  using protocol::ReplyType;
  if (reply.is_error()) return NotSlots(reply.str);
  if (reply.type != ReplyType::kArray) return NotSlots("not an array");
  SlotMap map;
  std::vector<bool> owned(kClusterSlots, false);
  for (const auto& range : reply.elements) {
    if (range.type != ReplyType::kArray || range.elements.size() < 3 ||
        range.elements[0].type != ReplyType::kInteger ||
        range.elements[1].type != ReplyType::kInteger ||
        range.elements[2].type != ReplyType::kArray || range.elements[2].elements.size() < 2) {
      return NotSlots("a range is not [first, last, [host, port, ...], ...]");
    }
    const int64_t first = range.elements[0].integer;
    const int64_t last = range.elements[1].integer;
    if (first < 0 || last >= kClusterSlots || first > last) return NotSlots("slot out of range");
    const auto& primary = range.elements[2].elements;
    ClusterNode node{.host = primary[0].str, .port = static_cast<int>(primary[1].integer)};
    if (node.host.empty() || node.host == "?") node.host = seed_host;
    if (primary[1].type != ReplyType::kInteger || node.port <= 0) return NotSlots("bad port");
    const uint16_t index = map.IndexOf(node);
    for (int64_t slot = first; slot <= last; ++slot) {
      map.owner[static_cast<size_t>(slot)] = index;
      owned[static_cast<size_t>(slot)] = true;
    }
  }
  for (int slot = 0; slot < kClusterSlots; ++slot) {
    if (!owned[static_cast<size_t>(slot)]) {
      return core::Fail(core::ErrorKind::kEnvironment,
                        "the cluster does not cover every slot (slot " + std::to_string(slot) +
                            " has no owner): is it formed?");
    }
  }
  return map;
}

std::optional<Redirect> ParseRedirect(std::string_view error_text) {
  Redirect r;
  if (error_text.starts_with("MOVED ")) {
    r.kind = Redirect::Kind::kMoved;
    error_text.remove_prefix(6);
  } else if (error_text.starts_with("ASK ")) {
    r.kind = Redirect::Kind::kAsk;
    error_text.remove_prefix(4);
  } else {
    return std::nullopt;
  }
  const size_t space = error_text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  int slot = -1;
  const auto [slot_end, ec] = std::from_chars(error_text.data(), error_text.data() + space, slot);
  if (ec != std::errc() || slot_end != error_text.data() + space || slot < 0 ||
      slot >= kClusterSlots) {
    return std::nullopt;
  }
  r.slot = static_cast<uint16_t>(slot);
  const std::string_view address = error_text.substr(space + 1);
  const size_t colon = address.rfind(':');  // an IPv6 address has colons of its own
  if (colon == std::string_view::npos) return std::nullopt;
  const auto port = ParsePort(address.substr(colon + 1));
  if (!port) return std::nullopt;
  r.node = ClusterNode{.host = std::string(address.substr(0, colon)), .port = *port};
  return r;
}

}  // namespace dfbench::loadgen
