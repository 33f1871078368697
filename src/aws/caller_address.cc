#include "aws/caller_address.h"

#include <arpa/inet.h>
#include <curl/curl.h>

#include <memory>

#include "core/text.h"

namespace dfbench::aws {
namespace {

size_t AppendCapped(char* data, size_t size, size_t n, void* out) {
  auto* s = static_cast<std::string*>(out);
  if (s->size() < 256) s->append(data, size * n);  // an address is a line; more is not one
  return size * n;
}

bool IsIpv4(const std::string& s) {
  in_addr addr{};
  return ::inet_pton(AF_INET, s.c_str(), &addr) == 1;
}

}  // namespace

bool IsIpv4Cidr(std::string_view cidr) {
  const size_t slash = cidr.find('/');
  if (slash == std::string_view::npos || !IsIpv4(std::string(cidr.substr(0, slash)))) return false;
  const std::string_view bits = cidr.substr(slash + 1);
  if (bits.empty() || bits.size() > 2) return false;
  int n = 0;
  for (char c : bits) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + (c - '0');
  }
  return n <= 32;
}

core::Result<std::string> PublicAddress(const EnvLookup& env) {
  const std::string url = env("DFBENCH_CHECKIP_URL").value_or(kCheckIpUrl);
  auto fail = [&](const std::string& why) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot learn this machine's public address from " + url + " (" + why +
                          "), which SSH to the fleet is limited to: pass --ssh-cidr ADDRESS/32");
  };
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return fail("curl_easy_init failed");
  std::string body;
  char error[CURL_ERROR_SIZE] = {0};
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, AppendCapped);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 10000L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
  // The IPv4 address: a security group's CidrIp takes no other.
  curl_easy_setopt(h, CURLOPT_IPRESOLVE, CURL_IPRESOLVE_V4);
  if (const CURLcode rc = curl_easy_perform(h); rc != CURLE_OK) {
    return fail(error[0] != '\0' ? error : curl_easy_strerror(rc));
  }
  const std::string address = core::Trim(body);
  if (!IsIpv4(address)) return fail("its answer is not an IPv4 address");
  return address;
}

}  // namespace dfbench::aws
