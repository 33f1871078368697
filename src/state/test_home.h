// Test fixture: points DFBENCH_HOME at a fresh temporary directory for each test.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace dfbench::state {

class TempHomeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* old = std::getenv("DFBENCH_HOME")) saved_ = old;
    std::string templ = (std::filesystem::temp_directory_path() / "dfbench-state-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    home_ = templ;
    setenv("DFBENCH_HOME", home_.c_str(), 1);
  }
  void TearDown() override {
    if (saved_) {
      setenv("DFBENCH_HOME", saved_->c_str(), 1);
    } else {
      unsetenv("DFBENCH_HOME");
    }
    std::error_code ec;
    std::filesystem::remove_all(home_, ec);
  }

  std::filesystem::path home_;

 private:
  std::optional<std::string> saved_;
};

}  // namespace dfbench::state
