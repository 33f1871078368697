#include "aws/client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <random>

#include "aws/plain_http.h"
#include "aws/region.h"
#include "core/interrupt.h"

namespace dfbench::aws {
namespace {

size_t Append(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

bool TransientTransport(CURLcode code) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

double UnitRandom() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

}  // namespace

std::string ServiceEndpoint(std::string_view service, const std::string& region,
                            const EnvLookup& env) {
  std::string var = "AWS_ENDPOINT_URL_";
  for (char c : service) var += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::optional<std::string> url = env(var);
  if (!url) url = env("AWS_ENDPOINT_URL");
  if (!url) return "https://" + std::string(service) + "." + region + "." + DnsSuffix(region);
  while (!url->empty() && url->back() == '/') url->pop_back();
  return *url;
}

std::string FormEncode(const QueryParams& params) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const auto& [key, value] : params) {
    if (!out.empty()) out += '&';
    for (const std::string* s : {&key, &value}) {
      for (unsigned char c : *s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
          out += static_cast<char>(c);
        } else {
          out += '%';
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
      }
      if (s == &key) out += '=';
    }
  }
  return out;
}

std::chrono::milliseconds BackoffDelay(const RetryPolicy& policy, int attempt, double unit_random) {
  const int doublings = std::clamp(attempt - 2, 0, 20);
  const auto ceiling =
      std::min<std::chrono::milliseconds>(policy.max_delay, policy.base_delay * (1LL << doublings));
  // "Equal jitter": at least half the ceiling, so retries still back off, spread over the rest
  // so that many clients throttled together do not retry together.
  const auto half = ceiling / 2;
  return half +
         std::chrono::milliseconds(static_cast<long long>(
             static_cast<double>((ceiling - half).count()) * std::clamp(unit_random, 0.0, 1.0)));
}

Client::Client(Credentials credentials, std::string region, const EnvLookup& env, RetryPolicy retry)
    : Client(credentials.expiration ? ChainCredentials(env, std::move(credentials))
                                    : StaticCredentials(std::move(credentials)),
             std::move(region), env, retry) {}

Client::Client(std::shared_ptr<CredentialProvider> credentials, std::string region, EnvLookup env,
               RetryPolicy retry)
    : credentials_(std::move(credentials)),
      region_(std::move(region)),
      env_(std::move(env)),
      retry_(retry) {
  InitCurlOnce();
}

Client Client::Unsigned(std::string region, EnvLookup env, RetryPolicy retry) {
  return Client(std::shared_ptr<CredentialProvider>(), std::move(region), std::move(env), retry);
}

Credentials Client::credentials() const {
  if (!credentials_) return {};
  auto c = credentials_->Get();
  return c ? *c : credentials_->Last();
}

tl::expected<std::string, ApiError> Client::Call(std::string_view service, std::string_view action,
                                                 std::string_view version,
                                                 const QueryParams& params) const {
  QueryParams all = {{"Action", std::string(action)}, {"Version", std::string(version)}};
  all.insert(all.end(), params.begin(), params.end());
  return PostWithRetries(service, FormEncode(all), {});
}

tl::expected<std::string, ApiError> Client::CallJson(std::string_view service,
                                                     std::string_view target,
                                                     const std::string& json_body) const {
  return PostWithRetries(service, json_body, target);
}

tl::expected<std::string, ApiError> Client::PostWithRetries(std::string_view service,
                                                            const std::string& body,
                                                            std::string_view target) const {
  const std::string url = ServiceEndpoint(service, region_, env_) + "/";
  for (int attempt = 1;; ++attempt) {
    // Asked before every attempt: a long retry sequence signs with refreshed credentials.
    std::optional<Credentials> creds;
    if (credentials_) {
      auto c = credentials_->Get();
      if (!c) {
        const bool expired = c.error().message == kExpiredCredentialsAdvice;
        return tl::unexpected(
            ApiError{.category = expired ? ErrorCategory::kExpired : ErrorCategory::kTransport,
                     .message = c.error().message});
      }
      creds = std::move(*c);
    }
    auto r = Post(service, url, body, target, creds ? &*creds : nullptr);
    if (r || !IsRetryable(r.error()) || attempt >= retry_.max_attempts) return r;
    if (!core::SleepUnlessInterrupted(BackoffDelay(retry_, attempt + 1, UnitRandom()))) {
      return tl::unexpected(ApiError{.category = ErrorCategory::kInterrupted});
    }
  }
}

tl::expected<std::string, ApiError> Client::Post(std::string_view service, const std::string& url,
                                                 const std::string& body, std::string_view target,
                                                 const Credentials* credentials) const {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) {
    return tl::unexpected(
        ApiError{.category = ErrorCategory::kTransport, .message = "curl_easy_init failed"});
  }
  curl_slist* headers = curl_slist_append(
      nullptr, target.empty() ? "Content-Type: application/x-www-form-urlencoded; charset=utf-8"
                              : "Content-Type: application/x-amz-json-1.1");
  if (!target.empty()) {
    headers = curl_slist_append(headers, ("X-Amz-Target: " + std::string(target)).c_str());
  }
  if (credentials && !credentials->session_token.empty()) {
    headers =
        curl_slist_append(headers, ("X-Amz-Security-Token: " + credentials->session_token).c_str());
  }
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_guard(headers,
                                                                           curl_slist_free_all);
  const std::string sigv4 = "aws:amz:" + region_ + ":" + std::string(service);
  std::string response;
  char error_buffer[CURL_ERROR_SIZE] = {0};
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  if (credentials) {
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4.c_str());
    curl_easy_setopt(h, CURLOPT_USERNAME, credentials->access_key_id.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, credentials->secret_access_key.c_str());
  }
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, Append);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &response);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(retry_.request_timeout.count()));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    const std::string why = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(rc);
    return tl::unexpected(ApiError{.category = ErrorCategory::kTransport,
                                   .message = "cannot reach " + url + ": " + why,
                                   .retryable_transport = TransientTransport(rc)});
  }
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 200 && status < 300) return response;
  return tl::unexpected(ParseApiError(static_cast<int>(status), response));
}

}  // namespace dfbench::aws
