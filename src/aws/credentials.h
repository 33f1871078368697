// AWS credentials and region, found the way the AWS SDKs find them; the first source that is
// configured answers:
//   1. environment: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN);
//   2. web identity: AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN (+ AWS_ROLE_SESSION_NAME), an
//      unsigned sts:AssumeRoleWithWebIdentity;
//   3. the profile AWS_PROFILE (default "default") in the shared files (aws/shared_files.h):
//      `role_arn` with `source_profile` (sts:AssumeRole signed by that profile's credentials,
//      resolved recursively; `external_id`, `duration_seconds`, `role_session_name`), with
//      `credential_source` (Environment, Ec2InstanceMetadata, EcsContainer) or with
//      `web_identity_token_file`; else static keys; else `credential_process` (run through sh,
//      its JSON read); else SSO (`sso_session` / `sso_start_url`) through AWS CLI v2's
//      `aws configure export-credentials`;
//   4. ECS container credentials: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (on 169.254.170.2) or
//      AWS_CONTAINER_CREDENTIALS_FULL_URI, with AWS_CONTAINER_AUTHORIZATION_TOKEN(_FILE);
//   5. EC2 instance metadata (IMDSv2) at AWS_EC2_METADATA_SERVICE_ENDPOINT (default
//      http://169.254.169.254), unless AWS_EC2_METADATA_DISABLED=true.
// STS calls go to the region ResolveRegion finds (us-east-1 when none), AWS_ENDPOINT_URL_STS
// or AWS_ENDPOINT_URL when set.
//
//   auto creds = aws::LoadCredentials(aws::ProcessEnv());
//   if (!creds) return tl::unexpected(creds.error());   // one line, kind kEnvironment
#pragma once

#include <ctime>
#include <optional>
#include <string>

#include "aws/environment.h"
#include "core/clock.h"
#include "core/error.h"

namespace dfbench::aws {

// The one line shown for an expired SSO session or session token (kEnvironment).
inline constexpr char kExpiredCredentialsAdvice[] =
    "AWS credentials expired (SSO session or token): run 'aws sso login' (or refresh your "
    "credentials) and retry";

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty for long-term keys
  // Where they came from, for messages: "environment", "profile dev", "profile dev
  // (credential_process)", "EC2 instance metadata", ...
  std::string source;
  // Seconds since the epoch when temporary credentials lapse; nullopt for long-term keys.
  std::optional<std::time_t> expiration;
};

// The profile in use: AWS_PROFILE, else "default".
std::string ProfileName(const EnvLookup& env);

// The credentials of the chain above. Errors (kEnvironment unless noted) are one line: no
// credentials anywhere (naming the sources tried), a named profile that does not exist, a
// half-set environment pair, a malformed shared file or profile (kUsage), a source_profile
// cycle (kUsage), a failing STS, container or instance-metadata call, a failing or malformed
// credential_process, an SSO profile without AWS CLI v2, and expired credentials
// (kExpiredCredentialsAdvice).
core::Result<Credentials> LoadCredentials(const EnvLookup& env);

// Reads the JSON a credential_process prints ({"Version": 1, "AccessKeyId", "SecretAccessKey",
// "SessionToken", "Expiration"}); `what` names the command in errors. An Expiration not after
// `clock`'s wall time is kExpiredCredentialsAdvice.
core::Result<Credentials> ParseProcessCredentials(const std::string& json, const std::string& what,
                                                  const core::Clock& clock = core::RealClock());

// An AWS timestamp ("2026-12-01T04:00:00Z", "...T04:00:00.123Z", "...T04:00:00+00:00") as
// seconds since the epoch; nullopt when malformed.
std::optional<std::time_t> ParseExpiration(const std::string& s);

}  // namespace dfbench::aws
