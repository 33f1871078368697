#include <cctype>

#include "aws/credential_sources.h"
#include "aws/plain_http.h"

namespace dfbench::aws {
namespace {

constexpr char kImdsRolePath[] = "/latest/meta-data/iam/security-credentials/";

}  // namespace

HttpRequest InstanceMetadataRequest(std::string method, std::string url, std::string header) {
  return {.method = std::move(method),
          .url = std::move(url),
          .headers = {std::move(header)},
          .connect_timeout = std::chrono::seconds(1),
          .timeout = std::chrono::seconds(2)};
}

std::string InstanceMetadataEndpoint(const EnvLookup& env) {
  std::string url = env("AWS_EC2_METADATA_SERVICE_ENDPOINT").value_or("http://169.254.169.254");
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

bool InstanceMetadataDisabled(const EnvLookup& env) {
  std::string v = env("AWS_EC2_METADATA_DISABLED").value_or("");
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v == "true";
}

MaybeCredentials InstanceMetadataCredentials(const EnvLookup& env) {
  if (InstanceMetadataDisabled(env)) return std::optional<Credentials>();
  const std::string base = InstanceMetadataEndpoint(env);
  // No answer or no token: not on EC2, or IMDS is off there; the chain moves on.
  auto token = HttpExchange(InstanceMetadataRequest("PUT", base + "/latest/api/token",
                                                    "X-aws-ec2-metadata-token-ttl-seconds: 21600"));
  if (!token || token->status != 200 || token->body.empty() ||
      token->body.find_first_of("\r\n") != std::string::npos) {
    return std::optional<Credentials>();
  }
  const std::string token_header = "X-aws-ec2-metadata-token: " + token->body;
  // The instance profile's role; none attached is not an error either.
  auto roles = HttpExchange(InstanceMetadataRequest("GET", base + kImdsRolePath, token_header));
  if (!roles || roles->status != 200) return std::optional<Credentials>();
  std::string role = roles->body.substr(0, roles->body.find('\n'));
  while (!role.empty() && std::isspace(static_cast<unsigned char>(role.back()))) role.pop_back();
  if (role.empty()) return std::optional<Credentials>();

  const std::string what = "EC2 instance metadata credentials of role " + role;
  auto creds =
      HttpExchange(InstanceMetadataRequest("GET", base + kImdsRolePath + role, token_header));
  if (!creds) return core::Fail(core::ErrorKind::kEnvironment, what + ": " + creds.error());
  if (creds->status != 200) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      what + ": HTTP " + std::to_string(creds->status));
  }
  auto c = ParseMetadataCredentials(creds->body, what, "EC2 instance metadata (role " + role + ")");
  if (!c) return tl::unexpected(c.error());
  return std::optional<Credentials>(std::move(*c));
}

}  // namespace dfbench::aws
