// Faults in what dfbench reads and writes: output paths that are not regular files, inputs that
// never end, a umask that opens everything, a state.json that cannot be read. Each test runs the
// built binary and checks the exit code, the files it leaves and that nothing is left running.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;

std::string Good() {
  return FixturePath("results/reference_run.json").string();
}

mode_t TypeOf(const fs::path& path) {
  struct stat st = {};
  if (lstat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & S_IFMT;
}

mode_t PermissionsOf(const fs::path& path) {
  struct stat st = {};
  if (stat(path.c_str(), &st) != 0) return 07777;
  return st.st_mode & 07777;
}

// The names in `dir`: a refused write leaves no temporary file beside the path.
std::vector<std::string> Entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A refusal: exit code 2, one line on stderr naming the path.
void ExpectRefused(const CliResult& r, const fs::path& path) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(path.string()), std::string::npos) << r.err;
}

class OutputPathTest : public ::testing::Test {
 protected:
  DfbenchRunner dfb_{"files-output"};
  fs::path dir_ = dfb_.home() / "out";
  void SetUp() override { fs::create_directory(dir_); }
  void TearDown() override { EXPECT_TRUE(ProcessesMatching(dir_.string()).empty()); }
};

TEST_F(OutputPathTest, ReportOntoADeviceLeavesTheDevice) {
  // A device node of our own (the null device's numbers), never a node of /dev.
  const fs::path node = dir_ / "null";
  if (mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    GTEST_SKIP() << "mknod needs root: " << std::strerror(errno);
  }
  auto r = dfb_.Run({"report", Good(), "-o", node.string()});
  ExpectRefused(r, node);
  EXPECT_NE(r.err.find("device"), std::string::npos) << r.err;
  EXPECT_EQ(TypeOf(node), static_cast<mode_t>(S_IFCHR));
  EXPECT_EQ(Entries(dir_), std::vector<std::string>{"null"});
}

TEST_F(OutputPathTest, ReportTemplateAndLoadgenOntoAFifoLeaveTheFifo) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  ExpectRefused(dfb_.Run({"report", Good(), "-o", fifo.string()}, std::chrono::seconds(10)), fifo);
  ExpectRefused(
      dfb_.Run({"template", "--run-id", "t", "--out", fifo.string()}, std::chrono::seconds(10)),
      fifo);
  // Refused before any load: port 1 has no server, and nothing connects to it.
  ExpectRefused(dfb_.Run({"loadgen", "--server", "127.0.0.1", "--port", "1", "--json-out-file",
                          fifo.string()},
                         std::chrono::seconds(10)),
                fifo);
  EXPECT_EQ(TypeOf(fifo), static_cast<mode_t>(S_IFIFO));
  EXPECT_EQ(Entries(dir_), std::vector<std::string>{"fifo"});
}

TEST_F(OutputPathTest, ReportThroughASymlinkReplacesItsTargetAndKeepsTheLink) {
  const fs::path target = dir_ / "target.html";
  std::ofstream(target) << "old";
  const fs::path link = dir_ / "link.html";
  fs::create_symlink(target, link);
  auto r = dfb_.Run({"report", Good(), "-o", link.string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(TypeOf(link), static_cast<mode_t>(S_IFLNK));
  EXPECT_EQ(fs::read_symlink(link), target);
  auto page = core::ReadFile(target);
  ASSERT_TRUE(page);
  EXPECT_NE(page->find("<html"), std::string::npos);
  EXPECT_EQ(Entries(dir_), (std::vector<std::string>{"link.html", "target.html"}));

  const fs::path dangling = dir_ / "dangling.html";
  fs::create_symlink(dir_ / "nothing.html", dangling);
  ExpectRefused(dfb_.Run({"report", Good(), "-o", dangling.string()}), dangling);
  EXPECT_FALSE(fs::exists(dir_ / "nothing.html"));
}

TEST_F(OutputPathTest, ReportIntoAMissingDirectoryCreatesNothing) {
  const fs::path page = dir_ / "missing" / "deeper" / "report.html";
  auto r = dfb_.Run({"report", Good(), "-o", page.string()});
  ExpectRefused(r, page);
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  EXPECT_TRUE(Entries(dir_).empty());
}

class ResultInputTest : public ::testing::Test {
 protected:
  DfbenchRunner dfb_{"files-input"};
  void TearDown() override { EXPECT_TRUE(ProcessesMatching(dfb_.home().string()).empty()); }
};

TEST_F(ResultInputTest, CompareWithAnEndlessDeviceEndsAtOnce) {
  // Reading /dev/zero is harmless; before the check, compare grew by hundreds of MB a second.
  // Refused for what the file is, so before reading it: a reader would never end.
  auto r = dfb_.Run({"compare", Good(), "/dev/zero"}, std::chrono::seconds(10));
  ExpectRefused(r, "/dev/zero");
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  EXPECT_TRUE(ProcessesMatching("/dev/zero").empty());
}

TEST_F(ResultInputTest, CompareWithAFileBeyondTheCapIsRefusedUnread) {
  // Sparse: 300 MiB of nothing, written in no time and taking no space.
  const fs::path huge = dfb_.home() / "huge.json";
  std::ofstream(huge) << "{";
  fs::resize_file(huge, uint64_t{300} << 20);
  auto r = dfb_.Run({"compare", Good(), huge.string()}, std::chrono::seconds(10));
  ExpectRefused(r, huge);
  EXPECT_NE(r.err.find("256 MiB"), std::string::npos) << r.err;
}

// Writes JSON whitespace into `fifo` until `stop` (or 10 s): a result file that never ends;
// `opened` once a reader has the fifo open. At most 64 KiB a millisecond, so that a reader that
// never stops grows slowly: the pause paces the modelled endless file, it waits for nothing.
std::thread EndlessWriter(const fs::path& fifo, const std::atomic<bool>& stop,
                          std::atomic<bool>& opened) {
  return std::thread([fifo, &stop, &opened] {
    const std::string chunk(64 << 10, ' ');
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int fd = -1;
    while (!stop && std::chrono::steady_clock::now() < deadline) {
      // Non-blocking: no reader yet is ENXIO, a full pipe EAGAIN; both are tried again.
      if (fd < 0) fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd >= 0) opened = true;
      if (fd >= 0 && write(fd, chunk.data(), chunk.size()) < 0 && errno != EAGAIN) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (fd >= 0) close(fd);
  });
}

TEST_F(ResultInputTest, CompareOnAFifoThatNeverEndsStopsOnSigterm) {
  signal(SIGPIPE, SIG_IGN);  // the writer sees the reader go as EPIPE
  const fs::path fifo = dfb_.home() / "endless.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::atomic<bool> stop{false}, opened{false};
  std::thread writer = EndlessWriter(fifo, stop, opened);
  core::Process compare = dfb_.Start({"compare", Good(), fifo.string()});
  // The signal comes while compare reads the fifo, or after it refused it unread.
  EXPECT_TRUE(WaitUntil([&] { return opened || compare.Poll().has_value(); },
                        std::chrono::seconds(10), "compare to open the fifo or end"));
  compare.Signal(SIGTERM);
  const auto status = compare.WaitFor(std::chrono::seconds(5));
  stop = true;
  writer.join();
  ASSERT_TRUE(status) << "compare still running 5 s after SIGTERM";
  EXPECT_EQ(status->signal, 0);
  // Refused as no regular file (2) or stopped by the signal (130): never left reading.
  EXPECT_TRUE(status->code == 2 || status->code == 130) << status->Describe();
  EXPECT_EQ(CountLines(dfb_.BackgroundErrTail()), 1) << dfb_.BackgroundErrTail();
  EXPECT_TRUE(ProcessesMatching(fifo.string()).empty());
}

// Setups on this machine with redis-server on PATH: nothing starts until a run.
class SetupStateTest : public ::testing::Test {
 protected:
  DfbenchRunner dfb_{"files-state"};
  void MakeSetup(const std::string& id, const std::vector<std::string>& more = {}) {
    auto r = dfb_.Run(
        Concat({"setup", "--id", id, "--engines", "redis", "--provider", "local", "--yes"}, more));
    ASSERT_EQ(r.code, 0) << r.err;
  }
  void Corrupt(const std::string& id) {
    std::ofstream(dfb_.SetupDir(id) / "state.json", std::ios::trunc) << "{\"id\": \"" << id;
  }
  void TearDown() override { EXPECT_TRUE(ProcessesMatching(dfb_.home().string()).empty()); }
};

TEST_F(SetupStateTest, UmaskZeroStillMakesPrivateDirectories) {
  // A home that does not exist yet, so that dfbench makes every directory itself.
  const fs::path home = dfb_.home() / "fresh";
  const mode_t old = umask(0);
  auto r = core::RunCapture({"env", "DFBENCH_HOME=" + home.string(), DFBENCH_BINARY, "setup",
                             "--id", "u", "--engines", "redis", "--provider", "local", "--yes"},
                            std::chrono::seconds(60));
  umask(old);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->status.code, 0) << r->err;
  EXPECT_EQ(PermissionsOf(home), 0700u);
  EXPECT_EQ(PermissionsOf(home / "runs"), 0700u);
  EXPECT_EQ(PermissionsOf(home / "runs" / "u"), 0700u);
  // Every file in the setup directory (state, keys when a provider makes them): nobody else
  // may write it, and key files are the owner's alone.
  for (const auto& e : fs::recursive_directory_iterator(home / "runs" / "u")) {
    const mode_t mode = PermissionsOf(e.path());
    EXPECT_EQ(mode & 022, 0u) << e.path() << " is writable by others";
    if (e.path().filename().string().find("key") != std::string::npos &&
        e.path().extension() != ".pub") {
      EXPECT_EQ(mode & 077, 0u) << e.path();
    }
  }
  auto state = ReadJson(home / "runs" / "u" / "state.json");
  EXPECT_EQ(state["status"], "ready");
}

TEST_F(SetupStateTest, CorruptStateIsListedAndRefusedByInfoAndDestroy) {
  MakeSetup("c");
  Corrupt("c");
  const fs::path state = dfb_.SetupDir("c") / "state.json";

  auto listed = dfb_.Run({"list"});
  EXPECT_EQ(listed.code, 0) << listed.err;
  bool shown = false;
  std::istringstream rows(listed.out);
  for (std::string row; std::getline(rows, row);) {
    shown = shown || (row.rfind("c ", 0) == 0 && row.find(" corrupt ") != std::string::npos);
  }
  EXPECT_TRUE(shown) << listed.out;

  auto info = dfb_.Run({"info", "--id", "c"});
  ExpectRefused(info, state);
  EXPECT_NE(info.err.find("corrupt"), std::string::npos) << info.err;

  auto destroy = dfb_.Run({"destroy", "--id", "c"});
  ExpectRefused(destroy, state);
  EXPECT_NE(destroy.err.find("--force"), std::string::npos) << destroy.err;
  EXPECT_TRUE(fs::exists(state));

  auto forced = dfb_.Run({"destroy", "--id", "c", "--force"});
  EXPECT_EQ(forced.code, 0) << forced.err;
  EXPECT_FALSE(fs::exists(dfb_.SetupDir("c")));
  EXPECT_EQ(dfb_.Run({"info", "--id", "c"}).code, 3);
}

TEST_F(SetupStateTest, SetupReplacesACorruptStateOnlyWithForce) {
  MakeSetup("c");
  Corrupt("c");
  const fs::path state = dfb_.SetupDir("c") / "state.json";
  const std::string corrupt = core::ReadFile(state).value_or("");

  auto refused =
      dfb_.Run({"setup", "--id", "c", "--engines", "redis", "--provider", "local", "--yes"});
  ExpectRefused(refused, state);
  EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
  EXPECT_EQ(core::ReadFile(state).value_or(""), corrupt);

  MakeSetup("c", {"--force"});
  EXPECT_EQ(dfb_.State("c")["status"], "ready");
  EXPECT_EQ(dfb_.Run({"info", "--id", "c"}).code, 0);
  EXPECT_EQ(dfb_.Run({"destroy", "--id", "c"}).code, 0);
}

// run-replication's --output-dir is a user-named output as -o is: a device or FIFO among its
// files, a path that is no directory or a directory whose parent is missing is one line and
// exit 2 before anything starts (no history entry, no run directory, the FIFO left as it was).
TEST_F(SetupStateTest, ReplicationOutputDirOfNoRegularFilesIsRefusedBeforeAnythingStarts) {
  MakeSetup("r");
  const fs::path out = dfb_.home() / "repl-out";
  fs::create_directory(out);
  const fs::path fifo = out / "results.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const fs::path csv_link = out / "benchmark_results.csv";
  const fs::path not_dir = dfb_.home() / "a-file";
  std::ofstream(not_dir) << "x";
  const auto history = dfb_.State("r")["history"].dump();
  const std::vector<std::pair<fs::path, fs::path>> cases = {
      {out, fifo},         // a FIFO where results.json goes
      {not_dir, not_dir},  // a regular file, no directory
      {dfb_.home() / "missing" / "deeper", dfb_.home() / "missing"},  // parent missing
  };
  for (const auto& [dir, named] : cases) {
    auto r = dfb_.Run({"run-replication", "--id", "r", "--engines", "redis", "--cases", "qps=10",
                       "--test-time", "1", "--output-dir", dir.string()},
                      std::chrono::seconds(20));
    ExpectRefused(r, named);
  }
  // The CSV through a symlink to a device (results.json a regular file now).
  fs::remove(fifo);
  fs::create_symlink("/dev/null", csv_link);
  auto r =
      dfb_.Run({"run-replication", "--id", "r", "--engines", "redis", "--output-dir", out.string()},
               std::chrono::seconds(20));
  ExpectRefused(r, csv_link);
  EXPECT_EQ(Entries(out), std::vector<std::string>{"benchmark_results.csv"});
  EXPECT_FALSE(fs::exists(dfb_.home() / "missing"));
  EXPECT_FALSE(fs::exists(dfb_.SetupDir("r") / "replications"));
  EXPECT_EQ(dfb_.State("r")["history"].dump(), history);
}

}  // namespace
}  // namespace dfbench::testing
