#include <map>

#include "cli/commands.h"
#include "core/standard_output.h"
#include "hosts/ssh_command.h"

namespace dfbench::cli {
namespace {

const std::vector<std::string> kShells = {"bash", "zsh", "fish"};

// What completes after one subcommand: its visible flags, and the words its positional
// argument takes (help: a command; completion: a shell).
struct Completions {
  std::string name;
  std::string summary;
  std::vector<std::pair<std::string, std::string>> flags;  // "--long" or "-s", description
  std::vector<std::string> words;
};

std::vector<Completions> Collect(const CLI::App* app) {
  std::vector<Completions> out;
  for (const auto& spec : Commands()) {
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : app->get_subcommands([](const CLI::App*) { return true; })) {
      if (s->get_name() == spec.name) sub = s;
    }
    if (!sub) continue;
    Completions c{spec.name, spec.summary, {}, {}};
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->get_group().empty()) continue;  // hidden: deprecated spellings
      const std::string help = opt->get_description().substr(0, opt->get_description().find('\n'));
      // The first long name; later ones are deprecated spellings (--num-shards).
      if (!opt->get_lnames().empty()) c.flags.emplace_back("--" + opt->get_lnames()[0], help);
      for (const auto& s : opt->get_snames()) c.flags.emplace_back("-" + s, help);
    }
    if (c.name == "help") {
      for (const auto& other : Commands()) c.words.emplace_back(other.name);
    }
    if (c.name == "completion") c.words = kShells;
    out.push_back(std::move(c));
  }
  return out;
}

// Inside '...' for fish, which escapes \ and ' with a backslash.
std::string FishQuoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'' || ch == '\\') out.push_back('\\');
    out.push_back(ch);
  }
  out.push_back('\'');
  return out;
}

std::string WordsOf(const Completions& c) {
  std::string words;
  for (const auto& [flag, help] : c.flags) words += (words.empty() ? "" : " ") + flag;
  for (const auto& w : c.words) words += (words.empty() ? "" : " ") + w;
  return words;
}

std::string JoinedNames(const std::vector<Completions>& commands) {
  std::string names;
  for (const auto& c : commands) names += (names.empty() ? "" : " ") + c.name;
  return names;
}

// One shell's script: its opening (which may list the commands), a part per command (what
// completes after it), and its closing.
struct ShellScript {
  std::string (*opening)(const std::vector<Completions>& commands);
  std::string (*per_command)(const Completions& c);
  const char* closing;
};

std::string BashOpening(const std::vector<Completions>& commands) {
  return R"sh(# bash completion for dfbench: eval "$(dfbench completion bash)"
_dfbench() {
  local cur=${COMP_WORDS[COMP_CWORD]} command= i words
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      -*) ;;
      *) command=${COMP_WORDS[i]}; break ;;
    esac
  done
  case $command in
    '') words=)sh" +
         hosts::ShellQuote(JoinedNames(commands) + " --help") + " ;;\n";
}

std::string BashCommand(const Completions& c) {
  return "    " + c.name + ") words=" + hosts::ShellQuote(WordsOf(c)) + " ;;\n";
}

constexpr const char* kBashClosing = R"sh(    *) words= ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _dfbench dfbench
)sh";

std::string ZshOpening(const std::vector<Completions>& commands) {
  std::string s = R"sh(#compdef dfbench
# zsh completion for dfbench: eval "$(dfbench completion zsh)", or save it as _dfbench
# in a directory of $fpath
_dfbench() {
  local -a commands
  commands=(
)sh";
  for (const auto& c : commands) s += "    " + hosts::ShellQuote(c.name + ":" + c.summary) + "\n";
  return s + R"sh(  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'dfbench command' commands
    return
  fi
  case ${words[2]} in
)sh";
}

std::string ZshCommand(const Completions& c) {
  return "    " + c.name + ") compadd -- " + WordsOf(c) + " ;;\n";
}

constexpr const char* kZshClosing = R"sh(  esac
}
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
  _dfbench "$@"
else
  compdef _dfbench dfbench
fi
)sh";

std::string FishOpening(const std::vector<Completions>& commands) {
  std::string s = R"sh(# fish completion for dfbench: dfbench completion fish | source
complete -c dfbench -f
)sh";
  for (const auto& c : commands) {
    s += "complete -c dfbench -n __fish_use_subcommand -a " + c.name + " -d " +
         FishQuoted(c.summary) + "\n";
  }
  return s;
}

std::string FishCommand(const Completions& c) {
  const std::string when = " -n '__fish_seen_subcommand_from " + c.name + "'";
  std::string s;
  for (const auto& [flag, help] : c.flags) {
    const bool is_long = flag.rfind("--", 0) == 0;
    s += "complete -c dfbench" + when +
         (is_long ? " -l " + flag.substr(2) : " -s " + flag.substr(1)) +
         (help.empty() ? "" : " -d " + FishQuoted(help)) + "\n";
  }
  for (const auto& w : c.words) s += "complete -c dfbench" + when + " -a " + w + "\n";
  return s;
}

const std::map<std::string, ShellScript>& Scripts() {
  static const std::map<std::string, ShellScript> scripts = {
      {"bash", {BashOpening, BashCommand, kBashClosing}},
      {"zsh", {ZshOpening, ZshCommand, kZshClosing}},
      {"fish", {FishOpening, FishCommand, ""}},
  };
  return scripts;
}

int RunCompletion(const CLI::App* sub, const std::string& shell) {
  const auto commands = Collect(sub->get_parent());
  const ShellScript& script = Scripts().at(shell);
  std::string text = script.opening(commands);
  for (const auto& c : commands) text += script.per_command(c);
  text += script.closing;
  core::WriteStdout(text);
  return 0;
}

}  // namespace

void AddCompletion(CLI::App* sub, Action* action) {
  auto shell = std::make_shared<std::string>();
  sub->add_option("shell", *shell, "bash, zsh or fish")->required()->check(CLI::IsMember(kShells));
  sub->callback(
      [sub, shell, action] { *action = [sub, shell] { return RunCompletion(sub, *shell); }; });
}

}  // namespace dfbench::cli
