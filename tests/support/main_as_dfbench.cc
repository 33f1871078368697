// main() of test binaries whose scenarios run the built-in load generator on this machine. The
// local host runs the running executable as the load generator (`<self> loadgen ...`, see
// hosts::LocalHost::DfbenchBinary), so this binary answers that command as dfbench does and runs
// its tests otherwise.
#include <gtest/gtest.h>

#include <string_view>

#include "cli/app.h"

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "loadgen") return dfbench::cli::Main(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
