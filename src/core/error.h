// Errors that a user can cause or that the environment can raise. Functions at module
// boundaries return Result<T>; the kind of an error decides the process exit code.
#pragma once

#include <functional>
#include <string>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

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

// An error's message said again with other names for the options it is about, one per option.
using OptionWording = std::function<std::string(const std::vector<std::string>& names)>;

struct Error {
  ErrorKind kind = ErrorKind::kFailure;
  std::string message;
  // Set for an error about options the user chose (FailAbout): `message` names them by field
  // ("snapshot_delay"), and `worded` says it again with the names cli gives them, the flags
  // that set them ("--snapshot-delay"), so no layer below cli spells a flag.
  std::vector<std::string> options = {};
  OptionWording worded = {};
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

// An error about `options` (fields of a layer's options), its message `worded` with their names.
inline tl::unexpected<Error> FailAbout(ErrorKind kind, std::vector<std::string> options,
                                       OptionWording worded) {
  std::string message = worded(options);
  return tl::unexpected<Error>(
      Error{kind, std::move(message), std::move(options), std::move(worded)});
}

// Prefixes an error's message with context, keeping its kind and the options it is about.
inline Error WithContext(Error e, const std::string& context) {
  e.message = context + ": " + e.message;
  if (e.worded) {
    e.worded = [context, inner = std::move(e.worded)](const std::vector<std::string>& names) {
      return context + ": " + inner(names);
    };
  }
  return e;
}

}  // namespace dfbench::core
