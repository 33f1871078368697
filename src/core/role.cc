#include "core/role.h"

#include <charconv>

namespace dfbench::core {
namespace {

constexpr std::string_view kServerName = "server";
constexpr std::string_view kClientName = "client";
constexpr std::string_view kReplicaName = "replica";
constexpr std::string_view kLocalName = "local";

// The number after "<prefix>-" in `name`, written without sign or leading zeros; nullopt when
// `name` has another form.
std::optional<int> NumberAfter(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() + 1 || !name.starts_with(prefix) || name[prefix.size()] != '-') {
    return std::nullopt;
  }
  const std::string_view digits = name.substr(prefix.size() + 1);
  if (digits.size() > 1 && digits.front() == '0') return std::nullopt;
  int n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.front() == '-') {
    return std::nullopt;
  }
  return n;
}

}  // namespace

std::string Role::Name() const {
  switch (kind_) {
    case Kind::kServer:
      return std::string(kServerName);
    case Kind::kClient:
      // The first client keeps the bare word the reference's files use.
      return index_ == 0 ? std::string(kClientName)
                         : std::string(kClientName) + "-" + std::to_string(index_ + 1);
    case Kind::kReplica:
      return std::string(kReplicaName) + "-" + std::to_string(index_);
    case Kind::kLocal:
      return std::string(kLocalName);
  }
  return {};
}

std::optional<Role> Role::Parse(std::string_view name) {
  if (name == kServerName) return Server();
  if (name == kClientName) return Client();
  if (name == kLocalName) return Local();
  if (auto n = NumberAfter(name, kClientName); n && *n >= 2) return Client(*n - 1);
  if (auto n = NumberAfter(name, kReplicaName)) return Replica(*n);
  return std::nullopt;
}

}  // namespace dfbench::core
