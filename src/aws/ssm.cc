#include "aws/ssm.h"

#include <nlohmann/json.hpp>

namespace dfbench::aws {

core::Result<std::string> GetParameter(const Client& client, const std::string& name) {
  auto body =
      client.CallJson("ssm", "AmazonSSM.GetParameter", nlohmann::json{{"Name", name}}.dump());
  if (!body) return tl::unexpected(ToCoreError(body.error(), "ssm:GetParameter " + name));
  return ParseGetParameter(*body);
}

core::Result<std::string> ParseGetParameter(std::string_view json) {
  const auto j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  const std::string value =
      j.is_object() ? j.value(nlohmann::json::json_pointer("/Parameter/Value"), std::string())
                    : std::string();
  if (value.empty()) {
    return core::Fail(core::ErrorKind::kFailure, "ssm:GetParameter: reply has no Parameter.Value");
  }
  return value;
}

}  // namespace dfbench::aws
