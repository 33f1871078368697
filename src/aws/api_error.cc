#include "aws/api_error.h"

#include <cstring>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "aws/credentials.h"

namespace dfbench::aws {
namespace {

bool OneOf(std::string_view code, std::initializer_list<std::string_view> codes) {
  for (auto c : codes) {
    if (code == c) return true;
  }
  return false;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string FirstLine(std::string_view body) {
  const size_t start = body.find_first_not_of(" \r\n\t");
  if (start == std::string_view::npos) return "";
  body = body.substr(start);
  std::string_view line = body.substr(0, body.find('\n'));
  if (line.size() > 200) line = line.substr(0, 200);
  return std::string(line);
}

}  // namespace

ErrorCategory Classify(int http_status, std::string_view code, std::string_view message) {
  if (OneOf(code, {"ExpiredToken", "ExpiredTokenException"})) return ErrorCategory::kExpired;
  // A signature is valid for 15 minutes around AWS's clock; a skewed clock shows as one of
  // these, and looks like wrong keys unless named.
  if (code == "RequestTimeTooSkewed" || code == "RequestExpired" ||
      (OneOf(code, {"SignatureDoesNotMatch", "InvalidSignatureException"}) &&
       message.find("Signature expired") != std::string_view::npos)) {
    return ErrorCategory::kClock;
  }
  if (OneOf(code,
            {"InvalidClientTokenId", "UnrecognizedClientException", "SignatureDoesNotMatch",
             "AccessDenied", "AccessDeniedException", "AuthFailure", "UnauthorizedOperation"})) {
    return ErrorCategory::kAuth;
  }
  if (http_status == 429 ||
      OneOf(code, {"Throttling", "ThrottlingException", "RequestLimitExceeded",
                   "TooManyRequestsException", "RequestThrottled", "RequestThrottledException",
                   "SlowDown", "ProvisionedThroughputExceededException"})) {
    return ErrorCategory::kThrottling;
  }
  if (http_status >= 500) return ErrorCategory::kServer;
  if (EndsWith(code, ".NotFound") || EndsWith(code, "NotFoundException") ||
      code == "ParameterNotFound" ||
      (code == "ValidationError" && message.find("does not exist") != std::string_view::npos)) {
    return ErrorCategory::kNotFound;
  }
  return ErrorCategory::kService;
}

ApiError ParseApiError(int http_status, std::string_view body) {
  ApiError e;
  e.http_status = http_status;
  pugi::xml_document doc;
  const size_t first = body.find_first_not_of(" \r\n\t");
  if (first != std::string_view::npos && body[first] == '{') {
    // JSON protocol (SSM): {"__type": "[namespace#]Code", "message": "..."}.
    const auto j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (j.is_object()) {
      const std::string type = j.value("__type", std::string());
      e.code = type.substr(type.find('#') == std::string::npos ? 0 : type.find('#') + 1);
      e.message = j.value("message", j.value("Message", std::string()));
    }
  } else if (doc.load_buffer(body.data(), body.size())) {
    pugi::xml_node error =
        doc.find_node([](pugi::xml_node n) { return std::strcmp(n.name(), "Error") == 0; });
    e.code = error.child_value("Code");
    e.message = error.child_value("Message");
  }
  if (e.code.empty()) {
    e.message = "HTTP " + std::to_string(http_status);
    if (std::string line = FirstLine(body); !line.empty()) e.message += ": " + line;
  }
  e.category = Classify(http_status, e.code, e.message);
  return e;
}

bool IsRetryable(const ApiError& e) {
  return e.category == ErrorCategory::kThrottling || e.category == ErrorCategory::kServer ||
         (e.category == ErrorCategory::kTransport && e.retryable_transport);
}

core::Error ToCoreError(const ApiError& e, std::string_view what) {
  using core::ErrorKind;
  const std::string detail =
      std::string(what) + ": " + (e.code.empty() ? "" : e.code + ": ") + e.message;
  switch (e.category) {
    case ErrorCategory::kExpired:
      return {ErrorKind::kEnvironment, kExpiredCredentialsAdvice};
    case ErrorCategory::kAuth:
      return {ErrorKind::kEnvironment, "AWS refused the credentials or the permission: " + detail};
    case ErrorCategory::kClock:
      return {ErrorKind::kEnvironment,
              "AWS refused the request's time: this machine's clock is off (sync it, e.g. with "
              "chrony or systemd-timesyncd, and retry): " +
                  detail};
    case ErrorCategory::kThrottling:
    case ErrorCategory::kServer:
      return {ErrorKind::kEnvironment, "AWS kept failing, gave up retrying: " + detail};
    case ErrorCategory::kTransport:
      return {ErrorKind::kEnvironment, detail};
    case ErrorCategory::kNotFound:
      return {ErrorKind::kNotFound, detail};
    case ErrorCategory::kInterrupted:
      return {ErrorKind::kInterrupted, std::string(what) + ": interrupted"};
    case ErrorCategory::kService:
      break;
  }
  return {ErrorKind::kFailure, detail};
}

}  // namespace dfbench::aws
