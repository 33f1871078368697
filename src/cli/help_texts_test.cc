#include "cli/help_texts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/example_lines.h"

namespace dfbench::cli {
namespace {

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
    for (const ExampleLine& line : ExampleCommandLines(HelpText(key))) {
      Action action;
      const auto app = MakeApp(&action);
      EXPECT_NO_THROW(app->parse(line.args, /*program_name_included=*/false))
          << key << ": " << line.args;
      EXPECT_TRUE(action) << key << ": " << line.args;
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
