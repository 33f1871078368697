#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <optional>

#include "core/subprocess.h"
#include "state/state.h"
#include "support/dfbench_home.h"

namespace dfbench::state {
namespace {

using core::ErrorKind;

class SetupLockTest : public testing::DfbenchHomeTest {};

// Runs Acquire(id) in a forked child; returns the child's exit code: 0 when it got the lock,
// otherwise the error kind's value.
int AcquireInChild(const std::string& id) {
  const pid_t pid = fork();
  if (pid == 0) {
    auto lock = SetupLock::Acquire(id);
    _exit(lock ? 0 : static_cast<int>(lock.error().kind));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A child process that holds the lock until it is killed.
struct Holder {
  pid_t pid = -1;
  ~Holder() {
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

TEST_F(SetupLockTest, CreatesTheSetupDirectoryAndLockFile) {
  auto lock = SetupLock::Acquire("new-setup");
  ASSERT_TRUE(lock) << lock.error().message;
  EXPECT_TRUE(std::filesystem::exists(SetupDir("new-setup") / ".lock"));
}

TEST_F(SetupLockTest, SecondAcquireInSameProcessFailsFast) {
  auto first = SetupLock::Acquire("foo");
  ASSERT_TRUE(first);
  auto second = SetupLock::Acquire("foo");
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind, ErrorKind::kLocked);
  EXPECT_EQ(second.error().message, "setup \"foo\" is locked by another dfbench command (pid " +
                                        std::to_string(getpid()) + ")");
  // Other setups are independent.
  EXPECT_TRUE(SetupLock::Acquire("bar"));
}

TEST_F(SetupLockTest, AcquireInAnotherProcessFailsWhileHeld) {
  {
    auto lock = SetupLock::Acquire("foo");
    ASSERT_TRUE(lock);
    EXPECT_EQ(AcquireInChild("foo"), static_cast<int>(ErrorKind::kLocked));
  }
  EXPECT_EQ(AcquireInChild("foo"), 0);
}

TEST_F(SetupLockTest, ReleasedOnDestructionAndMove) {
  std::optional<SetupLock> kept;
  {
    auto lock = SetupLock::Acquire("foo");
    ASSERT_TRUE(lock);
    kept.emplace(std::move(*lock));
  }  // the moved-from lock must not release it
  EXPECT_FALSE(SetupLock::Acquire("foo"));
  kept.reset();
  EXPECT_TRUE(SetupLock::Acquire("foo"));
}

TEST_F(SetupLockTest, LockHeldByAnotherProcessIsReleasedWhenItDies) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  Holder holder;
  holder.pid = fork();
  if (holder.pid == 0) {
    close(ready[0]);
    auto lock = SetupLock::Acquire("foo");
    const char ok = lock ? 'y' : 'n';
    [[maybe_unused]] ssize_t n = write(ready[1], &ok, 1);
    pause();
    _exit(0);
  }
  close(ready[1]);
  char got = 0;
  ASSERT_EQ(read(ready[0], &got, 1), 1);
  close(ready[0]);
  ASSERT_EQ(got, 'y');

  auto contended = SetupLock::Acquire("foo");
  ASSERT_FALSE(contended);
  EXPECT_EQ(contended.error().kind, ErrorKind::kLocked);
  EXPECT_NE(contended.error().message.find("(pid " + std::to_string(holder.pid) + ")"),
            std::string::npos)
      << contended.error().message;

  kill(holder.pid, SIGKILL);
  waitpid(holder.pid, nullptr, 0);
  holder.pid = -1;
  EXPECT_TRUE(SetupLock::Acquire("foo"));
}

TEST_F(SetupLockTest, ChildProgramsDoNotInheritTheLock) {
  std::optional<core::Process> sleeper;
  {
    auto lock = SetupLock::Acquire("foo");
    ASSERT_TRUE(lock);
    auto spawned = core::Spawn({.argv = {"sleep", "30"}});
    ASSERT_TRUE(spawned) << spawned.error().message;
    sleeper.emplace(std::move(*spawned));
  }
  // The sleeper is still running; had it inherited the descriptor, the lock would still be held.
  EXPECT_TRUE(SetupLock::Acquire("foo"));
  sleeper->Terminate(std::chrono::seconds(1));
}

TEST_F(SetupLockTest, InvalidIdIsUsageError) {
  auto lock = SetupLock::Acquire("../x");
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().kind, ErrorKind::kUsage);
}

}  // namespace
}  // namespace dfbench::state
