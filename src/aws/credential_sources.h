// The sources of the credential chain (aws/credentials.h), one function each. A source that is
// not configured answers nullopt and the chain moves on; one that is configured but fails is an
// error, which stops the chain.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "aws/credentials.h"
#include "aws/environment.h"
#include "aws/plain_http.h"
#include "aws/shared_files.h"
#include "core/clock.h"
#include "core/error.h"

namespace dfbench::aws {

using MaybeCredentials = core::Result<std::optional<Credentials>>;

// AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN); one without the other is an
// error.
MaybeCredentials EnvironmentCredentials(const EnvLookup& env);

// AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN (+ AWS_ROLE_SESSION_NAME).
MaybeCredentials WebIdentityEnvironmentCredentials(const EnvLookup& env);

// The credentials of `profile` in `files`; nullopt when it has no credential settings.
MaybeCredentials ProfileCredentials(const EnvLookup& env, const SharedFiles& files,
                                    const std::string& profile);

// AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI.
MaybeCredentials ContainerCredentials(const EnvLookup& env);
// The URL the container credentials are read from ("" when neither variable is set); kUsage for
// a full URI that is neither https nor a loopback or container-agent address.
core::Result<std::string> ContainerCredentialsUrl(const EnvLookup& env);

// EC2 instance metadata (IMDSv2); nullopt when disabled, unreachable or without a role.
MaybeCredentials InstanceMetadataCredentials(const EnvLookup& env);
// One request to instance metadata: short timeouts (1 s to connect, 2 s in all), so that a
// machine off EC2, where nothing answers, moves on quickly.
HttpRequest InstanceMetadataRequest(std::string method, std::string url, std::string header);
// AWS_EC2_METADATA_SERVICE_ENDPOINT, else http://169.254.169.254 (no trailing slash).
std::string InstanceMetadataEndpoint(const EnvLookup& env);
// AWS_EC2_METADATA_DISABLED=true.
bool InstanceMetadataDisabled(const EnvLookup& env);

// The session name of an assumed role when none is configured: "dfbench-<unix time>", of
// `clock`'s wall time.
std::string DefaultRoleSessionName(const core::Clock& clock = core::RealClock());

// An unsigned sts:AssumeRoleWithWebIdentity with the token read from `token_file`.
core::Result<Credentials> WebIdentityCredentials(const EnvLookup& env, const std::string& role_arn,
                                                 const std::string& token_file,
                                                 const std::string& session_name,
                                                 const std::string& source);

// {"AccessKeyId", "SecretAccessKey", "Token", "Expiration"} as the container endpoint and IMDS
// serve them; `what` names the source in errors, `source` goes into the credentials.
core::Result<Credentials> ParseMetadataCredentials(const std::string& json, const std::string& what,
                                                   const std::string& source);

}  // namespace dfbench::aws
