#include "core/table.h"

#include <gtest/gtest.h>

namespace dfbench::core {
namespace {

TEST(Table, ColumnsLineUp) {
  Table t({"ENGINE", "OPS/SEC"}, {Table::Align::kLeft, Table::Align::kRight});
  t.AddRow({"redis", "12"});
  t.AddRow({"dragonfly", "1234567"});
  EXPECT_EQ(t.Render(),
            "ENGINE     OPS/SEC\n"
            "redis           12\n"
            "dragonfly  1234567\n");
}

TEST(Table, MultiByteCharactersCountOnce) {
  Table t({"A", "B"});
  t.AddRow({"µs", "x"});
  t.AddRow({"abc", "y"});
  EXPECT_EQ(t.Render(), "A    B\nµs   x\nabc  y\n");
}

TEST(Table, OutsideTextComesOutClean) {
  Table t({"ENGINE", "VERSION"});
  t.AddRow({"redis", "\x1b[31m7.2.4\x1b]0;pwned\a\r"});
  EXPECT_EQ(t.Render(), "ENGINE  VERSION\nredis   7.2.4\\x0d\n");
}

}  // namespace
}  // namespace dfbench::core
