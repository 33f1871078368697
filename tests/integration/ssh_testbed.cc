#include "ssh_testbed.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "core/files.h"
#include "core/subprocess.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;

// Runs a bed script with its output in files: sshd keeps the script's stdout open, so pipes
// would never see end-of-file.
bool RunBedScript(const std::string& script, std::string* log) {
  const fs::path out = Bed().base.string() + "-" + script + ".log";
  std::vector<std::string> argv = {"env", "BASE=" + Bed().base.string(), "ISOLATE=1"};
#ifdef DFBENCH_TESTBED_HOSTS
  // A binary that needs more hosts than server and client names them all.
  argv.push_back("HOSTS=" DFBENCH_TESTBED_HOSTS);
#endif
  argv.insert(argv.end(), {"bash", (Bed().scripts / script).string()});
  auto proc = core::Spawn({.argv = argv,
                           .stdout_path = out.string(),
                           .stderr_path = out.string(),
                           // The hosts' sshd must outlive this test binary's threads.
                           .die_with_parent = false});
  if (!proc) {
    *log = proc.error().message;
    return false;
  }
  auto status = proc->WaitFor(std::chrono::seconds(120));
  *log = core::ReadFile(out).value_or("");
  std::error_code ec;
  fs::remove(out, ec);
  return status && status->ok();
}

class TestbedEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    Testbed& bed = Bed();
    bed.scripts = DFBENCH_TESTBEDS_DIR;
    if (!fs::exists(bed.scripts / "netns-up.sh")) {
      bed.skip_reason = "no multi-host test bed: " + (bed.scripts / "netns-up.sh").string() +
                        " is absent (it lives in shared/testbeds beside the clone)";
      return;
    }
    if (geteuid() != 0) {
      bed.skip_reason = "the multi-host test bed needs root (network namespaces)";
      return;
    }
    for (const char* tool : {"ip", "sshd", "ssh", "scp", "unshare", "redis-server"}) {
      if (!core::FindOnPath(tool)) {
        bed.skip_reason = std::string("the multi-host test bed needs ") + tool +
                          " (scripts/install-deps.sh installs it)";
        return;
      }
    }
    if (fs::exists("/sys/class/net/dfb-br0")) {
      bed.skip_reason = "a test bed (bridge dfb-br0) is already up on this machine";
      return;
    }
    // A fresh directory every time: a process id repeats (tests may run in a PID namespace of
    // their own), and a bed left by a killed run must not lend this one its stale files.
    std::string dir = (fs::temp_directory_path() / "dfbench-testbed-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) {
      bed.skip_reason =
          "cannot create a directory for the test bed under " + fs::temp_directory_path().string();
      return;
    }
    bed.base = dir;
    bed.key = bed.base / "id_rsa";
    std::string log;
    if (!RunBedScript("netns-up.sh", &log)) {
      std::string down_log;
      RunBedScript("netns-down.sh", &down_log);
      bed.skip_reason = "network namespaces are not permitted here (netns-up.sh failed): " + log;
      return;
    }
    bed.up = true;
  }

  void TearDown() override {
    Testbed& bed = Bed();
    if (bed.base.empty()) return;
    std::string log;
    RunBedScript("netns-down.sh", &log);
    std::error_code ec;
    fs::remove_all(bed.base, ec);
  }
};

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new TestbedEnvironment);

}  // namespace

Testbed& Bed() {
  static Testbed bed;
  return bed;
}

std::string OnHost(const std::string& address, const std::string& command) {
  auto r =
      core::RunCapture({"ssh", "-i", Bed().key.string(), "-o", "BatchMode=yes", "-o",
                        "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o",
                        "LogLevel=ERROR", std::string(Testbed::kUser) + "@" + address, command},
                       std::chrono::seconds(30));
  return r ? r->out : "";
}

std::vector<std::string> SetupArgs(const std::string& id, const std::string& engines,
                                   const std::string& key, const std::string& confirm) {
  std::vector<std::string> args = {
      "setup",        "--id",           id,         "--provider",     "ssh",
      "--server",     Testbed::kServer, "--client", Testbed::kClient, "--ssh-user",
      Testbed::kUser, "--engines",      engines};
  if (!key.empty()) args.insert(args.end(), {"--ssh-key", key});
  if (!confirm.empty()) args.push_back(confirm);
  return args;
}

}  // namespace dfbench::testing
