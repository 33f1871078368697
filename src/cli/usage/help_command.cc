#include "cli/commands.h"
#include "core/standard_output.h"

namespace dfbench::cli {
namespace {

// The same text as `dfbench --help` / `dfbench <command> --help`.
int RunHelp(const CLI::App* help, const std::string& topic) {
  const CLI::App* app = help->get_parent();
  std::string text;
  if (topic.empty()) {
    text = app->get_formatter()->make_help(app, app->get_name(), CLI::AppFormatMode::Normal);
  } else {
    const CLI::App* command = nullptr;
    for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->get_name() == topic) command = sub;
    }
    if (!command) ExitWith(core::ErrorKind::kUsage, UnknownCommandMessage(topic));
    text = command->get_formatter()->make_help(command, app->get_name() + " " + topic,
                                               CLI::AppFormatMode::Normal);
  }
  core::WriteStdout(text);
  return 0;
}

}  // namespace

void AddHelp(CLI::App* sub, Action* action) {
  auto topic = std::make_shared<std::string>();
  sub->add_option("command", *topic, "The command to explain (default: all of them)");
  sub->callback([sub, topic, action] { *action = [sub, topic] { return RunHelp(sub, *topic); }; });
}

}  // namespace dfbench::cli
