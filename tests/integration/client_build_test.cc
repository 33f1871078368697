// The aarch64 client build (scripts/build-arm64.sh: build/dfbench-linux-aarch64) run for real
// under qemu user-mode emulation (or binfmt), driven exactly as a client host runs it: the
// builtin driver's command line against a real redis-server and memcached, its report read by
// the parser every report goes through. Skipped, saying so, only when the build was not made.
#include <elf.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/files.h"
#include "core/subprocess.h"
#include "drivers/builtin_driver.h"
#include "drivers/load_report.h"
#include "hosts/local_host.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kClientBuild = DFBENCH_CLIENT_BUILD;

// How to start an aarch64 program here: qemu-aarch64-static or qemu-aarch64 in front of it,
// or nothing when neither is installed (a binfmt handler may still run it; if none does, the
// exec fails and the tests say to install qemu-user-static).
std::vector<std::string> Emulator() {
  for (const char* qemu : {"qemu-aarch64-static", "qemu-aarch64"}) {
    if (auto path = core::FindOnPath(qemu)) return {*path};
  }
  return {};
}

std::vector<std::string> ClientArgv(const std::vector<std::string>& args) {
  std::vector<std::string> argv = Emulator();
  argv.push_back(kClientBuild.string());
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

// A local client host whose dfbench is the aarch64 build, started through the emulator as the
// builtin driver starts any client's dfbench: one program path, the loadgen flags after it.
class EmulatedArm64Client : public hosts::LocalHost {
 public:
  explicit EmulatedArm64Client(const fs::path& dir) : LocalHost(dir / "work"), dir_(dir) {}
  core::Result<std::string> DfbenchBinary() override {
    const fs::path wrapper = dir_ / "dfbench-arm64";
    std::string script = "#!/bin/sh\nexec";
    for (const auto& word : ClientArgv({})) script += " '" + word + "'";
    script += " \"$@\"\n";
    if (auto st = core::WriteFileAtomic(wrapper, script); !st) return tl::unexpected(st.error());
    fs::permissions(wrapper, fs::perms::owner_all);
    return wrapper.string();
  }

 private:
  fs::path dir_;
};

class ClientBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kClientBuild)) {
      GTEST_SKIP() << kClientBuild.string()
                   << " was not built: run scripts/build-arm64.sh (needs g++-aarch64-linux-gnu)";
    }
  }

  // The builtin driver's `pass` of `load` against `server` (speaking `protocol`), run by the
  // aarch64 build as on a client host; its report in dir_/report.json.
  core::Result<results::TrialResult> RunOnArm64Client(const TestServer& server,
                                                      core::Protocol protocol,
                                                      const core::Load& load,
                                                      const core::Pass& pass) {
    EmulatedArm64Client client(dir_.path());
    drivers::BuiltinDriver driver;
    return driver.Run(client, {server.host(), server.port(), protocol}, load, pass, {},
                      dir_ / "report.json");
  }

  const ScopedTempDir dir_{"client-build"};
};

TEST_F(ClientBuild, IsAStaticAarch64Executable) {
  std::ifstream in(kClientBuild, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), sizeof(Elf64_Ehdr));
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(header.e_ident), 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(header.e_machine, EM_AARCH64);
  // No program interpreter: the file needs no dynamic loader or shared library on the host.
  for (int i = 0; i < header.e_phnum; ++i) {
    const size_t at = header.e_phoff + static_cast<size_t>(i) * header.e_phentsize;
    ASSERT_LE(at + sizeof(Elf64_Phdr), bytes.size());
    Elf64_Phdr program;
    std::memcpy(&program, bytes.data() + at, sizeof(program));
    EXPECT_NE(program.p_type, static_cast<uint32_t>(PT_INTERP)) << "dynamically linked";
  }
}

// setup's check that the uploaded binary starts: `version`.
TEST_F(ClientBuild, VersionRuns) {
  auto r = core::RunCapture(ClientArgv({"version"}), std::chrono::minutes(1));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->status.code, 0) << r->err << " (is qemu-user-static installed?)";
  EXPECT_EQ(r->out.rfind("dfbench v", 0), 0u) << r->out;
}

TEST_F(ClientBuild, OtherCommandsAreOneLineAndExitTwo) {
  auto r = core::RunCapture(ClientArgv({"run", "--id", "x"}), std::chrono::minutes(1));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->status.code, 2) << r->err;
  EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1) << r->err;
  EXPECT_NE(r->err.find("only 'loadgen' and 'version'"), std::string::npos) << r->err;
}

// Built without an aarch64 libssl (libssl-dev:arm64), it says so when TLS is asked for, before
// any connection.
TEST_F(ClientBuild, TlsWithoutAnAarch64LibsslIsOneLineAndExitTwo) {
  if (fs::exists("/usr/lib/aarch64-linux-gnu/libssl.a")) {
    GTEST_SKIP() << "an aarch64 libssl is installed: this client build has TLS";
  }
  auto r = core::RunCapture(ClientArgv({"loadgen", "--tls", "-p", "1", "--progress", "never"}),
                            std::chrono::minutes(1));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->status.code, 2) << r->err;
  EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1) << r->err;
  EXPECT_NE(r->err.find("this build of dfbench has no TLS"), std::string::npos) << r->err;
}

TEST_F(ClientBuild, BuiltinDriverRunsItAgainstRedis) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  auto trial = RunOnArm64Client(
      *server, core::Protocol::kRedis,
      {.threads = 2, .clients = 3, .pipeline = 4, .data_size = 256, .ratio = {.set = 1, .get = 1}},
      core::Pass::Requests(200));
  ASSERT_TRUE(trial) << trial.error().message;
  EXPECT_EQ(trial->ops, 2u * 3u * 200u);
  EXPECT_EQ(trial->errors, 0u);
  EXPECT_GT(trial->throughput, 0);
  // The server saw the SETs: half of every connection's requests.
  auto info = server->Client().Command({"INFO", "commandstats"});
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_NE(info->str.find("cmdstat_set:calls=600,"), std::string::npos) << info->str;
}

TEST_F(ClientBuild, BuiltinDriverRunsItAgainstMemcached) {
  auto server = TestServer::StartMemcached();
  ASSERT_TRUE(server) << server.error().message;
  core::Load load = core::kRunLoad;
  load.threads = 1;
  load.clients = 2;
  auto trial =
      RunOnArm64Client(*server, core::Protocol::kMemcacheText, load, core::Pass::Requests(300));
  ASSERT_TRUE(trial) << trial.error().message;
  EXPECT_EQ(trial->ops, 600u);
  EXPECT_EQ(trial->errors, 0u);
}

// Open loop, as sweep steps and the background loads of run-memory and run-replication run it:
// under qemu the generator waits for due times through epoll_wait (no epoll_pwait2 there).
TEST_F(ClientBuild, OpenLoopPassIsParsed) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  auto trial = RunOnArm64Client(
      *server, core::Protocol::kRedis,
      {.threads = 1, .clients = 2, .pipeline = 1, .data_size = 256, .ratio = {.set = 1, .get = 1}},
      {.length = core::Pass::Length::kTestTime,
       .test_time = std::chrono::seconds(2),
       .rate_per_sec = 200});
  ASSERT_TRUE(trial) << trial.error().message;
  EXPECT_GT(trial->ops, 0u);
  EXPECT_EQ(trial->errors, 0u);
  auto text = core::ReadFile(dir_ / "report.json");
  ASSERT_TRUE(text);
  EXPECT_EQ(nlohmann::json::parse(*text)["dfbench"]["mode"], "open-loop");
}

// A background load is stopped with SIGTERM: the generator still writes its report, marked
// interrupted, and exits 130.
TEST_F(ClientBuild, SigtermWritesAMarkedReport) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const fs::path report = dir_ / "report.json";
  auto load = core::Spawn(
      {.argv = ClientArgv({"loadgen", "-s", server->host(), "-p", std::to_string(server->port()),
                           "-t", "1", "-c", "2", "--test-time", "120s", "--progress", "never",
                           "--json-out-file", report.string()}),
       .stdout_path = (dir_ / "out").string(),
       .stderr_path = (dir_ / "err").string()});
  ASSERT_TRUE(load) << load.error().message;
  // Started once the server has answered some of its requests.
  ASSERT_TRUE(WaitUntil([&] { return server->Calls("get") > 0; }, std::chrono::seconds(30),
                        "a GET to reach the server"))
      << core::ReadFile(dir_ / "err").value_or("");
  load->Signal(SIGTERM);
  auto status = load->WaitFor(std::chrono::seconds(30));
  ASSERT_TRUE(status) << "the generator did not end within 30 s of SIGTERM";
  EXPECT_EQ(status->code, 130) << core::ReadFile(dir_ / "err").value_or("");
  auto text = core::ReadFile(report);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(nlohmann::json::parse(*text)["dfbench"]["interrupted"], true);
  auto trial = drivers::ParseLoadReport(*text);
  ASSERT_TRUE(trial) << trial.error().message;
  EXPECT_GT(trial->ops, 0u);
}

}  // namespace
}  // namespace dfbench::testing
