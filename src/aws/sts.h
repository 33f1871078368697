// STS: who the credentials belong to (dfbench calls it before provisioning so that expired or
// wrong credentials fail in a second, not halfway through a stack), and the role assumptions
// of the credential chain (aws/credentials.h).
#pragma once

#include <optional>
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

struct AssumeRoleRequest {
  std::string role_arn;
  std::string session_name;
  std::string external_id;              // sent when not empty
  std::optional<int> duration_seconds;  // sent when set
  std::string web_identity_token;       // AssumeRoleWithWebIdentity only
};

// sts:AssumeRole, signed by `client`'s credentials; temporary credentials with their expiration.
core::Result<Credentials> AssumeRole(const Client& client, const AssumeRoleRequest& request);

// sts:AssumeRoleWithWebIdentity; it needs no signature (Client::Unsigned).
core::Result<Credentials> AssumeRoleWithWebIdentity(const Client& client,
                                                    const AssumeRoleRequest& request);

// Reads the <Credentials> of an `action` ("AssumeRole") response.
core::Result<Credentials> ParseAssumedCredentials(std::string_view xml, const std::string& action);

}  // namespace dfbench::aws
