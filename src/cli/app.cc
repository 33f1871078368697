#include "cli/app.h"

#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/deprecated_flags.h"
#include "cli/help_texts.h"
#include "core/interrupt.h"
#include "core/text.h"
#include "core/version.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string SuggestCommand(const std::string& word) {
  std::string best;
  size_t best_d = 3;
  for (const auto& c : Commands()) {
    size_t d = EditDistance(word, c.name);
    if (d < best_d) {
      best_d = d;
      best = c.name;
    }
  }
  return best;
}

std::string UnknownCommandMessage(const std::string& word) {
  const std::string hint = SuggestCommand(word);
  return "unknown command '" + word + "'" +
         (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
         "; run 'dfbench --help' for the list";
}

namespace {

int PrintError(const std::string& message, int code) {
  // A message may quote a server or a tool: through the gate, lines of our own kept.
  std::fprintf(stderr, "dfbench: %s\n", core::Printable(message, true).c_str());
  return code;
}

// CLI11 leaves a hidden (deprecated) flag unnamed in its errors; the one it means when it says
// a value is missing is the one given as "--flag=" with nothing after the '='.
std::string HiddenFlagWithoutValue(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=') {
      return std::string(arg.substr(0, arg.size() - 1));
    }
  }
  return "";
}

// CLI11 says "--memtier-threads: At Most 1 required but received 2" of a flag given twice, under
// whichever of its names: one line naming them all. "" for any other message.
std::string GivenTwiceMessage(const CLI::App& app, const std::string& msg) {
  const auto at = msg.find(": At Most 1 required");
  if (at == std::string::npos) return "";
  const std::string name = msg.substr(0, at);
  for (const CLI::App* sub : app.get_subcommands()) {
    const CLI::Option* opt = sub->get_option_no_throw(name);
    if (opt == nullptr) continue;
    std::string names;
    for (const auto& l : opt->get_lnames()) names += (names.empty() ? "--" : " or --") + l;
    return names + " given more than once: give one value";
  }
  return "";
}

// Ends a command's --help with its help text, and its nested commands' with theirs.
void AttachHelpText(CLI::App* sub, const std::string& key) {
  const std::string_view text = HelpText(key);
  if (!text.empty()) sub->footer("\nExamples:\n" + std::string(text));
  for (CLI::App* nested : sub->get_subcommands([](const CLI::App*) { return true; })) {
    AttachHelpText(nested, key + "_" + nested->get_name());
  }
}

}  // namespace

const std::vector<CommandSpec>& Commands() {
  static const std::vector<CommandSpec> commands = {
      {"setup", "Create a benchmark environment and install or locate every engine", AddSetup},
      {"run", "Benchmark the engines with a SET:GET workload (N trials each)", AddRun},
      {"run-commands", "Benchmark one Redis command (SET, GET, LPUSH, ...) on each engine",
       AddRunCommands},
      {"run-commands-dfly", "Same as run-commands, with dfly_bench driving the load",
       AddRunCommandsDfly},
      {"run-memory", "Memory per key, and memory and latency while a snapshot runs under updates",
       AddRunMemory},
      {"run-replication", "Measure a replica's full sync and the load clients see meanwhile",
       AddRunReplication},
      {"sweep",
       "Latency against throughput: the highest rate each engine sustains within a latency SLO",
       AddSweep},
      {"quickstart", "One shot: setup + run + destroy", AddQuickstart},
      {"loadgen", "The built-in load generator (memtier_benchmark-compatible flags)", AddLoadgen},
      {"compare", "Diff two result files of the same shape; exit 1 on a regression", AddCompare},
      {"report", "Write a self-contained HTML report (charts) of result files", AddReport},
      {"info", "Show a setup's status, disk use, hosts, engines and benchmark history", AddInfo},
      {"list", "List known setups with status and age", AddList},
      {"cache", "List, add or prune the engine builds cached on this machine", AddCache},
      {"ssh", "Log in to a setup's server, client or replica (--print: show the command)", AddSsh},
      {"destroy", "Tear a setup down (idempotent)", AddDestroy},
      {"template", "Render the AWS CloudFormation YAML of a fleet, without calling AWS",
       AddTemplate},
      {"version", "Print the embedded build version", AddVersion},
      {"help", "Show the help of dfbench or of one command (as --help)", AddHelp},
      {"completion", "Print a shell completion script: bash, zsh or fish", AddCompletion},
  };
  return commands;
}

std::unique_ptr<CLI::App> MakeApp(Action* action) {
  auto app = std::make_unique<CLI::App>(
      "dfbench: fair, reproducible benchmarks of Dragonfly, Redis, Valkey and memcached",
      "dfbench");
  app->require_subcommand(1);
  app->fallthrough(false);
  app->set_version_flag("--version", core::VersionLine(), "Print the embedded build version");
  app->footer(
      "\nRun 'dfbench <command> --help' for a command's flags and examples.\n"
      "Exit codes: 0 ok, 1 failure or regression, 2 usage or input error, 3 setup not found\n"
      "or not ready, 4 setup locked by another command, 5 environment (missing binary,\n"
      "engine that will not start, unreachable server), 130 interrupted.");
  for (const auto& spec : Commands()) {
    CLI::App* sub = app->add_subcommand(spec.name, spec.summary);
    spec.add(sub, action);
    AttachHelpText(sub, spec.name);
  }
  return app;
}

int Main(int argc, char** argv) {
  core::InstallInterruptHandlers();
  Action action;
  const std::unique_ptr<CLI::App> app_owner = MakeApp(&action);
  CLI::App& app = *app_owner;
  try {
    app.parse(argc, argv);
    for (const auto* sub : app.get_subcommands()) CheckDeprecatedFlags(*sub);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    std::string msg = e.what();
    if (argc > 1 && app.get_subcommands().empty()) msg = UnknownCommandMessage(argv[1]);
    return PrintError(msg, static_cast<int>(core::ErrorKind::kUsage));
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (msg.rfind(": ", 0) == 0) msg = HiddenFlagWithoutValue(argc, argv) + msg;
    if (std::string twice = GivenTwiceMessage(app, msg); !twice.empty()) {
      return PrintError(twice, static_cast<int>(core::ErrorKind::kUsage));
    }
    if (msg.find("subcommand") != std::string::npos && argc > 1 && argv[1][0] != '-') {
      std::string hint = SuggestCommand(argv[1]);
      msg = "unknown command '" + std::string(argv[1]) + "'" +
            (hint.empty() ? "" : " (did you mean '" + hint + "'?)");
    }
    return PrintError(msg + "; see 'dfbench --help'", static_cast<int>(core::ErrorKind::kUsage));
  } catch (const ExitError& e) {
    return PrintError(e.error.message, static_cast<int>(e.error.kind));
  }
  if (!action) return PrintError("no command given", static_cast<int>(core::ErrorKind::kUsage));
  // Recorded with a working status, so that a command that dies can be named.
  for (const auto* sub : app.get_subcommands()) state::SetCommandName(sub->get_name());
  try {
    const int code = action();
    // A command with nothing to wait for notices a signal only here: it was interrupted all the
    // same, and its output may be incomplete; unless the command answered it itself.
    const bool interrupted = core::InterruptRequested() && !core::InterruptHandled();
    return interrupted ? static_cast<int>(core::ErrorKind::kInterrupted) : code;
  } catch (const ExitError& e) {
    return PrintError(e.error.message, static_cast<int>(e.error.kind));
  }
}

}  // namespace dfbench::cli
