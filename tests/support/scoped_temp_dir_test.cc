#include "support/scoped_temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>

namespace dfbench::testing {
namespace {

TEST(ScopedTempDirTest, IsUniqueAndRemovesItselfWithItsContents) {
  std::filesystem::path kept;
  {
    ScopedTempDir a("support"), b("support");
    EXPECT_NE(a.path(), b.path());
    EXPECT_TRUE(std::filesystem::is_directory(a.path()));
    std::filesystem::create_directories(a / "x" / "y");
    std::ofstream(a / "x" / "y" / "f") << "data";
    kept = a.path();
  }
  EXPECT_FALSE(std::filesystem::exists(kept));
}

TEST(ScopedTempDirTest, MovedFromRemovesNothing) {
  ScopedTempDir a("support");
  const auto path = a.path();
  {
    ScopedTempDir b(std::move(a));
    EXPECT_EQ(b.path(), path);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace dfbench::testing
