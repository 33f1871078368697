#include "core/error.h"

#include <gtest/gtest.h>

#include "core/format.h"

namespace dfbench::core {
namespace {

Error ShorterThan() {
  return FailAbout(ErrorKind::kUsage, {"snapshot_delay", "test_time"},
                   "{0} (5s) must be shorter than {1} (5s)")
      .value();
}

TEST(FailAbout, TheMessageNamesTheOptionsByFieldAndCanBeWordedAgain) {
  const Error e = ShorterThan();
  EXPECT_EQ(e.kind, ErrorKind::kUsage);
  EXPECT_EQ(e.message, "snapshot_delay (5s) must be shorter than test_time (5s)");
  EXPECT_EQ(e.options, (std::vector<std::string>{"snapshot_delay", "test_time"}));
  EXPECT_EQ(e.Worded({"--snapshot-delay", "--test-time"}),
            "--snapshot-delay (5s) must be shorter than --test-time (5s)");
}

TEST(WithContext, KeepsTheOptionsAndTheirWording) {
  const Error e = WithContext(ShorterThan(), "run-memory");
  EXPECT_EQ(e.message, "run-memory: snapshot_delay (5s) must be shorter than test_time (5s)");
  EXPECT_EQ(e.options.size(), 2u);
  EXPECT_EQ(e.Worded({"a", "b"}), "run-memory: a (5s) must be shorter than b (5s)");
  // A context with braces is said as it is.
  EXPECT_EQ(WithContext(ShorterThan(), "{0}{{").Worded({"a", "b"}),
            "{0}{{: a (5s) must be shorter than b (5s)");
  // An error about no option stays plain.
  EXPECT_TRUE(WithContext(Error{ErrorKind::kUsage, "x"}, "y").wording.empty());
}

TEST(Worded, TakesBracesAndUnknownPlaceholdersAsText) {
  const Error e = FailAbout(ErrorKind::kUsage, {"keys"}, "{{0} {0} {1} {x} {").value();
  EXPECT_EQ(e.message, "{0} keys {1} {x} {");
  EXPECT_EQ(e.Worded({"--keys"}), "{0} --keys {1} {x} {");
  // A name not given keeps the field's.
  EXPECT_EQ(e.Worded({}), "{0} keys {1} {x} {");
  EXPECT_EQ(LiteralWording("a{b}{{"), "a{{b}{{{{");
}

}  // namespace
}  // namespace dfbench::core
