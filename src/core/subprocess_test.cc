#include "core/subprocess.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include "core/files.h"
#include "support/wait_until.h"

namespace dfbench::core {
namespace {

TEST(Subprocess, CapturesOutputAndExitCode) {
  auto r = RunCapture({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_EQ(r->status.code, 3);
}

TEST(Subprocess, MissingProgramIsEnvironmentError) {
  auto r = RunCapture({"dfbench-no-such-program"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kEnvironment);
  auto s = Spawn({.argv = {"/nonexistent/bin/x"}});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kEnvironment);
}

TEST(Subprocess, TimeoutKills) {
  auto r = RunCapture({"sleep", "5"}, std::chrono::milliseconds(200));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kFailure);
}

TEST(Subprocess, SpawnRedirectsAndTerminates) {
  auto log = std::filesystem::path(::testing::TempDir()) / "subprocess_test.log";
  auto p = Spawn({.argv = {"sh", "-c", "echo started; exec sleep 30"},
                  .stdout_path = log.string(),
                  .stderr_path = log.string()});
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->running());
  ASSERT_TRUE(testing::WaitUntil([&] { return !ReadTail(log).empty(); }, std::chrono::seconds(5),
                                 "the child's first line"));
  EXPECT_EQ(ReadTail(log), "started\n");
  ExitStatus st = p->Terminate(std::chrono::milliseconds(1000));
  EXPECT_EQ(st.signal, SIGTERM);
  EXPECT_FALSE(p->running());
}

TEST(Subprocess, ProcessGoneCountsAZombieAsGone) {
  auto p = Spawn({.argv = {"sleep", "30"}});
  ASSERT_TRUE(p);
  const pid_t pid = p->pid();
  EXPECT_FALSE(ProcessGone(pid));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  // Not reaped yet: a zombie, which no longer runs.
  EXPECT_TRUE(testing::WaitUntil([&] { return ProcessGone(pid); }, std::chrono::seconds(5),
                                 "the killed child to stop running"));
  EXPECT_EQ(p->Wait().signal, SIGKILL);
  EXPECT_TRUE(ProcessGone(pid));
}

TEST(Subprocess, PinsToCpus) {
  auto log = std::filesystem::path(::testing::TempDir()) / "subprocess_affinity.log";
  auto p = Spawn({.argv = {"sh", "-c", "grep Cpus_allowed_list /proc/self/status"},
                  .stdout_path = log.string(),
                  .cpus = {0}});
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->Wait().ok());
  EXPECT_NE(ReadFile(log)->find("\t0\n"), std::string::npos);
}

TEST(Subprocess, RunCapturePinsAndInheritsStderr) {
  auto r = RunCapture({"sh", "-c", "grep Cpus_allowed_list /proc/self/status; echo progress >&2"},
                      RunOptions{.cpus = {0}, .stderr_mode = RunOptions::Stderr::kInherit});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->status.ok());
  EXPECT_NE(r->out.find("\t0\n"), std::string::npos);
  EXPECT_EQ(r->err, "");
}

TEST(Subprocess, RunCaptureRefusesNonExecutablePath) {
  auto r = RunCapture({"/nonexistent/bin/x"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kEnvironment);
}

// The program is there but exec fails (its interpreter is missing): the error the child got
// from exec comes back, rather than an exit code 127 that looks like the program's own.
TEST(Subprocess, ExecErrorIsReportedByBothSpawnAndRunCapture) {
  const auto script = std::filesystem::path(::testing::TempDir()) / "subprocess_no_interpreter";
  ASSERT_TRUE(WriteFileAtomic(script, "#!/nonexistent/interpreter\n"));
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  auto r = RunCapture({script.string()});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kEnvironment);
  EXPECT_EQ(r.error().message, "cannot start " + script.string() + ": No such file or directory");
  auto s = Spawn({.argv = {script.string()}});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, r.error().message);
}

TEST(Subprocess, MissingWorkingDirectoryIsReported) {
  auto s = Spawn({.argv = {"true"}, .working_dir = "/nonexistent/dir"});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kEnvironment);
  EXPECT_NE(s.error().message.find("No such file or directory"), std::string::npos);
}

TEST(Subprocess, FindOnPath) {
  EXPECT_TRUE(FindOnPath("sh"));
  EXPECT_FALSE(FindOnPath("dfbench-no-such-program"));
}

}  // namespace
}  // namespace dfbench::core
