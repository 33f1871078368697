// What a host is for in a setup: the engine's server, a load generator's client, a replica, or one
// machine that is both server and client. The one place the roles' words live: state.json, result
// files, SSH control paths, instance tags and messages spell a role as Name() gives it, and files
// are read back through Parse().
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dfbench::core {

class Role {
 public:
  enum class Kind { kServer, kClient, kReplica, kLocal };

  // The engine's host (also what a default Role is: a record that names no role is the server's).
  static constexpr Role Server() { return Role(Kind::kServer, 0); }
  // Load generator host `index`, 0-based: "client", then "client-2", "client-3", ...
  static constexpr Role Client(int index = 0) { return Role(Kind::kClient, index); }
  // Replica engine `index`, 0-based: "replica-0", "replica-1", ...
  static constexpr Role Replica(int index) { return Role(Kind::kReplica, index); }
  // One machine as server and client both: "local".
  static constexpr Role Local() { return Role(Kind::kLocal, 0); }

  constexpr Role() = default;

  constexpr Kind kind() const { return kind_; }
  constexpr int index() const { return index_; }  // of a client or replica; 0 otherwise
  constexpr bool IsClient() const { return kind_ == Kind::kClient; }
  constexpr bool IsReplica() const { return kind_ == Kind::kReplica; }

  // "server", "client", "client-2", "replica-0", "local".
  std::string Name() const;
  // The role Name() spells `name` as; nullopt for any other word ("client-1", "replica-01").
  static std::optional<Role> Parse(std::string_view name);
  // The forms Parse() reads, for messages.
  static constexpr std::string_view kForms = "server, client, client-N, replica-N or local";

  friend constexpr bool operator==(const Role&, const Role&) = default;

 private:
  constexpr Role(Kind kind, int index) : kind_(kind), index_(index) {}

  Kind kind_ = Kind::kServer;
  int index_ = 0;
};

}  // namespace dfbench::core
