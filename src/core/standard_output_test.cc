#include "core/standard_output.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace dfbench::core {
namespace {

// Points stdout at `path` (a real device: /dev/full refuses every write with ENOSPC).
void StdoutTo(const char* path) {
  const int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) std::_Exit(99);
  close(fd);
}

// Each case runs in a child of its own (a death test): the failed write it remembers, and
// stdout itself, stay there.
TEST(StandardOutputDeathTest, AFailedWriteIsOneLineAndExit1) {
  EXPECT_EXIT(
      {
        StdoutTo("/dev/full");
        WriteStdout("a payload\n");
        std::exit(FlushStdout(0));
      },
      ::testing::ExitedWithCode(1),
      "^dfbench: cannot write to standard output: No space left on device\n$");
}

TEST(StandardOutputDeathTest, WhatStdioBufferedIsCheckedAtTheEnd) {
  // std::cout's buffer reaches the device only at FlushStdout: the failure is found there.
  EXPECT_EXIT(
      {
        StdoutTo("/dev/full");
        std::cout << "buffered";
        std::exit(FlushStdout(0));
      },
      ::testing::ExitedWithCode(1), "cannot write to standard output");
}

TEST(StandardOutputDeathTest, AFailedCommandKeepsItsExitCode) {
  // The command's own failure (2: usage) is what the exit says; the lost output is one line.
  EXPECT_EXIT(
      {
        StdoutTo("/dev/full");
        WriteStdout("x");
        std::exit(FlushStdout(2));
      },
      ::testing::ExitedWithCode(2), "cannot write to standard output");
}

TEST(StandardOutputDeathTest, AWrittenPayloadKeepsTheCode) {
  EXPECT_EXIT(
      {
        StdoutTo("/dev/null");
        WriteStdout("a payload\n");
        std::cout << "more";
        std::fprintf(stderr, "done\n");
        std::exit(FlushStdout(0));
      },
      ::testing::ExitedWithCode(0), "^done\n$");
}

}  // namespace
}  // namespace dfbench::core
