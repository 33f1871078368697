// What an AWS Query API call can fail with, sorted into the categories callers act on
// (retry it, tell the user to log in again, treat a missing stack as gone), and the mapping of
// each onto core error kinds (exit codes).
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace dfbench::aws {

enum class ErrorCategory {
  kExpired,      // ExpiredToken, ExpiredTokenException: log in again
  kAuth,         // InvalidClientTokenId, UnrecognizedClientException, SignatureDoesNotMatch,
                 // AccessDenied(Exception): wrong keys or missing permission
  kThrottling,   // Throttling, ThrottlingException, RequestLimitExceeded, TooManyRequests-
                 // Exception, RequestThrottled(Exception), SlowDown, HTTP 429: retried
  kClock,        // RequestTimeTooSkewed, InvalidSignatureException "Signature expired": this
                 // machine's clock is off, which no retry mends
  kServer,       // HTTP 5xx: retried
  kNotFound,     // "Stack with id X does not exist", *.NotFound, ParameterNotFound
  kService,      // any other error document (ValidationError, AlreadyExistsException, ...)
  kTransport,    // no HTTP answer (refused, timed out, TLS); transient ones are retried
  kInterrupted,  // SIGINT/SIGTERM during a retry wait
};

struct ApiError {
  ErrorCategory category = ErrorCategory::kService;
  int http_status = 0;               // 0 when there was no HTTP answer
  std::string code;                  // the error document's <Code>; "" for transport errors
  std::string message;               // its <Message>, or the transport's words
  bool retryable_transport = false;  // a transport error worth another attempt
};

// The category of an error document's code (and message, for CloudFormation's not-found,
// which is a ValidationError).
ErrorCategory Classify(int http_status, std::string_view code, std::string_view message);

// Reads an error reply: `<ErrorResponse><Error><Code>..<Message>..` (STS, CloudFormation),
// `<Response><Errors><Error>..` (EC2) or `{"__type": "..#Code", "message": ..}` (SSM's JSON). A
// body that is not such XML keeps the HTTP status and the body's first line as the message.
ApiError ParseApiError(int http_status, std::string_view body);

// Whether another attempt may succeed (throttling, 5xx, transient transport errors).
bool IsRetryable(const ApiError& e);

// One line for users, `what` naming the call ("cloudformation:CreateStack"):
//   kExpired → kEnvironment, kExpiredCredentialsAdvice
//   kAuth, kClock, kThrottling, kServer, kTransport → kEnvironment
//   kNotFound → kNotFound, kService → kFailure, kInterrupted → kInterrupted
core::Error ToCoreError(const ApiError& e, std::string_view what);

}  // namespace dfbench::aws
