#include <curl/curl.h>

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>

#include "aws/credential_sources.h"

namespace dfbench::aws {
namespace {

size_t AppendMetadataBody(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

}  // namespace

tl::expected<MetadataReply, std::string> MetadataExchange(const MetadataRequest& request) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return tl::unexpected(std::string("curl_easy_init failed"));
  curl_slist* headers = nullptr;
  for (const std::string& h : request.headers) headers = curl_slist_append(headers, h.c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_guard(headers,
                                                                           curl_slist_free_all);
  MetadataReply reply;
  char error_buffer[CURL_ERROR_SIZE] = {0};
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  // Link-local and loopback addresses are never reached through a proxy.
  curl_easy_setopt(h, CURLOPT_PROXY, "");
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, AppendMetadataBody);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(request.connect_timeout.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    return tl::unexpected(
        std::string(error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(rc)));
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply.status);
  return reply;
}

core::Result<Credentials> ParseMetadataCredentials(const std::string& json, const std::string& what,
                                                   const std::string& source) {
  auto doc = nlohmann::json::parse(json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return core::Fail(core::ErrorKind::kEnvironment, what + ": reply is not a JSON object");
  }
  auto text = [&doc](const char* key) {
    auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (const std::string code = text("Code"); !code.empty() && code != "Success") {
    return core::Fail(core::ErrorKind::kEnvironment, what + ": " + code);
  }
  Credentials c{.access_key_id = text("AccessKeyId"),
                .secret_access_key = text("SecretAccessKey"),
                .session_token = text("Token"),
                .source = source};
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      what + ": reply has no AccessKeyId and SecretAccessKey");
  }
  if (const std::string exp = text("Expiration"); !exp.empty()) {
    c.expiration = ParseExpiration(exp);
    if (!c.expiration) {
      return core::Fail(core::ErrorKind::kEnvironment, what + ": reply has a malformed Expiration");
    }
  }
  return c;
}

}  // namespace dfbench::aws
