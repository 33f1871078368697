// For the unit tests of a command's flag -> options rules: a real command line parsed in-process
// by CLI11 into the command's flags struct, as `dfbench <command> ...` parses it (the deprecated
// spellings checked as Main checks them), and the error a rule throws.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/command.h"
#include "cli/deprecated_flags.h"
#include "cli/flags.h"
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

// The ExitError `f` throws, expected to be a usage error, as every rule's is; nullopt, a failure,
// when it returns.
template <class F>
std::optional<core::Error> ExpectUsageErrorOf(F f) {
  auto error = ExitErrorOf(f);
  EXPECT_TRUE(error.has_value()) << "no ExitError";
  if (error) {
    EXPECT_EQ(error->kind, core::ErrorKind::kUsage) << error->message;
  }
  return error;
}

// Expects `f` to throw a usage error whose message is `message`: one line, the flag named.
template <class F>
void ExpectUsageError(const std::string& message, F f) {
  const auto error = ExpectUsageErrorOf(f);
  if (error) {
    EXPECT_EQ(error->message, message);
    EXPECT_EQ(error->message.find('\n'), std::string::npos);
  }
}

// Expects `f` to throw a usage error whose message holds `part`: what the test gave (a value, a
// path), among words it does not fix.
template <class F>
void ExpectUsageErrorNaming(const std::string& part, F f) {
  const auto error = ExpectUsageErrorOf(f);
  if (error) {
    EXPECT_NE(error->message.find(part), std::string::npos) << error->message;
  }
}

// Expects `f` to throw a usage error whose message starts with `prefix`: the flag, then the words
// of the layer that read its value.
template <class F>
void ExpectUsageErrorStartingWith(const std::string& prefix, F f) {
  const auto error = ExpectUsageErrorOf(f);
  if (error) {
    EXPECT_EQ(error->message.rfind(prefix, 0), 0U) << error->message;
  }
}

// A command's line as its flag tests give it, `dfbench <name> <given...> <args...>`: parsed into
// the flags `add` declares, which `to_options` turns into the command's options (asking the
// parsed command which flags were given, for the rules that need it). `given` is what every line
// of the tests needs (--id, the files).
template <class Flags, void (*add)(CLI::App*, Flags*), auto to_options>
struct CommandLine {
  const char* name;
  std::vector<std::string> given;

  ParsedFlags<Flags> Parse(std::vector<std::string> args) const {
    return ParseFlags(name, add, WithGiven(std::move(args)));
  }
  auto OptionsOf(std::vector<std::string> args) const {
    const auto parsed = Parse(std::move(args));
    if constexpr (std::is_invocable_v<decltype(to_options), const Flags&, const CLI::App*>) {
      return to_options(*parsed, parsed.sub);
    } else {
      return to_options(*parsed);
    }
  }
  // The message CLI11 refuses `args` with; "" when it takes them.
  std::string ParseErrorOf(std::vector<std::string> args) const {
    return cli::ParseErrorOf(name, add, WithGiven(std::move(args)));
  }
  // Expects the options of `args` to be refused with the usage error `message`.
  void ExpectUsage(const std::vector<std::string>& args, const std::string& message) const {
    ExpectUsageError(message, [&] { return OptionsOf(args); });
  }

 private:
  std::vector<std::string> WithGiven(std::vector<std::string> args) const {
    args.insert(args.begin(), given.begin(), given.end());
    return args;
  }
};

// A benchmark command's flags as AddBenchCommand adds them: --id and --engines, then its own.
template <class Flags, void (*add)(CLI::App*, Flags*)>
void AddBenchFlags(CLI::App* sub, Flags* flags) {
  AddBenchTargetFlags(sub, &flags->target, {});
  add(sub, flags);
}

// A benchmark command's line, given the --id every one needs.
template <class Flags, void (*add)(CLI::App*, Flags*), auto to_options>
struct BenchLine : CommandLine<Flags, &AddBenchFlags<Flags, add>, to_options> {
  explicit BenchLine(const char* name)
      : CommandLine<Flags, &AddBenchFlags<Flags, add>, to_options>{name, {"--id", "bench"}} {}
};

// Expects `got` and `want` to hold the same in each of `fields` (pointers to members); a failure
// names the field by its place in the list.
template <class T, class... Fields>
void ExpectSameFields(const T& got, const T& want, Fields... fields) {
  int place = 0;
  const auto expect_same = [&place](const auto& g, const auto& w) {
    EXPECT_EQ(g, w) << "field " << place++;
  };
  (expect_same(got.*fields, want.*fields), ...);
}

// The reference's memtier load, run's, quickstart's and sweep's default: spelled out here rather
// than read from core::kRunLoad, which it checks.
inline const core::Load kReferenceRunLoad{.threads = 4,
                                          .clients = 50,
                                          .pipeline = 30,
                                          .data_size = 256,
                                          .distinct_client_seed = false,
                                          .ratio = {.set = 1, .get = 10},
                                          .key_maximum = 0};

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

// DFBENCH_PROVIDER chooses the provider when no flag does (setup, quickstart): each test starts
// without it and leaves it as it was.
class ProviderEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* v = std::getenv("DFBENCH_PROVIDER")) saved_ = v;
    unsetenv("DFBENCH_PROVIDER");
  }
  void TearDown() override {
    if (saved_) {
      setenv("DFBENCH_PROVIDER", saved_->c_str(), 1);
    } else {
      unsetenv("DFBENCH_PROVIDER");
    }
  }

 private:
  std::optional<std::string> saved_;
};

// The hosts of an ssh setup (server 10.0.0.1, client 10.0.0.2, user ubuntu), then `args`.
inline std::vector<std::string> OnSshHosts(std::vector<std::string> args) {
  const std::vector<std::string> hosts = {"--provider", "ssh",      "--server",   "10.0.0.1",
                                          "--client",   "10.0.0.2", "--ssh-user", "ubuntu"};
  args.insert(args.begin(), hosts.begin(), hosts.end());
  return args;
}

}  // namespace dfbench::cli
