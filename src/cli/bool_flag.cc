#include "cli/bool_flag.h"

namespace dfbench::cli {

std::optional<bool> ParseGoBool(const std::string& text) {
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (text == t) return true;
  }
  for (const char* f : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (text == f) return false;
  }
  return std::nullopt;
}

CLI::Option* AddBoolFlag(CLI::App* app, const std::string& names, bool* target,
                         const std::string& help) {
  return AddBoolFlag(
      app, names, [target](bool on) { *target = on; }, help);
}

CLI::Option* AddBoolFlag(CLI::App* app, const std::string& names, std::function<void(bool)> set,
                         const std::string& help) {
  // A flag (never an option) so that a bare one cannot swallow the next argument; CLI11 hands
  // over "true" when bare and the text after '=' otherwise.
  CLI::Option* opt = app->add_flag(names, help);
  opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  // Named here, not by CLI11, which leaves the name of a hidden (deprecated) flag empty.
  const std::string name = names.substr(0, names.find(','));
  opt->check(CLI::Validator(
      [name](std::string& value) -> std::string {
        if (ParseGoBool(value)) return "";
        throw CLI::ConversionError(name + ": invalid boolean value \"" + value +
                                   "\" (use the bare flag, " + name + "=true or " + name +
                                   "=false)");
      },
      ""));
  opt->each([set = std::move(set)](const std::string& value) {
    if (auto on = ParseGoBool(value)) set(*on);
  });
  return opt;
}

}  // namespace dfbench::cli
