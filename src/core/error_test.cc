#include "core/error.h"

#include <gtest/gtest.h>

#include "core/format.h"

namespace dfbench::core {
namespace {

Error ShorterThan() {
  return FailAbout(ErrorKind::kUsage, {"snapshot_delay", "test_time"},
                   [](const std::vector<std::string>& names) {
                     return Format("{} (5s) must be shorter than {} (5s)", names[0], names[1]);
                   })
      .value();
}

TEST(FailAbout, TheMessageNamesTheOptionsByFieldAndCanBeWordedAgain) {
  const Error e = ShorterThan();
  EXPECT_EQ(e.kind, ErrorKind::kUsage);
  EXPECT_EQ(e.message, "snapshot_delay (5s) must be shorter than test_time (5s)");
  EXPECT_EQ(e.options, (std::vector<std::string>{"snapshot_delay", "test_time"}));
  EXPECT_EQ(e.worded({"--snapshot-delay", "--test-time"}),
            "--snapshot-delay (5s) must be shorter than --test-time (5s)");
}

TEST(WithContext, KeepsTheOptionsAndTheirWording) {
  const Error e = WithContext(ShorterThan(), "run-memory");
  EXPECT_EQ(e.message, "run-memory: snapshot_delay (5s) must be shorter than test_time (5s)");
  EXPECT_EQ(e.options.size(), 2u);
  EXPECT_EQ(e.worded({"a", "b"}), "run-memory: a (5s) must be shorter than b (5s)");
  // An error about no option stays plain.
  EXPECT_FALSE(WithContext(Error{ErrorKind::kUsage, "x"}, "y").worded);
}

}  // namespace
}  // namespace dfbench::core
