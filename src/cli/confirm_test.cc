#include "cli/confirm.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

namespace dfbench::cli {
namespace {

struct ConfirmOutcome {
  core::Status status;
  std::string shown;
};

// Runs the prompt with `answer` written into a pipe as its input; the pipe is closed after the
// answer unless `keep_open` (a writer that never answers).
ConfirmOutcome Ask(const std::string& answer, bool yes = false, bool env = false,
                   bool keep_open = false) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  EXPECT_EQ(write(fds[1], answer.data(), answer.size()), static_cast<ssize_t>(answer.size()));
  if (!keep_open) close(fds[1]);
  char* buffer = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  ConfirmOutcome o{
      Confirm("the plan\n", yes, env,
              PromptIo{.in_fd = fds[0], .answer_wait = std::chrono::milliseconds(300), .out = out}),
      ""};
  std::fclose(out);
  o.shown.assign(buffer, size);
  std::free(buffer);
  close(fds[0]);
  if (keep_open) close(fds[1]);
  return o;
}

TEST(Confirm, OnlyYOrYesGoesOn) {
  for (const char* answer : {"y\n", "yes\n", "Y\n", "YES\n", " y \n", "y", "y\nmore\n"}) {
    ConfirmOutcome o = Ask(answer);
    EXPECT_TRUE(o.status) << answer;
    EXPECT_EQ(o.shown, "the plan\nProceed? [y/N] ");
  }
  for (const char* answer : {"n\n", "\n", "no\n", "yep\n", "sure\n", "n"}) {
    ConfirmOutcome o = Ask(answer);
    ASSERT_FALSE(o.status) << answer;
    EXPECT_EQ(o.status.error().kind, core::ErrorKind::kFailure) << answer;
    EXPECT_EQ(o.status.error().message, "not confirmed; nothing changed");
  }
}

TEST(Confirm, EndOfInputIsAUsageErrorAdvisingYes) {
  ConfirmOutcome o = Ask("");
  ASSERT_FALSE(o.status);
  EXPECT_EQ(o.status.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(o.status.error().message,
            "no answer on stdin (end of input): pass --yes (or set DFBENCH_NO_CONFIRM=1) to go "
            "on; nothing changed");
  EXPECT_EQ(o.shown, "the plan\nProceed? [y/N] \n");
}

TEST(Confirm, AnInputThatNeverAnswersEndsAtTheDeadline) {
  ConfirmOutcome o = Ask("", false, false, /*keep_open=*/true);
  ASSERT_FALSE(o.status);
  EXPECT_EQ(o.status.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(o.status.error().message.find("no answer on stdin within"), std::string::npos)
      << o.status.error().message;
  EXPECT_NE(o.status.error().message.find("pass --yes"), std::string::npos);
}

TEST(Confirm, YesOrTheEnvironmentSkipsTheQuestion) {
  ConfirmOutcome o = Ask("", /*yes=*/true);
  EXPECT_TRUE(o.status);
  EXPECT_EQ(o.shown, "the plan\n");  // shown, not asked
  o = Ask("", false, /*env=*/true);
  EXPECT_TRUE(o.status);
  EXPECT_EQ(o.shown, "the plan\n");
}

}  // namespace
}  // namespace dfbench::cli
