// STS: who the credentials belong to. dfbench calls it before provisioning so that expired or
// wrong credentials fail in a second, not halfway through a stack.
#pragma once

#include <string>
#include <string_view>

#include "aws/client.h"
#include "core/error.h"

namespace dfbench::aws {

struct CallerIdentity {
  std::string account;  // "123456789012"
  std::string arn;      // "arn:aws:iam::123456789012:user/ops"
  std::string user_id;
};

// sts:GetCallerIdentity. Errors as ToCoreError (expired credentials: the advice line).
core::Result<CallerIdentity> GetCallerIdentity(const Client& client);

// Reads a GetCallerIdentityResponse.
core::Result<CallerIdentity> ParseCallerIdentity(std::string_view xml);

}  // namespace dfbench::aws
