#include "support/scoped_change.h"

#include <gtest/gtest.h>

namespace dfbench::testing {
namespace {

TEST(ScopedChangeTest, UndoesAtTheEndOnlyWhatWasMade) {
  int undone = 0;
  {
    const ScopedChange made(true, [&undone] { ++undone; });
    const ScopedChange failed(false, [&undone] { undone += 10; });
    EXPECT_TRUE(made.made());
    EXPECT_FALSE(failed.made());
    EXPECT_EQ(undone, 0);
  }
  EXPECT_EQ(undone, 1);
}

}  // namespace
}  // namespace dfbench::testing
