#include "support/dfbench_home.h"

#include <cstdlib>

namespace dfbench::testing {

void DfbenchHomeTest::SetUp() {
  if (const char* old = std::getenv("DFBENCH_HOME")) saved_ = old;
  dir_.emplace("home");
  home_ = dir_->path();
  setenv("DFBENCH_HOME", home_.c_str(), 1);
}

void DfbenchHomeTest::TearDown() {
  if (saved_) {
    setenv("DFBENCH_HOME", saved_->c_str(), 1);
  } else {
    unsetenv("DFBENCH_HOME");
  }
  dir_.reset();
}

}  // namespace dfbench::testing
