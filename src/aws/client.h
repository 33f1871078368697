// A client of AWS Query APIs (STS, CloudFormation, EC2): form-encoded POSTs of
// Action=...&Version=... to the service endpoint, signed by libcurl (CURLOPT_AWS_SIGV4), XML
// answers; and of JSON-protocol APIs (SSM) through CallJson. Throttling and 5xx answers are retried
// with bounded exponential backoff and jitter.
//
//   aws::Client client(*creds, "us-east-1");
//   auto body = client.Call("sts", "GetCallerIdentity", "2011-06-15", {});
//
// Typed calls on top of it live in aws/sts.h, aws/cloudformation.h and aws/ec2.h. A Client is
// immutable after construction apart from its CredentialProvider, which refreshes temporary
// credentials before they lapse; calls from several threads are safe (one curl handle per call).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aws/api_error.h"
#include "aws/credential_provider.h"
#include "aws/credentials.h"
#include "aws/environment.h"

namespace dfbench::aws {

// Query parameters besides Action and Version, in order ("Parameters.member.1.ParameterKey").
using QueryParams = std::vector<std::pair<std::string, std::string>>;

struct RetryPolicy {
  int max_attempts = 6;                              // the first try included
  std::chrono::milliseconds base_delay{250};         // before the 2nd attempt (then doubling)
  std::chrono::milliseconds max_delay{8000};         // upper bound of one wait
  std::chrono::milliseconds request_timeout{30000};  // one HTTP exchange
};

// The service's endpoint: AWS_ENDPOINT_URL_<SERVICE> (e.g. AWS_ENDPOINT_URL_CLOUDFORMATION),
// else AWS_ENDPOINT_URL, else https://<service>.<region>.<the partition's DnsSuffix>. No
// trailing slash.
std::string ServiceEndpoint(std::string_view service, const std::string& region,
                            const EnvLookup& env);

// application/x-www-form-urlencoded body (RFC 3986 unreserved characters kept as is).
std::string FormEncode(const QueryParams& params);

// The wait before attempt `attempt` (2, 3, ...): a random point in the upper half of
// min(max_delay, base_delay * 2^(attempt-2)); `unit_random` in [0, 1) picks the point.
std::chrono::milliseconds BackoffDelay(const RetryPolicy& policy, int attempt, double unit_random);

class Client {
 public:
  // `env` supplies the endpoint overrides (AWS_ENDPOINT_URL*). Temporary `credentials` (with an
  // expiration) are refreshed by running LoadCredentials(env) again when they are due.
  Client(Credentials credentials, std::string region, const EnvLookup& env = ProcessEnv(),
         RetryPolicy retry = {});
  // Signs with what `credentials` gives before each request.
  Client(std::shared_ptr<CredentialProvider> credentials, std::string region,
         EnvLookup env = ProcessEnv(), RetryPolicy retry = {});

  // A client that does not sign its requests, for the calls that need no credentials
  // (sts:AssumeRoleWithWebIdentity).
  static Client Unsigned(std::string region, EnvLookup env = ProcessEnv(), RetryPolicy retry = {});

  // POSTs Action, Version and `params` to `service` ("sts", "cloudformation", "ec2"); the
  // response body of an HTTP 2xx answer, else the parsed error (after the retries).
  tl::expected<std::string, ApiError> Call(std::string_view service, std::string_view action,
                                           std::string_view version,
                                           const QueryParams& params) const;

  // POSTs a JSON-protocol request (SSM): `json_body` with X-Amz-Target: `target`
  // ("AmazonSSM.GetParameter"); the response body, else the parsed error, retried alike.
  tl::expected<std::string, ApiError> CallJson(std::string_view service, std::string_view target,
                                               const std::string& json_body) const;

  const std::string& region() const { return region_; }
  // The credentials last signed with (refreshed when due); empty for an unsigned client or when
  // none could be resolved.
  Credentials credentials() const;

 private:
  // One HTTP exchange, no retry. `target`: the X-Amz-Target of a JSON-protocol call, "" for
  // the Query protocol's form body.
  // `credentials`: nullptr for an unsigned request.
  tl::expected<std::string, ApiError> Post(std::string_view service, const std::string& url,
                                           const std::string& body, std::string_view target,
                                           const Credentials* credentials) const;
  // Post, retried as the policy says.
  tl::expected<std::string, ApiError> PostWithRetries(std::string_view service,
                                                      const std::string& body,
                                                      std::string_view target) const;

  std::shared_ptr<CredentialProvider> credentials_;  // nullptr: unsigned
  std::string region_;
  EnvLookup env_;
  RetryPolicy retry_;
};

}  // namespace dfbench::aws
