// Test fixture: DFBENCH_HOME points at a fresh temporary directory for each test, and is
// restored (the directory removed) afterwards.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

#include "support/scoped_temp_dir.h"

namespace dfbench::testing {

class DfbenchHomeTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  std::filesystem::path home_;

 private:
  std::optional<ScopedTempDir> dir_;
  std::optional<std::string> saved_;
};

}  // namespace dfbench::testing
