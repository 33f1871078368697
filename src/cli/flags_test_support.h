// For the unit tests of a command's flag -> options rules: a real command line parsed in-process
// by CLI11 into the command's flags struct, as `dfbench <command> ...` parses it (the deprecated
// spellings checked as Main checks them), and the error a rule throws.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/deprecated_flags.h"
#include "core/load.h"

namespace dfbench::cli {

// A command line written as one string, split at spaces (no quoting: the tests' values have
// none), to keep a long one readable.
inline std::vector<std::string> Argv(const std::string& line) {
  std::vector<std::string> args;
  std::istringstream words(line);
  for (std::string word; words >> word;) args.push_back(word);
  return args;
}

// A parsed command line: the flags and the command they were parsed by (some rules ask it which
// flags were given). Both on the heap, as the flags' callbacks hold their addresses.
template <class Flags>
struct ParsedFlags {
  std::unique_ptr<CLI::App> app = std::make_unique<CLI::App>("dfbench");
  std::unique_ptr<Flags> flags = std::make_unique<Flags>();
  CLI::App* sub = nullptr;
  const Flags& operator*() const { return *flags; }
  const Flags* operator->() const { return flags.get(); }
};

// `args` parsed as the command line of `command`, whose flags `add` declares. Throws what CLI11
// throws for a value it refuses (CLI::ParseError) and ExitError for a deprecated spelling given
// beside its flag with another value.
template <class Flags>
ParsedFlags<Flags> ParseFlags(const std::string& command, void (*add)(CLI::App*, Flags*),
                              std::vector<std::string> args) {
  ParsedFlags<Flags> parsed;
  parsed.sub = parsed.app->add_subcommand(command);
  add(parsed.sub, parsed.flags.get());
  args.insert(args.begin(), command);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  parsed.app->parse(args);
  CheckDeprecatedFlags(*parsed.sub);
  return parsed;
}

// The message CLI11 refuses `args` with; "" when it takes them.
template <class Flags>
std::string ParseErrorOf(const std::string& command, void (*add)(CLI::App*, Flags*),
                         std::vector<std::string> args) {
  try {
    (void)ParseFlags(command, add, std::move(args));
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

// The error `f` throws as ExitError; nullopt when it returns.
template <class F>
std::optional<core::Error> ExitErrorOf(F f) {
  try {
    (void)f();
  } catch (const ExitError& e) {
    return e.error;
  }
  return std::nullopt;
}

// Asserts that `f` throws ExitError of `kind` whose message is `message`: one line, the flag
// named.
template <class F>
void ExpectExitError(F f, core::ErrorKind kind, const std::string& message) {
  const auto error = ExitErrorOf(f);
  ASSERT_TRUE(error.has_value()) << "no ExitError; wanted: " << message;
  EXPECT_EQ(error->kind, kind) << error->message;
  EXPECT_EQ(error->message, message);
  EXPECT_EQ(error->message.find('\n'), std::string::npos);
}

// Expects the load settings a command line sets (connections, pipeline, value size, seeds,
// ratio, key range and pattern) to be `want`'s, each named in a failure.
inline void ExpectLoad(const core::Load& got, const core::Load& want) {
  EXPECT_EQ(got.threads, want.threads) << "threads";
  EXPECT_EQ(got.clients, want.clients) << "clients";
  EXPECT_EQ(got.pipeline, want.pipeline) << "pipeline";
  EXPECT_EQ(got.data_size, want.data_size) << "data_size";
  EXPECT_EQ(got.distinct_client_seed, want.distinct_client_seed) << "distinct_client_seed";
  EXPECT_EQ(got.ratio, want.ratio) << "ratio";
  EXPECT_EQ(got.key_maximum, want.key_maximum) << "key_maximum";
  EXPECT_EQ(got.key_pattern, want.key_pattern) << "key_pattern";
}

}  // namespace dfbench::cli
