// SshHost and the engine lifecycle on a real SSH host of the test bed.
#include "hosts/ssh_host.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <random>
#include <thread>

#include "core/files.h"
#include "core/interrupt.h"
#include "engines/engine.h"
#include "protocol/blocking_client.h"
#include "ssh_testbed.h"
#include "support/test_data.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using hosts::SshHost;

// Values a shell would love to interpret.
const std::vector<std::string> kHostile = {"semi;colon",
                                           "$(touch /tmp/dfbench-canary)",
                                           "`touch /tmp/dfbench-canary`",
                                           "'single'",
                                           "\"double\"",
                                           "new\nline",
                                           "back\\slash",
                                           "$HOME",
                                           "* ?",
                                           "",
                                           "a'b\"c$d`e",
                                           "-n"};

// Under the bed's directory, removed with it.
fs::path LocalDir(const std::string& name) {
  return Bed().base / "local" / name;
}

std::unique_ptr<SshHost> ConnectTo(const std::string& address, const std::string& setup_id,
                                   const std::string& key = Bed().key.string()) {
  auto host = SshHost::Connect({.role = core::Role::Server(),
                                .endpoint = {.user = Testbed::kUser,
                                             .host = address,
                                             .key_path = key,
                                             .connect_timeout = std::chrono::seconds(5)},
                                .setup_id = setup_id,
                                .local_dir = LocalDir(setup_id)});
  EXPECT_TRUE(host) << (host ? "" : host.error().message);
  return host ? std::move(*host) : nullptr;
}

TEST(SshHost, ArgumentsReachTheRemoteProgramVerbatim) {
  REQUIRE_TESTBED();
  fs::remove("/tmp/dfbench-canary");
  auto host = ConnectTo(Testbed::kServer, "argv");
  ASSERT_TRUE(host);
  std::vector<std::string> argv = {"printf", "%s\\0"};
  argv.insert(argv.end(), kHostile.begin(), kHostile.end());
  auto r = host->Run({.argv = argv});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->status.ok()) << r->err;
  EXPECT_EQ(SplitNul(r->out), kHostile);

  // The same through a daemon: its output lands in its log on the host.
  auto work = host->WorkDir();
  ASSERT_TRUE(work);
  const std::string log = *work + "/argv.log";
  auto d = host->StartDaemon({.argv = argv, .log_path = log});
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_TRUE(WaitUntil([&] { return !host->DaemonAlive(*d); }, std::chrono::seconds(5),
                        "the daemon's exit"));
  const fs::path copy = LocalDir("argv") / "argv.log";
  ASSERT_TRUE(host->Fetch(log, copy));
  EXPECT_EQ(SplitNul(*core::ReadFile(copy)), kHostile);
  EXPECT_TRUE(host->StopDaemon(*d, std::chrono::seconds(1)));
  EXPECT_FALSE(fs::exists("/tmp/dfbench-canary"));
  EXPECT_FALSE(fs::exists(Bed().base / "server" / "home" / "dfbench-canary"));
}

TEST(SshHost, FactsPortsAndPrograms) {
  REQUIRE_TESTBED();
  auto host = ConnectTo(Testbed::kServer, "facts");
  ASSERT_TRUE(host);
  EXPECT_EQ(host->EngineAddress(), Testbed::kServer);  // learned from $SSH_CONNECTION
  EXPECT_TRUE(host->is_root());
  auto f = host->Facts(core::Role::Server());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->role.Name(), "server");
  EXPECT_EQ(f->name, "dfb-server");
  EXPECT_EQ(f->address, Testbed::kServer);
  EXPECT_EQ(f->private_address, Testbed::kServer);
  EXPECT_GT(f->vcpus, 0);
  EXPECT_GT(f->memory_bytes, 0u);
  EXPECT_FALSE(f->os.empty());
  EXPECT_FALSE(f->kernel.empty());
  EXPECT_EQ(f->nic, "eth0");
  EXPECT_EQ(f->rx_queues, 1);

  auto port = host->FreePort();
  ASSERT_TRUE(port) << port.error().message;
  EXPECT_GE(*port, 20000);
  EXPECT_EQ(host->Which("redis-server").value_or(""), "/usr/bin/redis-server");
  EXPECT_EQ(host->Which("/usr/bin/redis-server").value_or(""), "/usr/bin/redis-server");
  EXPECT_FALSE(host->Which("no-such-program-here"));
  auto missing = host->Run({.argv = {"no-such-program-here", "x"}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(missing.error().message.find("not found"), std::string::npos);
  auto exit3 = host->Run({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}});
  ASSERT_TRUE(exit3);
  EXPECT_EQ(exit3->status.code, 3);
  EXPECT_EQ(exit3->out, "out\n");
  EXPECT_EQ(exit3->err, "err\n");
  auto pinned = host->Run({.argv = {"sh", "-c", "taskset -pc $$"}, .cpus = {0}});
  ASSERT_TRUE(pinned);
  EXPECT_NE(pinned->out.find("list: 0"), std::string::npos) << pinned->out;
}

TEST(SshHost, UploadAndFetchAreByteExact) {
  REQUIRE_TESTBED();
  auto host = ConnectTo(Testbed::kServer, "files");
  ASSERT_TRUE(host);
  std::string data(300000, '\0');
  std::mt19937 rng(7);
  for (char& c : data) c = static_cast<char>(rng());
  const fs::path local = LocalDir("files") / "blob.bin";
  ASSERT_TRUE(core::WriteFileAtomic(local, data));
  const std::string remote = *host->WorkDir() + "/sub dir/blob.bin";
  ASSERT_TRUE(host->Upload(local, remote, 0750));
  auto mode = host->Run({.argv = {"stat", "-c", "%a", remote}});
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->out, "750\n");
  const fs::path back = LocalDir("files") / "back.bin";
  ASSERT_TRUE(host->Fetch(remote, back));
  EXPECT_EQ(*core::ReadFile(back), data);
  EXPECT_FALSE(host->Fetch(remote + ".missing", back));
  EXPECT_FALSE(fs::exists(back));  // a failed fetch leaves nothing behind
  EXPECT_EQ(host->ReadTail(remote + ".missing", 100), "");
}

TEST(SshHost, DaemonsStopAndNothingOutlivesTheHost) {
  REQUIRE_TESTBED();
  const std::string id = "daemons-" + std::to_string(getpid());
  {
    auto host = ConnectTo(Testbed::kServer, id);
    ASSERT_TRUE(host);
    auto a = host->StartDaemon({.argv = {"sleep", "301"}, .log_path = *host->WorkDir() + "/a.log"});
    auto b = host->StartDaemon({.argv = {"sleep", "302"}, .log_path = *host->WorkDir() + "/b.log"});
    ASSERT_TRUE(a && b);
    EXPECT_TRUE(host->DaemonAlive(*a));
    EXPECT_EQ(LiveProcesses("sleep 301").size(), 1u);
    ASSERT_TRUE(host->StopDaemon(*a, std::chrono::seconds(2)));
    EXPECT_FALSE(host->DaemonAlive(*a));
    EXPECT_TRUE(host->StopDaemon(*a, std::chrono::seconds(2)));  // idempotent
    EXPECT_TRUE(LiveProcesses("sleep 301").empty());
    EXPECT_EQ(LiveProcesses("sleep 302").size(), 1u);
    // b is left to the destructor.
  }
  EXPECT_TRUE(LiveProcesses("sleep 302").empty());
  // The shared connection is closed too.
  EXPECT_TRUE(LiveProcesses(LocalDir(id).string()).empty());
}

TEST(SshHost, ReusesALeftoverConnectionAndIgnoresAStaleSocket) {
  REQUIRE_TESTBED();
  const fs::path dir = LocalDir("leftover");
  fs::create_directories(dir);
  // As if an earlier dfbench had been killed: its shared connection still runs.
  hosts::SshEndpoint e{.user = Testbed::kUser,
                       .host = Testbed::kServer,
                       .key_path = Bed().key.string(),
                       .control_path = (dir / "cm-server").string()};
  auto master = core::RunCapture(hosts::SshMasterArgv(e), std::chrono::seconds(30));
  ASSERT_TRUE(master && master->status.ok());
  ASSERT_EQ(LiveProcesses(e.control_path).size(), 1u);
  {
    auto host = ConnectTo(Testbed::kServer, "leftover");
    ASSERT_TRUE(host);
    EXPECT_EQ(LiveProcesses(e.control_path).size(), 1u);  // reused, not doubled
    auto r = host->Run({.argv = {"true"}});
    EXPECT_TRUE(r && r->status.ok());
  }
  EXPECT_TRUE(LiveProcesses(e.control_path).empty());
  // A dead socket file in its place does not stop the next connection from sharing.
  ASSERT_TRUE(core::WriteFileAtomic(e.control_path, ""));
  {
    auto host = ConnectTo(Testbed::kServer, "leftover");
    ASSERT_TRUE(host);
    EXPECT_EQ(LiveProcesses(e.control_path).size(), 1u);
  }
  EXPECT_TRUE(LiveProcesses(e.control_path).empty());
}

TEST(SshHost, TimeoutsAndInterruptsKillTheRemoteCommand) {
  REQUIRE_TESTBED();
  auto host = ConnectTo(Testbed::kServer, "cut");
  ASSERT_TRUE(host);
  auto slow = host->Run({.argv = {"sleep", "303"}, .timeout = std::chrono::seconds(1)});
  ASSERT_FALSE(slow);
  EXPECT_EQ(slow.error().kind, core::ErrorKind::kFailure);
  EXPECT_NE(slow.error().message.find("timed out"), std::string::npos) << slow.error().message;
  EXPECT_TRUE(LiveProcesses("sleep 303").empty());

  core::InstallInterruptHandlers();
  std::thread interrupter([] {
    // Interrupted while the remote command runs (the bed's hosts share this machine's pids).
    EXPECT_TRUE(WaitUntil([] { return !LiveProcesses("sleep 304").empty(); },
                          std::chrono::seconds(30), "`sleep 304` running on the host"));
    kill(getpid(), SIGINT);
  });
  auto cut = host->Run({.argv = {"sleep", "304"}, .timeout = std::chrono::seconds(60)});
  interrupter.join();
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().kind, core::ErrorKind::kInterrupted);
  // Cleanup still works after the interrupt.
  EXPECT_TRUE(LiveProcesses("sleep 304").empty());
  auto d = host->StartDaemon({.argv = {"sleep", "305"}, .log_path = *host->WorkDir() + "/d.log"});
  ASSERT_TRUE(d);
  EXPECT_TRUE(host->StopDaemon(*d, std::chrono::seconds(1)));
  core::ResetInterruptForTesting();
  EXPECT_TRUE(LiveProcesses("sleep 305").empty());
}

TEST(SshHost, UnreachableHostAndRefusedKeyAreClearErrors) {
  REQUIRE_TESTBED();
  auto nobody = SshHost::Connect({.role = core::Role::Server(),
                                  .endpoint = {.user = "root",
                                               .host = "10.200.0.9",
                                               .key_path = Bed().key.string(),
                                               .connect_timeout = std::chrono::seconds(2)},
                                  .setup_id = "x",
                                  .local_dir = LocalDir("unreachable")});
  ASSERT_FALSE(nobody);
  EXPECT_EQ(nobody.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(nobody.error().message.find("cannot log in to server (root@10.200.0.9)"),
            std::string::npos)
      << nobody.error().message;

  const fs::path other_key = LocalDir("refused") / "other_key";
  fs::create_directories(other_key.parent_path());
  ASSERT_TRUE(
      core::RunCapture({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other_key.string()}));
  auto refused = SshHost::Connect(
      {.role = core::Role::Client(),
       .endpoint = {.user = "root", .host = Testbed::kClient, .key_path = other_key.string()},
       .setup_id = "x",
       .local_dir = LocalDir("refused")});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("Permission denied"), std::string::npos)
      << refused.error().message;
}

TEST(RemoteEngine, RedisStartsWithVerbatimExtraArgsAndStops) {
  REQUIRE_TESTBED();
  fs::remove("/tmp/dfbench-canary");
  auto host = ConnectTo(Testbed::kServer, "engine");
  ASSERT_TRUE(host);
  const std::string secret = "a;b $(touch /tmp/dfbench-canary) `id` 'q' \"dq\" \\";
  engines::Tuning tuning{.extra_args = {"--masterauth", secret}};
  const auto& redis = *engines::FindEngine("redis");
  int pid = -1;
  std::string title;  // redis rewrites its process title to "redis-server <address>:<port>"
  {
    auto engine = engines::Start(*host, redis, "/usr/bin/redis-server", tuning);
    ASSERT_TRUE(engine) << engine.error().message;
    EXPECT_EQ(engine->address(), Testbed::kServer);
    pid = engine->pid();
    EXPECT_EQ(engine->version().rfind("redis ", 0), 0u) << engine->version();
    auto client = protocol::BlockingClient::Connect(engine->address(), engine->port(),
                                                    std::chrono::seconds(2));
    ASSERT_TRUE(client);
    auto reply = client->Command({"CONFIG", "GET", "masterauth"});
    ASSERT_TRUE(reply);
    ASSERT_EQ(reply->elements.size(), 2u);
    EXPECT_EQ(reply->elements[1].str, secret);
    EXPECT_TRUE(engine->HealthCheck());
    title = "redis-server " + engine->address() + ":" + std::to_string(engine->port());
    EXPECT_EQ(LiveProcesses(title).size(), 1u);
  }
  EXPECT_TRUE(LiveProcesses(title).empty()) << pid;
  EXPECT_FALSE(fs::exists("/tmp/dfbench-canary"));

  // An engine that exits at start: its remote log explains why.
  engines::Tuning bad{.extra_args = {"--no-such-directive", "1"}};
  auto failed = engines::Start(*host, redis, "/usr/bin/redis-server", bad);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(failed.error().message.find("exited during startup"), std::string::npos)
      << failed.error().message;
  EXPECT_NE(failed.error().message.find("no-such-directive"), std::string::npos)
      << failed.error().message;
  EXPECT_TRUE(LiveProcesses("redis-server " + std::string(Testbed::kServer)).empty());
}

}  // namespace
}  // namespace dfbench::testing
