#include "state/setup_settings.h"

namespace dfbench::state {

nlohmann::json ToJson(const ReplicasSetting& r) {
  if (r.addresses) return nlohmann::json(*r.addresses);
  return r.count;
}

bool Read(const nlohmann::json& v, const std::string& path, ReplicasSetting* out,
          std::string* error) {
  ReplicasSetting r;
  if (v.is_array()) {
    std::vector<std::string> addresses;
    if (!results::JsonReader::Value(v, path, &addresses, error)) return false;
    r.addresses = std::move(addresses);
  } else if (!v.is_null() && !v.is_number()) {
    return results::JsonReader::Mismatch(path, "a number or an array", error);
  } else if (!results::JsonReader::Value(v, path, &r.count, error)) {
    return false;
  }
  *out = std::move(r);
  return true;
}

std::string* EngineFlag(SetupSettings* s, const std::string& engine, const std::string& suffix) {
  const bool binary = suffix == "binary";
  if (!binary && suffix != "version") return nullptr;
  if (engine == "dragonfly") return binary ? &s->dragonfly_binary : &s->dragonfly_version;
  if (engine == "memcached") return binary ? &s->memcached_binary : &s->memcached_version;
  if (engine == "redis") return binary ? &s->redis_binary : &s->redis_version;
  if (engine == "valkey") return binary ? &s->valkey_binary : &s->valkey_version;
  return nullptr;
}

std::string InstanceType(const SetupSettings& s, core::Role role) {
  if (role == core::Role::Server()) return s.server_instance;
  if (role == core::Role::Client()) return s.client_instance;
  return "";
}

std::string InstanceArch(const SetupSettings& s, core::Role role) {
  if (role == core::Role::Server()) return s.server_arch;
  if (role == core::Role::Client()) return s.client_arch;
  return "";
}

}  // namespace dfbench::state
