#include "cli/help_texts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/command.h"

namespace dfbench::cli {
namespace {

// The dfbench command lines of a help text: continuation lines joined, each cut where the shell
// would take over (a pipe, a redirection, a comment), without the leading "dfbench".
std::vector<std::string> ExampleCommandLines(std::string_view text) {
  std::string joined(text);
  for (size_t at; (at = joined.find("\\\n")) != std::string::npos;) joined.replace(at, 2, " ");
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < joined.size()) {
    size_t end = joined.find('\n', start);
    if (end == std::string::npos) end = joined.size();
    std::string line = joined.substr(start, end - start);
    start = end + 1;
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || line.compare(first, 8, "dfbench ") != 0) continue;
    char quote = 0;
    size_t cut = first + 8;
    for (; cut < line.size(); ++cut) {
      const char c = line[cut];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '|' || c == '>' || c == '#' || c == ';') {
        break;
      }
    }
    lines.push_back(line.substr(first + 8, cut - first - 8));
  }
  return lines;
}

TEST(HelpText, EveryCommandHasExamples) {
  for (const auto& spec : Commands()) {
    EXPECT_NE(HelpText(spec.name).find("dfbench"), std::string_view::npos) << spec.name;
  }
  EXPECT_FALSE(HelpText("cache_list").empty());
  EXPECT_TRUE(HelpText("no-such-command").empty());
}

TEST(HelpText, ExamplesParse) {
  size_t checked = 0;
  auto check = [&checked](const std::string& key) {
    for (const std::string& line : ExampleCommandLines(HelpText(key))) {
      Action action;
      const auto app = MakeApp(&action);
      EXPECT_NO_THROW(app->parse(line, /*program_name_included=*/false)) << key << ": " << line;
      EXPECT_TRUE(action) << key << ": " << line;
      ++checked;
    }
  };
  for (const auto& spec : Commands()) check(spec.name);
  check("cache_list");
  check("cache_add");
  check("cache_prune");
  EXPECT_GT(checked, Commands().size());
}

}  // namespace
}  // namespace dfbench::cli
