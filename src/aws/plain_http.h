// One plain HTTP exchange, outside the signed API calls of aws/client.h: the credential sources'
// endpoints (container agent, instance metadata) and the caller's public address. The error is
// the transport's words; the HTTP status is the caller's to judge.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/error.h"

namespace dfbench::aws {

struct HttpReply {
  long status = 0;
  std::string body;
};

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::chrono::milliseconds connect_timeout{1000};
  std::chrono::milliseconds timeout{2000};
  // Link-local and loopback endpoints are never reached through a proxy; a public one may be.
  bool through_proxy = false;
  bool ipv4_only = false;  // resolve the host to IPv4 addresses alone
};

tl::expected<HttpReply, std::string> HttpExchange(const HttpRequest& request);

// curl_global_init, once per process, before the first easy handle of any caller.
void InitCurlOnce();

}  // namespace dfbench::aws
