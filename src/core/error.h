// Errors that a user can cause or that the environment can raise. Functions at module
// boundaries return Result<T>; the kind of an error decides the process exit code.
#pragma once

#include <string>
#include <tl/expected.hpp>
#include <utility>

namespace dfbench::core {

// The value of each kind is the exit code the CLI returns for it (documented in docs/cli.md).
enum class ErrorKind : int {
  kFailure = 1,       // the work ran but failed (an engine died, a trial failed, a regression)
  kUsage = 2,         // bad flag, bad value, malformed or mismatched input file
  kNotFound = 3,      // unknown setup id, or a setup in the wrong state for the command
  kLocked = 4,        // another dfbench command holds the setup's lock
  kEnvironment = 5,   // missing binary, engine that will not start, unreachable host or server
  kInterrupted = 130  // SIGINT or SIGTERM
};

struct Error {
  ErrorKind kind = ErrorKind::kFailure;
  std::string message;
};

template <class T>
using Result = tl::expected<T, Error>;
using Status = tl::expected<void, Error>;

inline tl::unexpected<Error> Fail(ErrorKind kind, std::string message) {
  return tl::unexpected<Error>(Error{kind, std::move(message)});
}

inline Status Ok() {
  return {};
}

// Prefixes an error's message with context, keeping its kind.
inline Error WithContext(Error e, const std::string& context) {
  e.message = context + ": " + e.message;
  return e;
}

}  // namespace dfbench::core
