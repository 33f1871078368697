// The leftovers' records and script, run on this machine through LocalHost: the same script and
// the same records are what an SSH host runs (SshHost::Run of the same argv).
#include "hosts/leftovers.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>

#include "core/files.h"
#include "hosts/local_host.h"
#include "hosts/ssh_command.h"
#include "hosts/ssh_scripts.h"
#include "support/scoped_temp_dir.h"
#include "support/wait_until.h"

namespace dfbench::hosts {
namespace {

namespace fs = std::filesystem;

void Touch(const fs::path& path) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "x";
}

// Waits up to 5 s for `pid` to be gone.
::testing::AssertionResult GoneSoon(int pid) {
  return testing::WaitUntil([pid] { return core::ProcessGone(pid); }, std::chrono::seconds(5),
                            "process " + std::to_string(pid) + " to be gone");
}

// The pid of a process that has ended (and been reaped).
int EndedPid() {
  auto ended = core::Spawn({.argv = {"true"}});
  if (!ended) return 0;
  const int pid = ended->pid();
  (void)ended->Wait();
  return pid;
}

// The pid a daemon's shell wrote into `file`, once written whole (0 when it never is).
int ReadPid(const fs::path& file) {
  int pid = 0;
  const bool written = testing::WaitUntil(
      [&] {
        auto text = core::ReadFile(file);
        if (!text || text->empty() || text->back() != '\n') return false;
        pid = std::stoi(*text);
        return true;
      },
      std::chrono::seconds(5), "the pid in " + file.string());
  EXPECT_TRUE(written) << "no pid in " << file;
  return pid;
}

TEST(Leftovers, DaemonRecordIsPidAndStartTime) {
  const auto record = LocalDaemonRecord(getpid());
  ASSERT_TRUE(record);
  EXPECT_EQ(record->rfind(std::to_string(getpid()) + " ", 0), 0u) << *record;
  EXPECT_FALSE(LocalDaemonRecord(0));
}

// A daemon killed alone (as an engine dies with dfbench) leaves its forked child in its group:
// a later command's StopLeftovers kills the child and removes the engine's temp-<child>.rdb (and
// one of a snapshot child that ended on its own after the record), the recorded files and the
// scratch files, and nothing else: not a temp-<pid>.rdb older than the record or of a live pid.
TEST(Leftovers, StopsWhatIsLeftOfADeadDaemonsGroupAndRemovesItsFiles) {
  testing::ScopedTempDir tmp("leftovers-group");
  const fs::path work = tmp / "work";
  const fs::path user_dir = tmp / "snapshots";
  // `first` stays: as a killed dfbench, it never stops its daemon (its destructor would).
  LocalHost first(work);
  auto daemon = first.StartDaemon(
      {.argv = {"sh", "-c", "sleep 60 & echo $! >\"$0\"; wait", (tmp / "child.pid").string()},
       .log_path = (work / "daemon.log").string()});
  ASSERT_TRUE(daemon) << daemon.error().message;
  const int leader = daemon->pid;
  const int child = ReadPid(tmp / "child.pid");
  ASSERT_GT(child, 0);
  EXPECT_TRUE(fs::exists(work / "daemons" / std::to_string(leader)));
  const int ended = EndedPid();
  const int ended_earlier = EndedPid();
  ASSERT_GT(ended, 0);
  ASSERT_GT(ended_earlier, 0);
  const fs::path before_record = user_dir / ("temp-" + std::to_string(ended_earlier) + ".rdb");
  Touch(before_record);
  fs::last_write_time(before_record, fs::file_time_type::clock::now() - std::chrono::hours(1));
  ASSERT_TRUE(RecordFiles(first, "own", (work / "snapshots" / "t1").string()));
  ASSERT_TRUE(RecordFiles(first, "user", user_dir.string(), "dfbench-t1"));
  Touch(work / "snapshots" / "t1" / "dump.rdb");
  Touch(user_dir / "dfbench-t1");
  Touch(user_dir / ("temp-" + std::to_string(child) + ".rdb"));
  Touch(user_dir / ("temp-" + std::to_string(ended) + ".rdb"));  // its writer ended on its own
  Touch(user_dir / "temp-1.rdb");                                // not of a process of ours
  Touch(user_dir / "someone-elses");
  Touch(work / "redis-1234.log");
  Touch(work / "bin" / "dfbench-0123");
  // The leader alone, as the parent-death signal kills an engine.
  kill(leader, SIGKILL);
  ASSERT_FALSE(core::ProcessGone(child));

  LocalHost next(work);
  ASSERT_TRUE(StopLeftovers(next));
  EXPECT_TRUE(GoneSoon(child));
  EXPECT_FALSE(fs::exists(work / "snapshots"));
  EXPECT_FALSE(fs::exists(user_dir / "dfbench-t1"));
  EXPECT_FALSE(fs::exists(user_dir / ("temp-" + std::to_string(child) + ".rdb")));
  EXPECT_FALSE(fs::exists(user_dir / ("temp-" + std::to_string(ended) + ".rdb")));
  EXPECT_TRUE(fs::exists(user_dir / "temp-1.rdb"));
  EXPECT_TRUE(fs::exists(before_record));
  EXPECT_TRUE(fs::exists(user_dir / "someone-elses"));
  EXPECT_FALSE(fs::exists(work / "redis-1234.log"));
  EXPECT_TRUE(fs::exists(work / "bin" / "dfbench-0123"));
  EXPECT_TRUE(fs::is_empty(work / "daemons"));
  EXPECT_TRUE(fs::is_empty(work / "files"));
}

// A recorded pid that now names another process (its start time differs) is left alone.
TEST(Leftovers, LeavesAReusedPidAlone) {
  testing::ScopedTempDir tmp("leftovers-reused");
  auto other = core::Spawn({.argv = {"sleep", "30"}});
  ASSERT_TRUE(other) << other.error().message;
  ASSERT_TRUE(core::WriteFileAtomic(tmp / "work" / "daemons" / std::to_string(other->pid()),
                                    std::to_string(other->pid()) + " 1\n"));
  LocalHost host(tmp / "work");
  ASSERT_TRUE(StopLeftovers(host));
  EXPECT_TRUE(other->running());
  EXPECT_FALSE(other->Poll());
  EXPECT_FALSE(fs::exists(tmp / "work" / "daemons" / std::to_string(other->pid())));
}

// A snapshot removed the ordinary way drops its record; ClearScratch keeps directories.
TEST(Leftovers, ForgottenFilesStayAndScratchGoes) {
  testing::ScopedTempDir tmp("leftovers-scratch");
  LocalHost host(tmp / "work");
  ASSERT_TRUE(RecordFiles(host, "k", (tmp / "mine").string()));
  ForgetFiles(host, "k");
  Touch(tmp / "mine" / "file");
  Touch(tmp / "work" / "loadgen-1-0.json");
  Touch(tmp / "work" / "snapshots" / "x" / "dump.rdb");
  Touch(tmp / "work" / "build" / "memtier");
  ASSERT_TRUE(ClearScratch(host));
  EXPECT_FALSE(fs::exists(tmp / "work" / "loadgen-1-0.json"));
  EXPECT_FALSE(fs::exists(tmp / "work" / "snapshots"));
  EXPECT_TRUE(fs::exists(tmp / "work" / "build" / "memtier"));
  ASSERT_TRUE(StopLeftovers(host));
  EXPECT_TRUE(fs::exists(tmp / "mine" / "file"));
}

// What SshHost::Run sends for StopLeftovers, as the host's login shell reads it: kRunWrapper,
// which records the command's own pid under run/, around StopLeftoversArgv. It stops a recorded
// daemon's group and a dead command's, and spares itself.
TEST(Leftovers, OverSshTheWrappedCommandStopsOthersAndSparesItself) {
  testing::ScopedTempDir tmp("leftovers-ssh");
  const std::string work = (tmp / "work").string();
  auto dead_command = core::Spawn({.argv = {"sleep", "30"}});
  ASSERT_TRUE(dead_command) << dead_command.error().message;
  ASSERT_TRUE(
      core::WriteFileAtomic(work + "/run/cmd-1-0.pid", std::to_string(dead_command->pid()) + "\n"));
  auto daemon = core::Spawn({.argv = {"sleep", "31"}});
  ASSERT_TRUE(daemon) << daemon.error().message;
  const auto record = LocalDaemonRecord(daemon->pid());
  ASSERT_TRUE(record);
  ASSERT_TRUE(
      core::WriteFileAtomic(work + "/daemons/" + std::to_string(daemon->pid()), *record + "\n"));

  std::vector<std::string> argv = {"sh", "-c", kRunWrapper, "sh", work + "/run/cmd-2-0.pid"};
  const auto stop = StopLeftoversArgv(work);
  argv.insert(argv.end(), stop.begin(), stop.end());
  auto r = core::RunCapture({"sh", "-c", ShellJoin(argv)}, std::chrono::seconds(30));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->status.ok()) << r->status.Describe() << "\n" << r->err;
  EXPECT_NE(r->out.find("stopped " + std::to_string(daemon->pid())), std::string::npos) << r->out;
  EXPECT_TRUE(daemon->WaitFor(std::chrono::seconds(5)));
  EXPECT_TRUE(dead_command->WaitFor(std::chrono::seconds(5)));
  EXPECT_TRUE(fs::is_empty(work + "/run"));
  EXPECT_TRUE(fs::is_empty(work + "/daemons"));
}

}  // namespace
}  // namespace dfbench::hosts
