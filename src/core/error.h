// Errors that a user can cause or that the environment can raise. Functions at module
// boundaries return Result<T>; the kind of an error decides the process exit code.
#pragma once

#include <string>
#include <string_view>
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

struct Error {
  ErrorKind kind = ErrorKind::kFailure;
  std::string message;
  // Set for an error about options the user chose (FailAbout): `message` names them by field
  // ("snapshot_delay"), and `wording` is the message with "{0}", "{1}"... where they go, so cli
  // can say it again with the flags that set them ("--snapshot-delay") and no layer below cli
  // spells a flag. "{{" in `wording` is a brace of the message.
  std::vector<std::string> options = {};
  std::string wording = {};

  // The message with `names[i]` for option i (a missing name keeps the field's).
  std::string Worded(const std::vector<std::string>& names) const;
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

// Text put into an error's wording as it is: its braces doubled.
std::string LiteralWording(std::string_view text);

// An error about `options` (fields of a layer's options): `wording` says it with "{0}", "{1}"...
// where their names go.
tl::unexpected<Error> FailAbout(ErrorKind kind, std::vector<std::string> options,
                                std::string wording);

// Prefixes an error's message with context, keeping its kind and the options it is about.
Error WithContext(Error e, const std::string& context);

}  // namespace dfbench::core
