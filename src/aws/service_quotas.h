// Service Quotas reads (JSON protocol; endpoint servicequotas.<region>.amazonaws.com, signed
// as "servicequotas"): the account's EC2 On-Demand vCPU limits, read before launching so that a
// fleet the account cannot run is refused before anything bills.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "aws/client.h"
#include "core/error.h"

namespace dfbench::aws {

// The quota an On-Demand instance's vCPUs count against.
struct VcpuQuota {
  std::string code;  // "L-1216C47A"
  std::string name;  // "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances"
};

// The On-Demand vCPU quota of `instance_type`'s family, by its leading letters (c7g → Standard,
// g5 and vt1 → G and VT, p5 → P, x2idn → X, f2 → F, inf2 → Inf, trn1 → Trn, dl1 → DL,
// hpc7g → HPC, u-6tb1 and u7i → High Memory). nullopt for a family none of these covers.
std::optional<VcpuQuota> OnDemandVcpuQuota(std::string_view instance_type);

// servicequotas:GetServiceQuota: the applied value of `quota_code` of `service_code` in the
// client's region.
core::Result<double> GetServiceQuota(const Client& client, const std::string& service_code,
                                     const std::string& quota_code);

// Reads a GetServiceQuota reply ({"Quota": {"Value": 32.0, ...}}) (pure; for tests).
core::Result<double> ParseGetServiceQuota(std::string_view json);

}  // namespace dfbench::aws
