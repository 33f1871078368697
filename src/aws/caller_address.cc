#include "aws/caller_address.h"

#include <arpa/inet.h>

#include "aws/plain_http.h"
#include "core/text.h"

namespace dfbench::aws {
namespace {

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
  // The IPv4 address: a security group's CidrIp takes no other.
  auto reply = HttpExchange({.url = url,
                             .connect_timeout = std::chrono::seconds(10),
                             .timeout = std::chrono::seconds(10),
                             .through_proxy = true,
                             .ipv4_only = true});
  if (!reply) return fail(reply.error());
  if (reply->status != 200) return fail("HTTP " + std::to_string(reply->status));
  const std::string address = core::Trim(reply->body);
  if (!IsIpv4(address)) return fail("its answer is not an IPv4 address");
  return address;
}

}  // namespace dfbench::aws
