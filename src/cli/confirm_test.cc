#include "cli/confirm.h"

#include <gtest/gtest.h>

#include <sstream>

namespace dfbench::cli {
namespace {

struct Outcome {
  core::Status status;
  std::string shown;
};

// Runs the prompt with `answer` typed on a terminal (or on a pipe when !terminal).
Outcome Ask(const std::string& answer, bool terminal, bool yes = false, bool env = false) {
  std::istringstream in(answer);
  char* buffer = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  Outcome o{Confirm("the plan\n", yes, env, PromptIo{.in = &in, .terminal = terminal, .out = out}),
            ""};
  std::fclose(out);
  o.shown.assign(buffer, size);
  std::free(buffer);
  return o;
}

TEST(Confirm, OnlyYOrYesGoesOn) {
  for (const char* answer : {"y\n", "yes\n", "Y\n", "YES\n", " y \n"}) {
    Outcome o = Ask(answer, true);
    EXPECT_TRUE(o.status) << answer;
    EXPECT_EQ(o.shown, "the plan\nProceed? [y/N] ");
  }
  for (const char* answer : {"n\n", "\n", "no\n", "yep\n", "sure\n", ""}) {
    Outcome o = Ask(answer, true);
    ASSERT_FALSE(o.status) << answer;
    EXPECT_EQ(o.status.error().kind, core::ErrorKind::kFailure) << answer;
    EXPECT_EQ(o.status.error().message, "not confirmed; nothing changed");
  }
}

TEST(Confirm, YesOrTheEnvironmentSkipsTheQuestion) {
  Outcome o = Ask("", false, /*yes=*/true);
  EXPECT_TRUE(o.status);
  EXPECT_EQ(o.shown, "the plan\n");  // shown, not asked
  o = Ask("", false, false, /*env=*/true);
  EXPECT_TRUE(o.status);
  EXPECT_EQ(o.shown, "the plan\n");
}

TEST(Confirm, WithoutATerminalStopsAtOnce) {
  Outcome o = Ask("y\n", /*terminal=*/false);  // a pipe's "y" is not an answer
  ASSERT_FALSE(o.status);
  EXPECT_EQ(o.status.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(o.status.error().message.find("pass --yes"), std::string::npos);
  EXPECT_EQ(o.shown, "");
}

}  // namespace
}  // namespace dfbench::cli
