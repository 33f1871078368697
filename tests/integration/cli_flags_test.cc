// The command line as the reference's users type it: Go-style boolean flags in every subcommand.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "core/files.h"
#include "dfbench_runner.h"
#include "hosts/ssh_command.h"
#include "on_terminal.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// A subcommand with every boolean flag it takes, and the arguments that, placed after the
// boolean, make it stop right after parsing with a known error: reaching that error proves the
// boolean was parsed and did not take the next argument.
struct Command {
  std::vector<std::string> head;
  std::vector<std::string> booleans;
  std::vector<std::string> tail;
  int code;
  const char* needle;
};

const std::vector<std::string> kTuning = {"--dragonfly_conn_use_incoming_cpu",
                                          "--redis_pin_network", "--valkey_pin_network",
                                          "--pin-network"};

std::vector<Command> Commands() {
  return {
      {{"setup"},
       {"--no-pin", "--tune-network", "--yes", "-y", "--dry-run"},
       {"--engines", "foodb"},
       2,
       "unknown engine"},
      {{"quickstart"},
       Concat({"--distinct-client-seed", "--skip-destroy", "--no-pin", "--tune-network", "--yes",
               "-y", "--dry-run"},
              kTuning),
       {"--engines", "foodb"},
       2,
       "unknown engine"},
      {{"run"}, Concat({"--distinct-client-seed"}, kTuning), {"--id", "nope"}, 3, "not found"},
      {{"run-commands", "--command", "SET", "--engines", "redis"},
       Concat({"--distinct-client-seed"}, kTuning),
       {"--id", "nope"},
       3,
       "not found"},
      {{"run-commands", "--command-template", "SET __key__ __data__", "--engines", "redis"},
       {"--command-mutates", "--command-drains"},
       {"--id", "nope"},
       3,
       "not found"},
      {{"run-commands-dfly", "--command", "SET", "--engines", "redis"},
       kTuning,
       {"--id", "nope"},
       3,
       "not found"},
      {{"destroy"}, {"--yes", "-y"}, {"--id", "nope"}, 3, "not found"},
      {{"info"}, {"--json"}, {"--id", "nope"}, 3, "not found"},
      {{"ssh"}, {"--print"}, {"--id", "nope"}, 3, "not found"},
  };
}

TEST(BooleanFlags, BareFalseAndTrueEachFollowedByAnotherFlag) {
  DfbenchRunner dfb("booleans");
  for (const auto& c : Commands()) {
    for (const auto& flag : c.booleans) {
      std::vector<std::string> forms = {flag};
      if (flag.rfind("--", 0) == 0) {  // a short flag (-y) has no =value form
        forms.insert(forms.end(), {flag + "=false", flag + "=true", flag + "=0", flag + "=1"});
      }
      for (const auto& form : forms) {
        auto args = Concat(Concat(c.head, {form}), c.tail);
        auto r = dfb.Run(args);
        EXPECT_EQ(r.code, c.code) << c.head[0] << " " << form << ": " << r.err;
        EXPECT_TRUE(Contains(r.err, c.needle)) << c.head[0] << " " << form << ": " << r.err;
        EXPECT_EQ(CountLines(r.err), 1) << r.err;
      }
    }
  }
}

TEST(BooleanFlags, BareBooleanBeforeAValuedFlag) {
  DfbenchRunner dfb("bare-before-value");
  // Used to fail with "Could not convert: --dragonfly_conn_use_incoming_cpu = --trials".
  auto r = dfb.Run({"run", "--id", "nope", "--dragonfly_conn_use_incoming_cpu", "--trials", "1"});
  EXPECT_EQ(r.code, 3) << r.err;
  // The flag after the boolean is read as a flag: its own check fires.
  r = dfb.Run({"run", "--id", "nope", "--redis_pin_network", "--trials", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(Contains(r.err, "--trials")) << r.err;
}

TEST(BooleanFlags, BadValueIsOneLineNamingTheFlag) {
  DfbenchRunner dfb("bad-boolean");
  for (const auto& c : Commands()) {
    for (const auto& flag : c.booleans) {
      if (flag.rfind("--", 0) != 0) continue;
      auto r = dfb.Run(Concat(Concat(c.head, {flag + "=maybe"}), c.tail));
      EXPECT_EQ(r.code, 2) << flag << ": " << r.err;
      EXPECT_EQ(CountLines(r.err), 1) << r.err;
      EXPECT_TRUE(Contains(r.err, "dfbench: " + flag + ": invalid boolean value \"maybe\""))
          << r.err;
    }
  }
}

TEST(BooleanFlags, ValuesReachTheSetup) {
  DfbenchRunner dfb("boolean-values");
  auto r = dfb.Run({"setup", "--id", "pinned", "--no-pin=false", "--engines", "redis"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(dfb.State("pinned")["settings"]["pin_cpus"], true);
  // Where the reference puts it: top level; no Ubuntu release outside AWS.
  EXPECT_EQ(dfb.State("pinned")["tune_network"], false);
  EXPECT_FALSE(dfb.State("pinned").contains("ubuntu_version"));
  EXPECT_FALSE(dfb.State("pinned")["settings"].contains("tune_network"));
  r = dfb.Run({"setup", "--id", "unpinned", "--no-pin", "--engines", "redis"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(dfb.State("unpinned")["settings"]["pin_cpus"], false);

  // A run records what the booleans said.
  r = dfb.Run({"run",
               "--id",
               "unpinned",
               "--engines",
               "redis",
               "--distinct-client-seed",
               "--redis_pin_network=false",
               "--memtier-threads",
               "1",
               "--memtier-clients",
               "2",
               "--memtier-requests",
               "1000",
               "--warmup-requests",
               "0",
               "--trials",
               "1",
               "--cooldown",
               "0",
               "--output",
               "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["memtier"]["distinct_client_seed"], true);
  EXPECT_FALSE(out["engines"][0]["tuning"].contains("pin_network")) << out["engines"][0]["tuning"];
  // The same in the engine row, where the reference puts it.
  EXPECT_EQ(out["engines"][0]["pin_network"], false) << out["engines"][0];
  EXPECT_EQ(out["engines"][0]["io_threads"], 0) << out["engines"][0];
  EXPECT_FALSE(out["engines"][0].contains("num_shards")) << out["engines"][0];
}

// A regular file to name as --ssh-key (setup checks the key before its plan); never offered to
// a host, since every test below stops before contacting one.
std::string PlaceholderKey() {
  static const ScopedTempDir dir("placeholder-key");
  const std::filesystem::path key = dir / "id_ed25519";
  if (!std::filesystem::exists(key)) std::ofstream(key) << "placeholder\n";
  return key.string();
}

// An ssh setup of hosts that do not exist: every test below stops before contacting them.
std::vector<std::string> SshSetup(const std::string& command, const std::string& id) {
  return {command,    "--id",      id,         "--provider", "ssh",
          "--server", "192.0.2.1", "--client", "192.0.2.2",  "--ssh-user",
          "ubuntu",   "--engines", "redis",    "--ssh-key",  PlaceholderKey()};
}

// The last line of `text` that is not empty.
std::string LastLine(const std::string& text) {
  const size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  const size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start + 1) + 1);
}

TEST(Confirmation, EndOfInputWithoutYesChangesNothing) {
  DfbenchRunner dfb("no-terminal");
  for (const char* command : {"setup", "quickstart"}) {
    // Empty input: stdin is a pipe closed at once, as </dev/null.
    auto r = dfb.Run(SshSetup(command, "lab"), std::chrono::seconds(20));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(Contains(r.err, "Proceed? [y/N]")) << r.err;
    EXPECT_EQ(LastLine(r.err),
              "dfbench: no answer on stdin (end of input): pass --yes (or set "
              "DFBENCH_NO_CONFIRM=1) to go on; nothing changed")
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(dfb.SetupDir("lab"))) << command;
  }
  // The same through the shell's own redirection.
  auto r = core::RunCapture(
      {"sh", "-c", hosts::ShellJoin(dfb.Argv(SshSetup("setup", "lab"))) + " </dev/null"},
      std::chrono::seconds(20));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status.code, 2) << r->err;
  EXPECT_TRUE(Contains(r->err, "(end of input): pass --yes")) << r->err;
  // DFBENCH_NO_CONFIRM=0 still asks.
  auto argv = Concat({"env", "DFBENCH_NO_CONFIRM=0"}, dfb.Argv(SshSetup("setup", "lab")));
  r = core::RunCapture(argv, std::chrono::seconds(20));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status.code, 2) << r->err;
  // Local setups change nothing outside DFBENCH_HOME and do not ask.
  EXPECT_EQ(dfb.Run({"setup", "--id", "here", "--engines", "redis"}).code, 0);
  EXPECT_EQ(dfb.Run({"destroy", "--id", "here"}).code, 0);
}

// An ssh setup of this machine on a port where nothing listens: a command that goes past the
// prompt fails at once reaching the host (exit 5), one that stops at the prompt changes nothing.
std::vector<std::string> RefusedSshSetup(const std::string& id, const std::string& key) {
  return {"setup",     "--id",      id,          "--provider", "ssh", "--server",
          "127.0.0.1", "--client",  "127.0.0.1", "--ssh-port", "1",   "--ssh-user",
          "nobody",    "--engines", "redis",     "--ssh-key",  key};
}

TEST(Confirmation, APipedYIsAnAnswer) {
  DfbenchRunner dfb("piped-answer");
  const std::string key = (dfb.home() / "id_ed25519").string();
  auto keygen = core::RunCapture({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key});
  ASSERT_TRUE(keygen && keygen->status.ok()) << (keygen ? keygen->err : keygen.error().message);
  const core::RunOptions piped_y{.timeout = std::chrono::seconds(60), .stdin_data = "y\n"};
  auto r = core::RunCapture(dfb.Argv(RefusedSshSetup("lab", key)), piped_y);
  ASSERT_TRUE(r);
  EXPECT_TRUE(Contains(r->err, "Proceed? [y/N]")) << r->err;
  EXPECT_FALSE(Contains(r->err, "nothing changed")) << r->err;
  EXPECT_EQ(r->status.code, 5) << r->err;  // went on, and the host refused
  ASSERT_TRUE(std::filesystem::exists(dfb.SetupDir("lab") / "state.json"));

  // destroy asks about the same hosts: no answer keeps the setup, a piped y goes on.
  auto kept = dfb.Run({"destroy", "--id", "lab"}, std::chrono::seconds(20));
  EXPECT_EQ(kept.code, 2) << kept.err;
  EXPECT_TRUE(Contains(kept.err, "(end of input): pass --yes")) << kept.err;
  EXPECT_NE(dfb.State("lab")["status"], "destroyed");
  auto sh = core::RunCapture(
      {"sh", "-c", "echo y | " + hosts::ShellJoin(dfb.Argv({"destroy", "--id", "lab"}))},
      std::chrono::seconds(60));
  ASSERT_TRUE(sh);
  EXPECT_TRUE(Contains(sh->err, "Proceed? [y/N]")) << sh->err;
  EXPECT_FALSE(Contains(sh->err, "nothing changed")) << sh->err;
  EXPECT_EQ(sh->status.code, 0) << sh->err;
  EXPECT_EQ(dfb.State("lab")["status"], "destroyed") << sh->err;
}

TEST(Confirmation, AnsweringNoOnATerminalChangesNothing) {
  DfbenchRunner dfb("answer-no");
  for (const std::string answer : {"n\n", "\n", "maybe\n"}) {
    auto r = RunOnTerminal(dfb, SshSetup("setup", "lab"), answer);
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_TRUE(Contains(r.out, "setup lab will change these hosts over SSH:")) << r.out;
    EXPECT_TRUE(Contains(r.out, "server     192.0.2.1")) << r.out;
    EXPECT_TRUE(Contains(r.out, "log in as ubuntu on port 22")) << r.out;
    EXPECT_TRUE(Contains(r.out, "server: find redis")) << r.out;
    EXPECT_TRUE(Contains(r.out, "network tuning: none")) << r.out;
    EXPECT_TRUE(Contains(r.out, "Proceed? [y/N]")) << r.out;
    EXPECT_TRUE(Contains(r.out, "dfbench: not confirmed; nothing changed")) << r.out;
    EXPECT_FALSE(std::filesystem::exists(dfb.home() / "runs")) << r.out;
  }
}

TEST(Confirmation, DryRunPrintsThePlanAndCreatesNothing) {
  DfbenchRunner dfb("dry-run");
  auto r = dfb.Run(Concat(SshSetup("setup", "lab"), {"--dry-run", "--tune-network"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "network tuning: steer the server NIC")) << r.err;
  EXPECT_TRUE(Contains(r.err, "dry run: nothing was created or changed")) << r.err;
  EXPECT_FALSE(Contains(r.err, "Proceed?")) << r.err;
  r = dfb.Run(Concat(SshSetup("quickstart", "qs"), {"--dry-run"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "then: benchmark, stop everything and remove")) << r.err;
  r = dfb.Run({"setup", "--id", "here", "--engines", "redis", "--dry-run"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "setup here on this machine (local provider)")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dfb.home() / "runs"));
}

TEST(Confirmation, LoadGeneratorBuildsArePlannedOnRemoteClientsOnly) {
  DfbenchRunner dfb("client-tools");
  auto r = dfb.Run(Concat(SshSetup("setup", "lab"), {"--load-generator", "memtier",
                                                     "--dfly-bench-ref", "v1.31.0", "--dry-run"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "client: find memtier_benchmark on the PATH or in ~/.local/bin"));
  EXPECT_TRUE(Contains(r.err, "or build memtier_benchmark 2.3.0 from source")) << r.err;
  EXPECT_TRUE(Contains(r.err, "or build dfly_bench at Dragonfly ref v1.31.0 from source")) << r.err;
  EXPECT_FALSE(Contains(r.err, "recorded as not installed")) << r.err;  // both asked for: required
  // A plain setup wants both, as the reference's, and goes on without one it cannot build.
  r = dfb.Run(Concat(SshSetup("setup", "lab"), {"--dry-run"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "or build memtier_benchmark 2.3.0 from source")) << r.err;
  EXPECT_TRUE(Contains(r.err, "or build dfly_bench at Dragonfly ref main from source")) << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "where the client cannot (no network, say), it is recorded as not "
                       "installed and setup goes on"))
      << r.err;
  r = dfb.Run(Concat(SshSetup("setup", "lab"), {"--load-generator", "builtin", "--dry-run"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(Contains(r.err, "client: find")) << r.err;
  r = dfb.Run(Concat(SshSetup("quickstart", "qs"), {"--load-generator", "memtier", "--dry-run"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "build memtier_benchmark 2.3.0")) << r.err;
  EXPECT_FALSE(Contains(r.err, "dfly_bench")) << r.err;  // quickstart's run needs memtier only
  // This machine: nothing is built here; a ref that is not one stops before anything.
  r = dfb.Run({"setup", "--id", "here", "--engines", "redis", "--load-generator", "memtier"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_TRUE(Contains(r.err, "--load-generator memtier needs a remote client")) << r.err;
  r = dfb.Run({"setup", "--id", "here", "--engines", "redis", "--dfly-bench-ref", "v1.31.0"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "--dfly-bench-ref needs a remote client")) << r.err;
  // quickstart runs a memtier_benchmark it is given here, so it takes the flag on this machine.
  r = dfb.Run({"quickstart", "--load-generator", "memtier", "--engines", "foodb"});
  EXPECT_FALSE(Contains(r.err, "needs a remote client")) << r.err;
  r = dfb.Run(Concat(SshSetup("setup", "lab"), {"--dfly-bench-ref", "main;reboot", "--yes"}));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "--dfly-bench-ref \"main;reboot\": not a git branch")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dfb.home() / "runs"));
}

TEST(List, ReferenceColumnsNewestFirst) {
  DfbenchRunner dfb("list");
  ASSERT_EQ(dfb.Run({"setup", "--id", "older", "--engines", "redis"}).code, 0);
  // Made earlier, as its record says (created_at has seconds: no waiting for the next one).
  nlohmann::json older_state = dfb.State("older");
  older_state["created_at"] = "2026-01-01T00:00:00Z";
  ASSERT_TRUE(core::WriteFileAtomic(dfb.SetupDir("older") / "state.json", older_state.dump(2)));
  ASSERT_EQ(dfb.Run({"setup", "--id", "newer", "--engines", "redis"}).code, 0);
  ASSERT_EQ(dfb.Run({"destroy", "--id", "older"}).code, 0);
  const int vcpus = dfb.State("newer")["hosts"][0]["vcpus"];
  const std::string machine = "local " + std::to_string(vcpus) + " vCPU";
  auto r = dfb.Run({"list"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("ID     STATUS  REGION  SERVER", 0), 0u) << r.out;
  EXPECT_TRUE(Contains(r.out, "  CLIENT ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "  AGE\n")) << r.out;
  EXPECT_TRUE(Contains(r.out, "\nnewer  ready   local   " + machine + "  " + machine + "  "))
      << r.out;
  EXPECT_FALSE(Contains(r.out, "older")) << r.out;
  r = dfb.Run({"list", "--all"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto newer = r.out.find("\nnewer "), older = r.out.find("\nolder  destroyed");
  ASSERT_NE(older, std::string::npos) << r.out;
  EXPECT_LT(newer, older) << r.out;  // newest first
}

// A command killed with -9 leaves its working status; list and info say that its command died
// instead of showing the setup at work, and the next command repairs it.
TEST(List, AWorkingStatusWhoseCommandDiedIsSaidSo) {
  DfbenchRunner dfb("list-died");
  ASSERT_EQ(dfb.Run({"setup", "--id", "crashed", "--engines", "redis"}).code, 0);
  // A pid that ran and is gone: a child of ours, reaped.
  const pid_t gone = fork();
  if (gone == 0) _exit(0);
  ASSERT_GT(gone, 0);
  ASSERT_EQ(waitpid(gone, nullptr, 0), gone);
  nlohmann::json st = dfb.State("crashed");
  st["status"] = "benchmarking";
  st["active"] = {{"command", "run"}, {"pid", gone}, {"started_at", "2026-12-07T03:00:00Z"}};
  ASSERT_TRUE(core::WriteFileAtomic(dfb.SetupDir("crashed") / "state.json", st.dump(2)));

  auto r = dfb.Run({"list"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "crashed  benchmarking (died)  ")) << r.out;
  EXPECT_TRUE(Contains(r.err, "(died): the command that set this status is gone")) << r.err;
  r = dfb.Run({"info", "--id", "crashed"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "Status:    benchmarking (its command, run pid " +
                                  std::to_string(gone) +
                                  ", died; the next command on the setup "
                                  "repairs it)\n"))
      << r.out;
  // Our own pid runs: no such note.
  st["active"]["pid"] = getpid();
  ASSERT_TRUE(core::WriteFileAtomic(dfb.SetupDir("crashed") / "state.json", st.dump(2)));
  r = dfb.Run({"list"});
  EXPECT_TRUE(Contains(r.out, "crashed  benchmarking  ")) << r.out;
}

// A result written nowhere is a failure: stdout on a full device is exit 1 and one line.
TEST(Stdout, AFailedWriteIsAnErrorExit) {
  DfbenchRunner dfb("stdout-full");
  ASSERT_EQ(dfb.Run({"setup", "--id", "listed", "--engines", "redis"}).code, 0);
  const std::string run = FixturePath("results/reference_run.json").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", run, run},
        {"list"},
        {"version"},
        {"compare", run, run, "--format", "json"},
        {"run", "--id", "listed", "--engines", "redis", "--memtier-threads", "1",
         "--memtier-clients", "1", "--memtier-requests", "100", "--warmup-requests", "0",
         "--trials", "1", "--cooldown", "0s", "--output", "json"}}) {
    const auto err = dfb.home() / "full.stderr";
    auto p = core::Spawn(
        {.argv = dfb.Argv(args), .stdout_path = "/dev/full", .stderr_path = err.string()});
    ASSERT_TRUE(p) << p.error().message;
    const core::ExitStatus status = p->Wait();
    const std::string text = core::ReadFile(err).value_or("");
    EXPECT_EQ(status.code, 1) << args[0] << ": " << text;
    // The last line (a run's progress notes come before it).
    EXPECT_TRUE(
        text.ends_with("dfbench: cannot write to standard output: No space left on device\n"))
        << args[0] << ": " << text;
  }
  // Written in full, the same commands exit 0.
  EXPECT_EQ(dfb.Run({"compare", run, run}).code, 0);
}

TEST(Version, DashDashVersionPrintsIt) {
  DfbenchRunner dfb("version-flag");
  const CliResult flag = dfb.Run({"--version"});
  const CliResult command = dfb.Run({"version"});
  EXPECT_EQ(flag.code, 0) << flag.err;
  EXPECT_EQ(flag.out, command.out);
  EXPECT_EQ(flag.out.rfind("dfbench ", 0), 0u) << flag.out;
}

const std::vector<std::string> kSubcommands = {
    "setup",      "run",     "run-commands", "run-commands-dfly",
    "quickstart", "loadgen", "compare",      "report",
    "info",       "list",    "ssh",          "destroy",
    "version",    "help",    "completion"};

TEST(Help, SameTextAsDashDashHelp) {
  DfbenchRunner dfb("help");
  auto top = dfb.Run({"--help"});
  auto r = dfb.Run({"help"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, top.out);
  for (const auto& command : kSubcommands) {
    EXPECT_TRUE(Contains(top.out, command)) << command;
    auto flag = dfb.Run({command, "--help"});
    r = dfb.Run({"help", command});
    EXPECT_EQ(r.code, 0) << command << ": " << r.err;
    EXPECT_EQ(r.out, flag.out) << command;
    EXPECT_TRUE(Contains(r.out, "dfbench " + command)) << r.out;
  }
  r = dfb.Run({"help", "runn"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_TRUE(Contains(r.err, "unknown command 'runn' (did you mean 'run'?)")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// Runs `script` (bash) with the completion script loaded; returns its stdout.
std::string InBash(const std::string& completion, const std::string& script) {
  auto r = core::RunCapture({"bash", "-c", completion + "\n" + script});
  return r ? r->out : r.error().message;
}

// What bash offers after `line` (words separated by spaces; the last one is being typed).
std::string Complete(const std::string& completion, const std::string& line) {
  return InBash(completion, "COMP_WORDS=(" + line +
                                "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _dfbench; echo "
                                "\"${COMPREPLY[*]}\"");
}

TEST(Completion, BashScriptParsesAndCompletesCommandsAndFlags) {
  DfbenchRunner dfb("completion");
  auto r = dfb.Run({"completion", "bash"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string bash = r.out;
  auto check = core::RunCapture({"bash", "-n", "-c", bash});
  ASSERT_TRUE(check);
  EXPECT_EQ(check->status.code, 0) << check->err;
  for (const auto& command : kSubcommands) {
    EXPECT_TRUE(Contains(bash, " " + command + ") words=")) << command;
  }
  const std::string all = Complete(bash, "dfbench ''");  // nothing typed yet: every command
  for (const auto& command : kSubcommands) EXPECT_TRUE(Contains(all, command)) << all;
  EXPECT_EQ(Complete(bash, "dfbench run-c"), "run-commands run-commands-dfly\n");
  EXPECT_EQ(Complete(bash, "dfbench de"), "destroy\n");
  EXPECT_TRUE(Contains(Complete(bash, "dfbench setup --id lab --"), "--dry-run")) << bash;
  EXPECT_TRUE(Contains(Complete(bash, "dfbench setup --ye"), "--yes"));
  EXPECT_EQ(Complete(bash, "dfbench run --dragonfly_c"),
            "--dragonfly_conn_use_incoming_cpu --dragonfly_cluster_mode\n");
  EXPECT_EQ(Complete(bash, "dfbench run --dragonfly_con"), "--dragonfly_conn_use_incoming_cpu\n");
  EXPECT_EQ(Complete(bash, "dfbench completion f"), "fish\n");
  EXPECT_EQ(Complete(bash, "dfbench help ver"), "version\n");
  // Deprecated spellings are not offered.
  EXPECT_FALSE(Contains(Complete(bash, "dfbench run --pin"), "--pin-network"));
}

TEST(Completion, ZshAndFishScripts) {
  DfbenchRunner dfb("completion-shells");
  for (const char* shell : {"zsh", "fish"}) {
    auto r = dfb.Run({"completion", shell});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const auto& command : kSubcommands) {
      EXPECT_TRUE(Contains(r.out, command)) << shell << " " << command;
    }
    // Checked by the shell itself where it is installed.
    if (core::FindOnPath(shell)) {
      auto check = core::RunCapture({shell, "-n", "-c", r.out});
      ASSERT_TRUE(check);
      EXPECT_EQ(check->status.code, 0) << shell << ": " << check->err;
    }
  }
  auto r = dfb.Run({"completion", "tcsh"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
}

}  // namespace
}  // namespace dfbench::testing
