#include <nlohmann/json.hpp>

#include "aws/credential_sources.h"

namespace dfbench::aws {

core::Result<Credentials> ParseMetadataCredentials(const std::string& json, const std::string& what,
                                                   const std::string& source) {
  auto doc = nlohmann::json::parse(json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return core::Fail(core::ErrorKind::kEnvironment, what + ": reply is not a JSON object");
  }
  auto text = [&doc](const char* key) {
    auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (const std::string code = text("Code"); !code.empty() && code != "Success") {
    return core::Fail(core::ErrorKind::kEnvironment, what + ": " + code);
  }
  Credentials c{.access_key_id = text("AccessKeyId"),
                .secret_access_key = text("SecretAccessKey"),
                .session_token = text("Token"),
                .source = source};
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      what + ": reply has no AccessKeyId and SecretAccessKey");
  }
  if (const std::string exp = text("Expiration"); !exp.empty()) {
    c.expiration = ParseExpiration(exp);
    if (!c.expiration) {
      return core::Fail(core::ErrorKind::kEnvironment, what + ": reply has a malformed Expiration");
    }
  }
  return c;
}

}  // namespace dfbench::aws
