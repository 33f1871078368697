#include "support/test_data.h"

#include <gtest/gtest.h>

namespace dfbench::testing {
namespace {

TEST(SplitArgsTest, SingleQuotesGroupAndJoinArgsUndoesIt) {
  const auto args = SplitArgs("memtier --command 'LPUSH __key__ x' --ratio 1:10 '' z");
  EXPECT_EQ(args, (std::vector<std::string>{"memtier", "--command", "LPUSH __key__ x", "--ratio",
                                            "1:10", "", "z"}));
  EXPECT_EQ(JoinArgs(SplitArgs("a b  c")), "a b c");
}

}  // namespace
}  // namespace dfbench::testing
