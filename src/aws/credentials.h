// AWS credentials and region, found the way the AWS CLI finds them:
//   1. AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN) in the environment;
//   2. the profile AWS_PROFILE (default "default") in the shared files (aws/shared_files.h):
//      static keys, else `credential_process` (run through sh, its JSON read), else, for SSO
//      profiles (`sso_session` / `sso_start_url`) and role profiles (`role_arn`), the AWS CLI's
//      `aws configure export-credentials --profile P --format process` when `aws` is installed.
//
//   auto creds = aws::LoadCredentials(aws::ProcessEnv());
//   if (!creds) return tl::unexpected(creds.error());   // one line, kind kEnvironment
#pragma once

#include <ctime>
#include <optional>
#include <string>

#include "aws/environment.h"
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
  // (credential_process)", "profile dev (aws configure export-credentials)".
  std::string source;
  // Seconds since the epoch when temporary credentials lapse; nullopt for long-term keys.
  std::optional<std::time_t> expiration;
};

// The profile in use: AWS_PROFILE, else "default".
std::string ProfileName(const EnvLookup& env);

// The credentials of the chain above. Errors (kEnvironment unless noted) are one line: no
// credentials anywhere, a named profile that does not exist, a half-set environment pair, a
// malformed shared file (kUsage), a failing or malformed credential_process, an SSO profile
// without the AWS CLI, and expired credentials (kExpiredCredentialsAdvice).
core::Result<Credentials> LoadCredentials(const EnvLookup& env);

// The region: `flag` when not empty, else AWS_REGION, else AWS_DEFAULT_REGION, else the
// profile's `region`; nullopt when none says.
std::optional<std::string> ResolveRegion(const std::string& flag, const EnvLookup& env);

// Reads the JSON a credential_process prints ({"Version": 1, "AccessKeyId", "SecretAccessKey",
// "SessionToken", "Expiration"}); `what` names the command in errors. An Expiration in the past
// is kExpiredCredentialsAdvice.
core::Result<Credentials> ParseProcessCredentials(const std::string& json, const std::string& what);

// An AWS timestamp ("2026-12-01T04:00:00Z", "...T04:00:00.123Z", "...T04:00:00+00:00") as
// seconds since the epoch; nullopt when malformed.
std::optional<std::time_t> ParseExpiration(const std::string& s);

}  // namespace dfbench::aws
