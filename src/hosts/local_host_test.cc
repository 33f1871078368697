#include "hosts/local_host.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "core/files.h"
#include "core/interrupt.h"
#include "support/processes.h"
#include "support/scoped_temp_dir.h"
#include "support/wait_until.h"

namespace dfbench::hosts {
namespace {

// A directory of its own for each test, all removed when the test binary exits.
std::filesystem::path TestDir(const std::string& name) {
  static const testing::ScopedTempDir root("local-host");
  return root / name;
}

// "\t<cpu>\n", the Cpus_allowed_list value of a process pinned to one CPU.
std::string CpuListLine(int cpu) {
  std::string line = "\t";
  line += std::to_string(cpu);
  line += '\n';
  return line;
}

bool ProcessExists(int pid) {
  return std::filesystem::exists("/proc/" + std::to_string(pid));
}

TEST(LocalHost, RunCapturesOutput) {
  LocalHost host(TestDir("run"));
  auto r = host.Run({.argv = {"sh", "-c", "echo out; echo err >&2; exit 4"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_EQ(r->status.code, 4);
}

TEST(LocalHost, RunPinsToCpus) {
  LocalHost host(TestDir("pin"));
  int cpu = AllowedCpus().front();
  auto r = host.Run({.argv = {"grep", "Cpus_allowed_list", "/proc/self/status"}, .cpus = {cpu}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NE(r->out.find(CpuListLine(cpu)), std::string::npos) << r->out;
}

TEST(LocalHost, RunStreamsStderr) {
  LocalHost host(TestDir("stream"));
  auto r = host.Run({.argv = {"sh", "-c", "echo out; echo progress >&2"}, .stream_stderr = true});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "");  // went to our stderr
}

TEST(LocalHost, RunTimesOut) {
  LocalHost host(TestDir("timeout"));
  auto r = host.Run({.argv = {"sleep", "30"}, .timeout = std::chrono::milliseconds(200)});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, core::ErrorKind::kFailure);
  EXPECT_NE(r.error().message.find("timed out"), std::string::npos) << r.error().message;
}

TEST(LocalHost, MissingProgramIsEnvironmentError) {
  LocalHost host(TestDir("missing"));
  auto r = host.Run({.argv = {"dfbench-no-such-program"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, core::ErrorKind::kEnvironment);
  auto d = host.StartDaemon({.argv = {"/nonexistent/engine"}});
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().kind, core::ErrorKind::kEnvironment);
}

TEST(LocalHost, RunIsInterruptible) {
  core::InstallInterruptHandlers();
  LocalHost host(TestDir("interrupt"));
  std::thread raiser([] {
    // Interrupted while the command runs, not before Run started it.
    EXPECT_TRUE(
        testing::WaitUntil([] { return !testing::ChildrenNamed(getpid(), "sleep").empty(); },
                           std::chrono::seconds(10), "the command `sleep 30` running"));
    kill(getpid(), SIGINT);
  });
  auto r = host.Run({.argv = {"sleep", "30"}});
  raiser.join();
  core::ResetInterruptForTesting();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, core::ErrorKind::kInterrupted);
}

TEST(LocalHost, DaemonStartAliveStop) {
  auto dir = TestDir("daemon");
  LocalHost host(dir);
  auto work = host.WorkDir();
  ASSERT_TRUE(work) << work.error().message;
  EXPECT_TRUE(std::filesystem::is_directory(*work));
  std::string log = *work + "/daemon.log";
  auto d = host.StartDaemon({.argv = {"sh", "-c", "echo ready; exec sleep 30"}, .log_path = log});
  ASSERT_TRUE(d) << d.error().message;
  const int pid = d->pid;
  EXPECT_TRUE(host.DaemonAlive(*d));
  ASSERT_TRUE(testing::WaitUntil([&] { return !host.ReadTail(log, 100).empty(); },
                                 std::chrono::seconds(5), "the daemon's first line"));
  EXPECT_EQ(host.ReadTail(log, 100), "ready\n");
  ASSERT_TRUE(host.StopDaemon(*d, std::chrono::seconds(2)));
  EXPECT_FALSE(host.DaemonAlive(*d));
  EXPECT_FALSE(ProcessExists(pid));
  ASSERT_TRUE(d->exit_status);
  EXPECT_EQ(d->exit_status->signal, SIGTERM);
  EXPECT_TRUE(host.StopDaemon(*d, std::chrono::seconds(2)));  // idempotent
}

TEST(LocalHost, ExitedDaemonIsNotAlive) {
  auto dir = TestDir("exited");
  LocalHost host(dir);
  auto d = host.StartDaemon({.argv = {"sh", "-c", "exit 3"}, .log_path = (dir / "x.log").string()});
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_TRUE(testing::WaitUntil([&] { return !host.DaemonAlive(*d); }, std::chrono::seconds(5),
                                 "the daemon's exit"));
  ASSERT_TRUE(d->exit_status);
  EXPECT_EQ(d->exit_status->code, 3);
  EXPECT_TRUE(host.StopDaemon(*d, std::chrono::seconds(1)));
}

TEST(LocalHost, DaemonIsPinned) {
  auto dir = TestDir("daemon_pin");
  LocalHost host(dir);
  int cpu = AllowedCpus().back();
  std::string log = (dir / "pin.log").string();
  auto d = host.StartDaemon({.argv = {"sh", "-c", "grep Cpus_allowed_list /proc/self/status"},
                             .log_path = log,
                             .cpus = {cpu}});
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_TRUE(testing::WaitUntil([&] { return !host.DaemonAlive(*d); }, std::chrono::seconds(5),
                                 "the daemon's exit"));
  EXPECT_NE(host.ReadTail(log, 200).find(CpuListLine(cpu)), std::string::npos);
}

TEST(LocalHost, DestructorKillsLeftoverDaemons) {
  int pid = -1;
  {
    LocalHost host(TestDir("leftover"));
    auto d = host.StartDaemon({.argv = {"sleep", "30"}});
    ASSERT_TRUE(d) << d.error().message;
    pid = d->pid;
    EXPECT_TRUE(ProcessExists(pid));
  }
  EXPECT_FALSE(ProcessExists(pid));
}

TEST(LocalHost, FactsAreFilledIn) {
  LocalHost host(TestDir("facts"));
  auto f = host.Facts(core::Role::Server());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->role.Name(), "server");
  EXPECT_FALSE(f->name.empty());
  EXPECT_FALSE(f->cpu_model.empty());
  EXPECT_GE(f->vcpus, 1);
  EXPECT_GT(f->memory_bytes, 0u);
  EXPECT_FALSE(f->kernel.empty());
  EXPECT_FALSE(f->os.empty());
  EXPECT_FALSE(f->arch.empty());
  EXPECT_EQ(f->private_address, "127.0.0.1");
}

TEST(LocalHost, FreePortIsBindable) {
  LocalHost host(TestDir("port"));
  auto port = host.FreePort();
  ASSERT_TRUE(port) << port.error().message;
  EXPECT_GT(*port, 0);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(*port));
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  close(fd);
}

TEST(LocalHost, WhichAndSelf) {
  LocalHost host(TestDir("which"));
  auto sh = host.Which("sh");
  ASSERT_TRUE(sh);
  EXPECT_EQ(sh->front(), '/');
  EXPECT_FALSE(host.Which("dfbench-no-such-program"));
  auto self = host.DfbenchBinary();
  ASSERT_TRUE(self);
  EXPECT_TRUE(std::filesystem::exists(*self));
}

TEST(LocalHost, FetchCopiesAFile) {
  auto dir = TestDir("fetch");
  LocalHost host(dir);
  ASSERT_TRUE(core::WriteFileAtomic(dir / "src.txt", "payload"));
  ASSERT_TRUE(host.Fetch((dir / "src.txt").string(), dir / "copy" / "dst.txt"));
  EXPECT_EQ(*core::ReadFile(dir / "copy" / "dst.txt"), "payload");
  auto missing = host.Fetch((dir / "nope").string(), dir / "copy" / "dst.txt");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_FALSE(std::filesystem::exists(dir / "copy" / "dst.txt"));  // nothing half-fetched
}

TEST(LocalHost, FetchAndReadTailStillWorkAfterCtrlC) {
  auto dir = TestDir("after-interrupt");
  LocalHost host(dir);
  ASSERT_TRUE(core::WriteFileAtomic(dir / "report.json", "{}\n"));
  core::InstallInterruptHandlers();
  kill(getpid(), SIGINT);
  auto run = host.Run({.argv = {"true"}});
  auto fetched = host.Fetch((dir / "report.json").string(), dir / "kept.json");
  const std::string tail = host.ReadTail((dir / "kept.json").string(), 100);
  core::ResetInterruptForTesting();
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().kind, core::ErrorKind::kInterrupted);
  EXPECT_TRUE(fetched) << fetched.error().message;
  EXPECT_EQ(tail, "{}\n");
}

TEST(LocalHost, UploadPlacesTheFileWithItsMode) {
  auto dir = TestDir("upload");
  LocalHost host(dir);
  std::string data(200000, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 7);
  ASSERT_TRUE(core::WriteFileAtomic(dir / "src.bin", data));
  const std::string dest = (dir / "deep" / "er" / "dst.bin").string();
  ASSERT_TRUE(host.Upload(dir / "src.bin", dest, 0750));
  EXPECT_EQ(*core::ReadFile(dest), data);
  EXPECT_EQ(std::filesystem::status(dest).permissions(), std::filesystem::perms(0750));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir / "deep" / "er"), {}), 1);
  EXPECT_EQ(host.Upload(dir / "src.bin", "relative/dst", 0644).error().kind,
            core::ErrorKind::kUsage);
  EXPECT_FALSE(host.Upload(dir / "nope", dest, 0644));
}

TEST(LocalHost, ReadTailStartsAtALine) {
  auto dir = TestDir("tail");
  LocalHost host(dir);
  ASSERT_TRUE(core::WriteFileAtomic(dir / "log", "first line\nsecond\nthird\n"));
  EXPECT_EQ(host.ReadTail((dir / "log").string(), 100), "first line\nsecond\nthird\n");
  EXPECT_EQ(host.ReadTail((dir / "log").string(), 15), "second\nthird\n");
  ASSERT_TRUE(core::WriteFileAtomic(dir / "one-line", "abcdefgh"));
  EXPECT_EQ(host.ReadTail((dir / "one-line").string(), 4), "efgh");  // no line start in sight
  EXPECT_EQ(host.ReadTail((dir / "nope").string(), 100), "");
}

}  // namespace
}  // namespace dfbench::hosts
