#include "core/text.h"

#include <gtest/gtest.h>

namespace dfbench::core {
namespace {

TEST(TrimTest, DropsSurroundingWhitespaceOnly) {
  EXPECT_EQ(Trim("  a b\t\r\n"), "a b");
  EXPECT_EQ(Trim("\n"), "");
  EXPECT_EQ(Trim(""), "");
  EXPECT_EQ(Trim("x"), "x");
}

}  // namespace
}  // namespace dfbench::core
