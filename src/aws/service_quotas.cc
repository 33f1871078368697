#include "aws/service_quotas.h"

#include <array>
#include <cctype>
#include <nlohmann/json.hpp>

namespace dfbench::aws {

std::optional<VcpuQuota> OnDemandVcpuQuota(std::string_view instance_type) {
  // The family's letters before its generation digit ("hpc" of hpc7g, "u-" of u-6tb1).
  size_t end = 0;
  while (end < instance_type.size() &&
         std::isalpha(static_cast<unsigned char>(instance_type[end])) != 0) {
    ++end;
  }
  const std::string_view letters = instance_type.substr(0, end);
  if (letters.empty()) return std::nullopt;
  // Longer prefixes first: inf1 is Inf, not Standard's i; dl1 is DL, not Standard's d.
  struct Prefix {
    std::string_view letters;
    const char* code;
    const char* name;
  };
  static constexpr std::array<Prefix, 6> kNamed = {{
      {"hpc", "L-F7808C92", "Running On-Demand HPC instances"},
      {"inf", "L-1945791B", "Running On-Demand Inf instances"},
      {"trn", "L-2C3B7624", "Running On-Demand Trn instances"},
      {"dl", "L-6E869C2A", "Running On-Demand DL instances"},
      {"vt", "L-DB2E81BA", "Running On-Demand G and VT instances"},
      {"u", "L-43DA4232", "Running On-Demand High Memory instances"},
  }};
  for (const auto& p : kNamed) {
    if (letters == p.letters) return VcpuQuota{p.code, p.name};
  }
  switch (letters.front()) {
    case 'a':
    case 'c':
    case 'd':
    case 'h':
    case 'i':
    case 'm':
    case 'r':
    case 't':
    case 'z':
      // mac families run on Dedicated Hosts, which have quotas of their own.
      if (letters.starts_with("mac")) return std::nullopt;
      return VcpuQuota{"L-1216C47A",
                       "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances"};
    case 'g':
      return VcpuQuota{"L-DB2E81BA", "Running On-Demand G and VT instances"};
    case 'p':
      return VcpuQuota{"L-417A185B", "Running On-Demand P instances"};
    case 'x':
      return VcpuQuota{"L-7295265B", "Running On-Demand X instances"};
    case 'f':
      return VcpuQuota{"L-74FC7D96", "Running On-Demand F instances"};
    default:
      return std::nullopt;
  }
}

core::Result<double> GetServiceQuota(const Client& client, const std::string& service_code,
                                     const std::string& quota_code) {
  auto body = client.CallJson(
      "servicequotas", "ServiceQuotasV20190624.GetServiceQuota",
      nlohmann::json{{"ServiceCode", service_code}, {"QuotaCode", quota_code}}.dump());
  if (!body) {
    return tl::unexpected(ToCoreError(
        body.error(), "servicequotas:GetServiceQuota " + service_code + "/" + quota_code));
  }
  return ParseGetServiceQuota(*body);
}

core::Result<double> ParseGetServiceQuota(std::string_view json) {
  const auto j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  const nlohmann::json::json_pointer value("/Quota/Value");
  if (!j.is_object() || !j.contains(value) || !j.at(value).is_number()) {
    return core::Fail(core::ErrorKind::kFailure,
                      "servicequotas:GetServiceQuota: reply has no numeric Quota.Value");
  }
  return j.at(value).get<double>();
}

}  // namespace dfbench::aws
