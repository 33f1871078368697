// What every subcommand file provides, and the helpers they share.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cli/bool_flag.h"
#include "core/enum_names.h"
#include "core/error.h"

namespace dfbench::cli {

// Set by a subcommand's parse callback; run by Main once parsing succeeded.
using Action = std::function<int()>;

// One subcommand: its name, one-line summary, and the function that adds its flags.
struct CommandSpec {
  const char* name;
  const char* summary;
  void (*add)(CLI::App* sub, Action* action);
};

// The subcommand table (cli/app.cc). Order is the order of `dfbench --help`.
const std::vector<CommandSpec>& Commands();

// Once parsing succeeded, `action` runs `run` on the flags parsed into `flags`.
template <class Flags>
void RunOnceParsed(CLI::App* sub, Action* action, std::shared_ptr<Flags> flags,
                   std::type_identity_t<std::function<int(const Flags&)>> run) {
  sub->callback([flags = std::move(flags), action, run = std::move(run)] {
    *action = [flags, run] { return run(*flags); };
  });
}

// A command whose flags (a `Flags`, declared by `add`) are shared with the action that runs
// them (`run`) once parsing succeeded.
template <class Flags>
void AddFlagsCommand(CLI::App* sub, Action* action, void (*add)(CLI::App*, Flags*),
                     std::type_identity_t<std::function<int(const Flags&)>> run) {
  auto flags = std::make_shared<Flags>();
  add(sub, flags.get());
  RunOnceParsed(sub, action, flags, std::move(run));
}

// Thrown only inside CLI code; caught once in Main and mapped to the error's exit code.
struct ExitError {
  core::Error error;
};

// Unwraps a result or throws ExitError.
template <class T>
T OrExit(core::Result<T> r) {
  if (!r) throw ExitError{r.error()};
  if constexpr (!std::is_void_v<T>) return std::move(*r);
}
inline void OrExit(core::Status s) {
  if (!s) throw ExitError{s.error()};
}

// Unwraps the result of reading `flag`'s value or throws ExitError saying it of the flag: the
// layers below name values, never flags (`"p99": expected ...` becomes `--slo "p99": expected
// ...`).
template <class T>
T OrExitFor(std::string_view flag, core::Result<T> r) {
  if (!r) throw ExitError{core::Error{r.error().kind, std::string(flag) + " " + r.error().message}};
  if constexpr (!std::is_void_v<T>) return std::move(*r);
}

// The same with the flag as the error's context, before a colon, for a value whose message quotes
// it already (`--keys: invalid count 'lots'`).
template <class T>
T OrExitWithContext(const std::string& flag, core::Result<T> r) {
  if (!r) throw ExitError{core::WithContext(r.error(), flag)};
  return std::move(*r);
}

// The flag that sets an option a layer below names by field: {"snapshot_delay",
// "--snapshot-delay"}; a command keeps the table of its options beside its flags.
using FlagOfOption = std::pair<std::string_view, std::string_view>;

// Unwraps `s` or throws ExitError; an error about options (core::FailAbout) is worded with the
// flags `flags` gives them (an option it lacks keeps its field's name).
inline void OrExitNamingFlags(core::Status s, std::span<const FlagOfOption> flags) {
  if (s) return;
  core::Error e = s.error();
  if (!e.options.empty()) {
    std::vector<std::string> names;
    names.reserve(e.options.size());
    for (const std::string& option : e.options) {
      const auto flag = std::ranges::find(flags, option, &FlagOfOption::first);
      names.emplace_back(flag == flags.end() ? std::string_view(option) : flag->second);
    }
    e.message = e.Worded(names);
  }
  throw ExitError{std::move(e)};
}

[[noreturn]] inline void ExitWith(core::ErrorKind kind, std::string message) {
  throw ExitError{core::Error{kind, std::move(message)}};
}

// Lists the flags added while it lives under its own heading in --help.
class FlagGroup {
 public:
  FlagGroup(CLI::App* sub, const std::string& heading)
      : sub_(sub), previous_(sub->option_defaults()->get_group()) {
    sub->option_defaults()->group(heading);
  }
  // Copying a heading back can only fail for want of memory, which leaves nothing to restore.
  ~FlagGroup() {
    try {
      sub_->option_defaults()->group(previous_);
    } catch (...) {
    }
  }
  FlagGroup(const FlagGroup&) = delete;
  FlagGroup& operator=(const FlagGroup&) = delete;

 private:
  CLI::App* sub_;
  std::string previous_;
};

// A flag that takes one of `choices`, its default shown in --help.
inline CLI::Option* AddChoiceFlag(CLI::App* sub, const std::string& names, std::string* value,
                                  const std::vector<std::string>& choices,
                                  const std::string& help) {
  return sub->add_option(names, *value, help)->capture_default_str()->check(CLI::IsMember(choices));
}

// The words of `values` in `names`, in the order given: the choices of a flag that takes some of
// an enum's values.
template <class E, size_t N>
std::vector<std::string> ChoicesOf(const core::EnumNames<E, N>& names,
                                   std::initializer_list<E> values) {
  std::vector<std::string> choices;
  choices.reserve(values.size());
  for (E value : values) choices.emplace_back(names.Name(value));
  return choices;
}

// The subcommand closest to `word` (a typo), or "" when none is close.
std::string SuggestCommand(const std::string& word);
// "unknown command 'runn' (did you mean 'run'?); run 'dfbench --help' for the list"
std::string UnknownCommandMessage(const std::string& word);

// The whole command line: every subcommand with its flags and its help text (help/<name>.txt);
// a parse callback stores the chosen command's action in `action`.
std::unique_ptr<CLI::App> MakeApp(Action* action);

}  // namespace dfbench::cli
