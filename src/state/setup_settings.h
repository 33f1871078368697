// The setup flags as given: state.json's "settings". Which keys are there depends on the
// provider (the ssh hosts, the aws instances) and on the flags given (an engine's binary or
// version); a key left out is an empty value here.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/role.h"
#include "results/json_fields.h"

namespace dfbench::state {

// "replicas" as given: a count (local, aws), or the replicas' addresses (ssh).
struct ReplicasSetting {
  int count = 0;
  std::optional<std::vector<std::string>> addresses;  // written instead of the count when set

  int Count() const { return addresses ? static_cast<int>(addresses->size()) : count; }
};

// The number, or the list of addresses.
nlohmann::json ToJson(const ReplicasSetting& r);
bool Read(const nlohmann::json& v, const std::string& path, ReplicasSetting* out,
          std::string* error);

// Written with its keys in alphabetical order, as when it was free-form (see kAlphabeticalKeys
// in results/key_order.h).
struct SetupSettings {
  static constexpr bool kAlphabeticalKeys = true;

  std::vector<std::string> engines;
  bool pin_cpus = false;
  ReplicasSetting replicas;
  // --<engine>_binary and --<engine>_version, for the engines they were given for.
  std::string dragonfly_binary, dragonfly_version;
  std::string memcached_binary, memcached_version;
  std::string redis_binary, redis_version;
  std::string valkey_binary, valkey_version;
  // ssh: the hosts as given; ssh and aws: the login (aws: the user only, when given).
  std::string server, server_private_ip;
  std::string client, client_private_ip;
  std::string ssh_user;
  int ssh_port = 0;
  std::string ssh_key;
  // aws: the region and each role's instance type and architecture.
  std::string region;
  std::string server_instance, server_arch;
  std::string client_instance, client_arch;
  int client_count = 0;  // aws: client instances when more than one
  std::string replica_instance, replica_arch;
};

// The field of --<engine>_binary (`suffix` "binary") or --<engine>_version ("version");
// nullptr for an engine the settings have no field for.
std::string* EngineFlag(SetupSettings* s, const std::string& engine, const std::string& suffix);
// <role>_instance / <role>_arch of an aws setup's server or (first) client ("" for another role
// or provider).
std::string InstanceType(const SetupSettings& s, core::Role role);
std::string InstanceArch(const SetupSettings& s, core::Role role);

void Fields(auto& v, results::FieldsOf<SetupSettings> auto& x) {
  DFBENCH_OPTIONAL_FIELDS(client, client_arch, client_count, client_instance, client_private_ip,
                          dragonfly_binary, dragonfly_version)
  DFBENCH_FIELDS(engines)
  DFBENCH_OPTIONAL_FIELDS(memcached_binary, memcached_version)
  DFBENCH_FIELDS(pin_cpus)
  DFBENCH_OPTIONAL_FIELDS(redis_binary, redis_version, region, replica_arch, replica_instance)
  DFBENCH_FIELDS(replicas)
  DFBENCH_OPTIONAL_FIELDS(server, server_arch, server_instance, server_private_ip, ssh_key,
                          ssh_port, ssh_user, valkey_binary, valkey_version)
}

}  // namespace dfbench::state
