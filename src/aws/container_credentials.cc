#include <arpa/inet.h>

#include <cctype>

#include "aws/credential_sources.h"
#include "aws/plain_http.h"
#include "core/files.h"

namespace dfbench::aws {
namespace {

constexpr char kContainerAgent[] = "http://169.254.170.2";

// The host of an http:// URL, lower-case ("127.0.0.1", "[::1]", "localhost").
std::string UrlHost(const std::string& url) {
  const size_t begin = url.find("://") + 3;
  size_t end = url.find_first_of("/?#", begin);
  if (end == std::string::npos) end = url.size();
  std::string host = url.substr(begin, end - begin);
  if (size_t at = host.rfind('@'); at != std::string::npos) host = host.substr(at + 1);
  if (host.starts_with('[')) {
    host = host.substr(0, host.find(']') + 1);
  } else if (size_t colon = host.find(':'); colon != std::string::npos) {
    host = host.substr(0, colon);
  }
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return host;
}

// Plain http only to this machine or the ECS / EKS Pod Identity agents, as the SDKs allow.
bool AllowedPlainHost(const std::string& host) {
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
    const uint32_t a = ntohl(v4.s_addr);
    return (a >> 24) == 127 || a == 0xA9FEAA02 || a == 0xA9FEAA17;  // 169.254.170.2, .23
  }
  return host == "localhost" || host == "[::1]" || host == "[fd00:ec2::23]";
}

// The Authorization header's value: the token file's content, else the token variable.
core::Result<std::optional<std::string>> ContainerAuthorization(const EnvLookup& env) {
  std::optional<std::string> token;
  if (auto file = env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE")) {
    auto text = core::ReadFile(*file);
    if (!text) {
      return core::Fail(core::ErrorKind::kEnvironment,
                        "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: " + text.error().message);
    }
    token = std::move(*text);
  } else {
    token = env("AWS_CONTAINER_AUTHORIZATION_TOKEN");
  }
  if (!token) return std::optional<std::string>();
  while (!token->empty() && std::isspace(static_cast<unsigned char>(token->back()))) {
    token->pop_back();
  }
  if (token->find_first_of("\r\n") != std::string::npos) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "the AWS container authorization token has a line break");
  }
  return token;
}

}  // namespace

core::Result<std::string> ContainerCredentialsUrl(const EnvLookup& env) {
  if (auto relative = env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) {
    return kContainerAgent + (relative->starts_with('/') ? "" : std::string("/")) + *relative;
  }
  auto full = env("AWS_CONTAINER_CREDENTIALS_FULL_URI");
  if (!full) return std::string();
  if (full->starts_with("https://")) return *full;
  if (full->starts_with("http://") && AllowedPlainHost(UrlHost(*full))) return *full;
  return core::Fail(core::ErrorKind::kUsage,
                    "AWS_CONTAINER_CREDENTIALS_FULL_URI must be https, or http to a loopback or "
                    "container-agent address: " +
                        *full);
}

MaybeCredentials ContainerCredentials(const EnvLookup& env) {
  auto url = ContainerCredentialsUrl(env);
  if (!url) return tl::unexpected(url.error());
  if (url->empty()) return std::optional<Credentials>();
  auto token = ContainerAuthorization(env);
  if (!token) return tl::unexpected(token.error());
  HttpRequest request{
      .url = *url, .connect_timeout = std::chrono::seconds(2), .timeout = std::chrono::seconds(5)};
  if (*token) request.headers.push_back("Authorization: " + **token);
  const std::string what = "ECS container credentials from " + *url;
  auto reply = HttpExchange(request);
  if (!reply) return core::Fail(core::ErrorKind::kEnvironment, what + ": " + reply.error());
  if (reply->status != 200) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      what + ": HTTP " + std::to_string(reply->status));
  }
  auto c = ParseMetadataCredentials(reply->body, what, "ECS container");
  if (!c) return tl::unexpected(c.error());
  return std::optional<Credentials>(std::move(*c));
}

}  // namespace dfbench::aws
