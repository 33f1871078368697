// `dfbench setup / run / run-commands / info / ssh / destroy --provider ssh` on a real
// two-host test bed: redis on the server host, the load generator on the client host.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <set>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "on_terminal.h"
#include "release_server.h"
#include "ssh_testbed.h"
#include "support/test_data.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Nothing of this setup runs anywhere: no engine on the server, no load generator or other
// remote process under the setup's work directory, no local ssh connection of the setup.
void ExpectNothingRunning(const DfbenchRunner& dfb, const std::string& id) {
  EXPECT_TRUE(LiveProcesses(".dfbench-work/" + id + "/").empty())
      << LiveProcesses(".dfbench-work/" + id + "/").front();
  // Redis retitles itself "redis-server <address>:<port>"; memcached keeps "-l <address>".
  EXPECT_TRUE(LiveProcesses("redis-server 10.200.0.").empty());
  EXPECT_TRUE(LiveProcesses("-l 10.200.0.").empty());
  EXPECT_TRUE(LiveProcesses(dfb.SetupDir(id).string()).empty())
      << LiveProcesses(dfb.SetupDir(id).string()).front();
}

fs::path HomeOf(const std::string& role) {
  return Bed().base / role / "home";
}

TEST(SshProvider, SetupRunCommandsInfoSshDestroy) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-flow");
  const std::string id = "lab";
  // Every status the setup passes through, as its state file shows them.
  core::Process setup = dfb.Start(Concat(SetupArgs(id, "redis"), {"--tune-network"}));
  std::set<std::string> seen;
  std::optional<core::ExitStatus> finished;
  ASSERT_TRUE(WaitUntil(
      [&] {
        json polled = dfb.State(id);
        if (polled.is_object()) seen.insert(polled.value("status", ""));
        return (finished = setup.Poll()).has_value();
      },
      std::chrono::minutes(10), "the setup to end"));
  CliResult r{-1, "", *core::ReadFile(dfb.home() / "bg.stderr")};
  ASSERT_EQ(finished->code, 0) << r.err;
  EXPECT_TRUE(seen.count("installing")) << r.err;
  // The reference's step banners; a plain setup looks for both load generators on the client.
  for (const char* banner :
       {"\n[1/5] Logging in to the hosts (server, client)...\n",
        "\n[2/5] Uploading dfbench to the client...\n",
        // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one banner, split to fit the line
        "\n[3/5] Installing load generators on the client (memtier_benchmark 2.3.0, dfly_bench "
        "at main)...\n",
        "\n[4/5] Installing engines on the server (redis)...\n",
        "\n[5/5] Tuning the network on the server...\n", "\nDone.\n"}) {
    EXPECT_TRUE(Contains(r.err, banner)) << banner << r.err;
  }
  json st = dfb.State(id);
  EXPECT_EQ(st["status"], "ready");
  EXPECT_EQ(st["provider"], "ssh");
  ASSERT_EQ(st["hosts"].size(), 2u);
  for (const json& h : st["hosts"]) {
    const std::string role = h["role"];
    EXPECT_EQ(h["name"], "dfb-" + role);
    EXPECT_EQ(h["address"], role == "server" ? Testbed::kServer : Testbed::kClient);
    EXPECT_EQ(h["private_address"], h["address"]);
    EXPECT_GT(h["vcpus"].get<int>(), 0);
    EXPECT_EQ(h["nic"], "eth0");
    EXPECT_EQ(h["rx_queues"], 1);
  }
  ASSERT_EQ(st["engines"].size(), 1u);
  EXPECT_EQ(st["engines"][0]["binary"], "/usr/bin/redis-server");
  EXPECT_TRUE(Contains(st["engines"][0]["version"], "7."));
  // Already installed on the host: found, not reinstalled.
  EXPECT_EQ(st["provider_data"]["installs"]["redis"]["method"], "present");
  EXPECT_EQ(st["tune_network"], true);
  EXPECT_EQ(st["provider_data"]["tune_network"]["applied"], true)
      << st["provider_data"]["tune_network"];
  EXPECT_EQ(st["provider_data"]["tune_network"]["rps_queues"], 1);
  // dfbench itself was uploaded to the client.
  bool uploaded = false;
  for (const auto& e : fs::directory_iterator(HomeOf("client") / ".dfbench-work" / id / "bin")) {
    uploaded |= e.path().filename().string().rfind("dfbench-", 0) == 0;
  }
  EXPECT_TRUE(uploaded);
  ExpectNothingRunning(dfb, id);

  r = dfb.Run(Concat({"run", "--id", id, "--engines", "redis", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["status"], "completed");
  EXPECT_EQ(out["context"]["provider"], "ssh");
  ASSERT_EQ(out["context"]["hosts"].size(), 2u);  // both hosts recorded
  EXPECT_EQ(out["context"]["hosts"][0]["role"], "server");
  EXPECT_EQ(out["context"]["hosts"][1]["role"], "client");
  ASSERT_EQ(out["engines"].size(), 1u);
  const json& redis = out["engines"][0];
  ASSERT_EQ(redis["trials"].size(), 2u);
  for (const json& t : redis["trials"]) EXPECT_EQ(t["ops"], 20000);
  EXPECT_EQ(redis["server_ops"].get<uint64_t>(), 41000u);  // warmup + trials, none lost
  // Remote engines listen on the reference's port unless --port says otherwise.
  EXPECT_EQ(dfb.State(id)["provider_data"]["engine_port"], 6379);
  EXPECT_TRUE(Contains(r.err, "ready on 10.200.0.2:6379\n")) << r.err;
  EXPECT_EQ(redis["tuning"]["pin_network"], true);  // CPU 0 + the I/O CPU
  EXPECT_FALSE(redis["tuning"]["cpus"].empty());
  const fs::path run_dir = dfb.SetupDir(id) / "benchmarks" / out["run_id"].get<std::string>();
  EXPECT_TRUE(fs::exists(run_dir / "memtier" / "redis-t2.json"));  // fetched from the client
  EXPECT_TRUE(Contains(r.err, "ready on 10.200.0.2:")) << r.err;
  EXPECT_EQ(dfb.State(id)["status"], "ready");

  // The same engine serving TLS alone: the setup's certificates on both hosts, the load over
  // TLS from the client, the counts read over TLS through the forwarded control port.
  r = dfb.Run(
      Concat({"run", "--id", id, "--engines", "redis", "--tls", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  const json tls_redis = json::parse(r.out)["engines"][0];
  EXPECT_EQ(tls_redis["tuning"]["tls"], true);
  EXPECT_EQ(tls_redis["server_ops"].get<uint64_t>(), 41000u);
  // And an ACL user made for the run, the default user off: the load generator on the client
  // host gets the password on its stdin (never its command line) and loses no request.
  r = dfb.Run(
      Concat({"run", "--id", id, "--engines", "redis", "--tls", "--acl-user", "--output", "json"},
             kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  const json acl_redis = json::parse(r.out)["engines"][0];
  EXPECT_EQ(acl_redis["tuning"]["acl_user"], "dfbench-run");
  EXPECT_EQ(acl_redis["trials"][0]["errors"], 0u);
  EXPECT_EQ(acl_redis["server_ops"].get<uint64_t>(), 41000u);
  for (const auto& [role, files] : std::map<std::string, std::vector<std::string>>{
           {"server", {"ca.crt", "server.crt", "server.key"}},
           {"client", {"ca.crt", "client.crt", "client.key"}}}) {
    for (const auto& file : files) {
      struct stat tls_file {};
      const fs::path path = HomeOf(role) / ".dfbench-work" / id / "tls" / file;
      ASSERT_EQ(stat(path.c_str(), &tls_file), 0) << path;
      if (file.ends_with(".key")) {
        EXPECT_EQ(tls_file.st_mode & 0777, 0600u) << path;
      }
    }
  }
  ExpectNothingRunning(dfb, id);

  // A cluster of two shards on the server host, each its own process, met over the host's
  // address; the server's count sums them, and the whole cluster stops with the run.
  r = dfb.Run(
      Concat({"run", "--id", id, "--engines", "redis", "--redis_shards", "2", "--output", "json"},
             kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  const json cluster = json::parse(r.out)["engines"][0];
  EXPECT_EQ(cluster.value("error", ""), "");
  EXPECT_EQ(cluster["tuning"]["shards"], 2);
  EXPECT_EQ(cluster["tuning"]["shard_ports"].size(), 2u);
  for (const json& t : cluster["trials"]) EXPECT_EQ(t["ops"], 20000);
  EXPECT_EQ(cluster["server_ops"].get<uint64_t>(), 41000u);
  ExpectNothingRunning(dfb, id);

  // A custom command full of shell syntax reaches the remote load generator verbatim.
  const std::string hostile = "SET __key__ a;b$(touch${IFS}/tmp/dfbench-canary)`id`'q'\"dq\"";
  fs::remove("/tmp/dfbench-canary");
  r = dfb.Run(Concat({"run-commands", "--id", id, "--engines", "redis", "--command-template",
                      hostile, "--command-mutates"},
                     SplitArgs("--key-maximum 1000 --test-time 1 --warmup-time 0 --trials 1 "
                               "--memtier-threads 1 --memtier-clients 2 --output json")));
  if (r.code == 2 && Contains(r.err, "unknown command 'run-commands'")) {
    GTEST_LOG_(INFO) << "run-commands is not built; skipped its part";
  } else {
    ASSERT_EQ(r.code, 0) << r.err;
    json commands = json::parse(r.out);
    const fs::path dir =
        dfb.SetupDir(id) / "commands" / commands["run_id"].get<std::string>() / "memtier";
    json report;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".json") report = ReadJson(e.path());
    }
    ASSERT_TRUE(report.is_object());
    EXPECT_EQ(report["configuration"]["commands"][0]["command"], hostile);
    EXPECT_FALSE(fs::exists("/tmp/dfbench-canary"));
    EXPECT_FALSE(fs::exists(HomeOf("client") / "dfbench-canary"));
    ExpectNothingRunning(dfb, id);
  }

  r = dfb.Run({"info", "--id", id});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string login = "ssh -i " + Bed().key.string() +
                            " -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
                            " -o LogLevel=ERROR root@";
  EXPECT_TRUE(Contains(r.out, "Provider:  ssh")) << r.out;
  EXPECT_TRUE(Contains(r.out, "NIC: eth0 (1 RX queue)")) << r.out;
  EXPECT_TRUE(Contains(r.out, "Network tuning: eth0 steered to CPUs [1]")) << r.out;
  EXPECT_TRUE(Contains(r.out, "server: " + login + Testbed::kServer)) << r.out;
  EXPECT_TRUE(Contains(r.out, "client: " + login + Testbed::kClient)) << r.out;
  EXPECT_TRUE(Contains(r.out, "copy:   scp -i " + Bed().key.string() + " -P 22 FILE root@" +
                                  Testbed::kServer + ":\n"))
      << r.out;
  EXPECT_TRUE(Contains(r.out, "dfbench ssh     --id lab --target server")) << r.out;

  // list names the hosts and their vCPUs, and the provider in the REGION column.
  r = dfb.Run({"list"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string vcpus = std::to_string(st["hosts"][0]["vcpus"].get<int>());
  EXPECT_TRUE(Contains(
      r.out, "lab  ready   ssh     dfb-server " + vcpus + " vCPU  dfb-client " + vcpus + " vCPU  "))
      << r.out;

  r = dfb.Run({"ssh", "--id", id, "--print"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, login + Testbed::kServer + "\n");
  r = dfb.Run({"ssh", "--id", id, "--target", "client", "--print"});
  EXPECT_EQ(r.out, login + Testbed::kClient + "\n");
  r = dfb.Run({"ssh", "--id", id, "--target", "replica-0", "--print"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(Contains(r.err, "has no replica-0 (its hosts: server, client)")) << r.err;
  // Without --print dfbench becomes ssh: a shell on the client reads our stdin.
  auto shell = core::RunCapture(dfb.Argv({"ssh", "--id", id, "--target", "client"}),
                                std::chrono::seconds(30), "hostname\n");
  ASSERT_TRUE(shell);
  EXPECT_EQ(shell->out, "dfb-client\n") << shell->err;

  r = dfb.Run({"destroy", "--id", id, "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "[1/2] Stopping what dfbench left running and removing "
                       "~/.dfbench-work/lab/ on the hosts...\n"))
      << r.err;
  EXPECT_TRUE(Contains(r.err, "[2/2] Removing local SSH connection files...\nDone.\n")) << r.err;
  EXPECT_EQ(dfb.State(id)["status"], "destroyed");
  EXPECT_FALSE(fs::exists(HomeOf("server") / ".dfbench-work" / id));
  EXPECT_FALSE(fs::exists(HomeOf("client") / ".dfbench-work" / id));
  EXPECT_FALSE(fs::exists(dfb.SetupDir(id) / "ssh"));
  EXPECT_TRUE(fs::exists(run_dir / "results.json"));  // results stay
  ExpectNothingRunning(dfb, id);
  r = dfb.Run({"ssh", "--id", id, "--print"});
  EXPECT_EQ(r.code, 3) << r.err;
}

// A pinned version from a mirror on this machine, reached over the bed's bridge: downloaded
// once into the engine cache in the SSH user's home on the server, run there, and found in
// that cache by the next setup (the mirror's access log sees one download).
TEST(SshProvider, PinnedVersionFromAMirrorIsCachedOnTheServer) {
  REQUIRE_TESTBED();
  ReleaseServer mirror(Testbed::kBridge);
  const std::string archive = "valkey-8.0.2-jammy-x86_64.tar.gz";
  MakeRelease(mirror, archive, "valkey-8.0.2-jammy-x86_64", "valkey-server");
  // http:// beyond this machine only under the mirror the user names.
  ::setenv("DFBENCH_VALKEY_RELEASES", mirror.Url().c_str(), 1);
  struct Unset {
    ~Unset() { ::unsetenv("DFBENCH_VALKEY_RELEASES"); }
  } unset;
  DfbenchRunner dfb("ssh-mirror");
  const fs::path cache = HomeOf("server") / ".dfbench" / "cache" / "engines" / "valkey";
  std::error_code ec;
  fs::remove_all(cache, ec);

  auto r = dfb.Run(Concat(SetupArgs("m1", "valkey"), {"--valkey_version", mirror.Url(archive)}));
  ASSERT_EQ(r.code, 0) << r.err;
  const json engine = dfb.State("m1")["engines"][0];
  EXPECT_TRUE(Contains(engine["binary"], "/.dfbench/cache/engines/valkey/url-")) << engine;
  EXPECT_EQ(engine["origin"], "release");
  EXPECT_EQ(mirror.Downloads(archive), 1);
  const fs::path installed =
      cache / fs::path(engine["binary"].get<std::string>()).parent_path().filename();
  EXPECT_TRUE(fs::exists(installed / "valkey-server")) << installed;
  EXPECT_TRUE(fs::exists(installed / "dfbench-install.json")) << installed;

  r = dfb.Run(Concat({"run", "--id", "m1", "--engines", "valkey", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  const json row = json::parse(r.out)["engines"][0];
  EXPECT_EQ(row["origin"], "release");
  EXPECT_EQ(row["sha256"], engine["sha256"]);
  EXPECT_TRUE(Contains(r.err, "ready on 10.200.0.2:")) << r.err;
  ASSERT_EQ(dfb.Run({"destroy", "--id", "m1", "--yes"}).code, 0);

  r = dfb.Run(Concat(SetupArgs("m2", "valkey"), {"--valkey_version", mirror.Url(archive)}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "valkey from the cache")) << r.err;
  EXPECT_EQ(dfb.State("m2")["engines"][0]["binary"], engine["binary"]);
  EXPECT_EQ(mirror.Downloads(archive), 1);
  ASSERT_EQ(dfb.Run({"destroy", "--id", "m2", "--yes"}).code, 0);
  ExpectNothingRunning(dfb, "m2");
}

TEST(SshProvider, QuickstartSetsUpRunsAndDestroys) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-quickstart");
  auto args = SetupArgs("qs", "redis,memcached", Bed().key.string(), /*confirm=*/"");
  args[0] = "quickstart";
  // DFBENCH_NO_CONFIRM=1 stands for --yes.
  auto run =
      core::RunCapture(Concat({"env", "DFBENCH_NO_CONFIRM=1"},
                              dfb.Argv(Concat(Concat(args, kSmallRun), {"--output", "json"}))),
                       std::chrono::minutes(5));
  ASSERT_TRUE(run);
  ASSERT_EQ(run->status.code, 0) << run->err;
  EXPECT_TRUE(Contains(run->err, "quickstart qs will change these hosts over SSH:")) << run->err;
  json out = json::parse(run->out);
  EXPECT_EQ(out["status"], "completed");
  ASSERT_EQ(out["engines"].size(), 2u);
  EXPECT_EQ(out["engines"][1]["engine"], "memcached");
  EXPECT_EQ(out["engines"][1]["trials"].size(), 2u);
  EXPECT_EQ(dfb.State("qs")["status"], "destroyed");
  EXPECT_FALSE(fs::exists(HomeOf("server") / ".dfbench-work" / "qs"));
  EXPECT_FALSE(fs::exists(HomeOf("client") / ".dfbench-work" / "qs"));
  ExpectNothingRunning(dfb, "qs");
}

TEST(SshProvider, MemtierIsBuiltOnTheClientOrFoundThere) {
  REQUIRE_TESTBED();
  if (auto why = MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::string memtier = MemtierBinary().string();
  DfbenchRunner dfb("ssh-memtier");
  const std::string id = "lg";
  const fs::path installed = HomeOf("client") / ".local" / "bin" / "memtier_benchmark";
  ASSERT_FALSE(fs::exists(installed));
  const auto args = Concat(SetupArgs(id, "redis"), {"--load-generator", "memtier"});
  // Missing on the client: setup builds release 2.3.0 there from its source tarball. Asked for
  // by name, it is required: a client without a way to github.com fails the setup in one line
  // with what to do.
  auto r = dfb.Run(args);
  auto said = [&r](const std::string& part) { return Contains(r.err, part); };
  EXPECT_TRUE(
      said("[3/4] Installing load generators on the client (memtier_benchmark "
           "2.3.0)...\n"))
      << r.err;
  if (r.code == 0) {  // the client reaches GitHub: the build itself ran
    EXPECT_EQ(dfb.State(id)["provider_data"]["load_generators"]["memtier"]["method"], "source");
  } else {
    EXPECT_EQ(r.code, 5) << r.err;
    EXPECT_TRUE(
        said("memtier_benchmark is not installed on client (root@10.200.0.3) and cannot be "
             "built there: it cannot reach github.com"))
        << r.err;
    EXPECT_TRUE(said("pass --memtier-binary PATH")) << r.err;
    EXPECT_EQ(dfb.State(id)["status"], "failed");

    // Present in ~/.local/bin (where a build lands): found, nothing is built, and runs use it.
    fs::create_directories(installed.parent_path());
    fs::copy_file(memtier, installed);
    r = dfb.Run(args);
    ASSERT_EQ(r.code, 0) << r.err;
    const json record = dfb.State(id)["provider_data"]["load_generators"]["memtier"];
    EXPECT_EQ(record["method"], "present");
    EXPECT_EQ(record["binary"], "/root/.local/bin/memtier_benchmark");
    r = dfb.Run({"info", "--id", id});
    const std::string line = "  Load generator: memtier at /root/.local/bin/memtier_benchmark";
    EXPECT_NE(r.out.find(line + " (found on the client)\n"), std::string::npos) << r.out;
  }
  r = dfb.Run(Concat(
      {"run", "--id", id, "--engines", "redis", "--load-generator", "memtier", "--output", "json"},
      kSmallRun));
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code == 0) {
    const json out = json::parse(r.out);
    EXPECT_EQ(out["context"]["load_generator"], "memtier");
    for (const json& t : out["engines"][0]["trials"]) EXPECT_EQ(t["ops"], 20000);
  }
  EXPECT_EQ(dfb.Run({"destroy", "--id", id, "-y"}).code, 0);
  std::error_code ec;
  fs::remove(installed, ec);
  ExpectNothingRunning(dfb, id);
}

TEST(SshProvider, GeneratedKeyIsPrintedAndMustBeAcceptedFirst) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-keygen");
  const std::string id = "gen";
  auto r = dfb.Run(SetupArgs(id, "redis", /*key=*/"", "-y"));
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_TRUE(Contains(r.err, "\n[1/5] Generating SSH key pair...\n")) << r.err;
  const fs::path key = dfb.SetupDir(id) / "ssh" / "id_rsa";
  const std::string pub = *core::ReadFile(key.string() + ".pub");
  EXPECT_TRUE(Contains(r.err, pub.substr(0, pub.size() - 1))) << r.err;  // printed in full
  EXPECT_TRUE(Contains(r.err, "~/.ssh/authorized_keys of root")) << r.err;
  EXPECT_TRUE(Contains(r.err, "Permission denied")) << r.err;
  EXPECT_TRUE(Contains(r.err, "run the same setup command again")) << r.err;
  struct stat sb;
  ASSERT_EQ(stat(key.c_str(), &sb), 0);
  EXPECT_EQ(sb.st_mode & 0777, 0600u);
  ASSERT_EQ(stat(key.parent_path().c_str(), &sb), 0);
  EXPECT_EQ(sb.st_mode & 0777, 0700u);
  EXPECT_EQ(dfb.State(id)["status"], "failed");
  ExpectNothingRunning(dfb, id);

  // The user adds the key on both hosts; the same command now succeeds with the same key.
  for (const char* role : {"server", "client"}) {
    const fs::path keys = Bed().base / role / "authorized_keys";
    ASSERT_TRUE(core::WriteFileAtomic(keys, *core::ReadFile(keys) + pub, 0600));
  }
  r = dfb.Run(SetupArgs(id, "redis", /*key=*/"", "-y"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "reusing the SSH key pair")) << r.err;
  EXPECT_EQ(dfb.State(id)["provider_data"]["ssh"]["key_path"], key.string());
  r = dfb.Run({"ssh", "--id", id, "--print"});
  EXPECT_TRUE(Contains(r.out, "ssh -i " + key.string() + " ")) << r.out;
  r = dfb.Run({"destroy", "--id", id, "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "[2/2] Removing local SSH key files...")) << r.err;
  EXPECT_FALSE(fs::exists(key));  // destroy removes the generated pair
  ExpectNothingRunning(dfb, id);
}

TEST(SshProvider, AskedOnATerminalBeforeChangingHosts) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-prompt");
  const std::string id = "ask";
  auto r = RunOnTerminal(dfb, SetupArgs(id, "redis", Bed().key.string(), /*confirm=*/""), "y\n");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(Contains(r.out, "Proceed? [y/N]")) << r.out;
  EXPECT_EQ(dfb.State(id)["status"], "ready");
  const fs::path work = HomeOf("server") / ".dfbench-work" / id;
  ASSERT_TRUE(fs::exists(work));

  // destroy shows what it removes; "n" keeps everything.
  r = RunOnTerminal(dfb, {"destroy", "--id", id}, "n\n");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(Contains(r.out, "destroy ask will change these hosts (ssh provider):")) << r.out;
  EXPECT_TRUE(Contains(r.out, "remove ~/.dfbench-work/ask/")) << r.out;
  EXPECT_TRUE(Contains(r.out, "not confirmed; nothing changed")) << r.out;
  EXPECT_EQ(dfb.State(id)["status"], "ready");
  EXPECT_TRUE(fs::exists(work));
  // Without a terminal, no input and no --yes: the plan, then end of input is a no, at once.
  r = dfb.Run({"destroy", "--id", id}, std::chrono::seconds(20));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "destroy ask will change these hosts (ssh provider):")) << r.err;
  EXPECT_TRUE(Contains(r.err, "no answer on stdin (end of input): pass --yes")) << r.err;
  EXPECT_TRUE(fs::exists(work));
  r = dfb.Run({"destroy", "--id", id, "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(work));
  ExpectNothingRunning(dfb, id);
}

TEST(SshProvider, UnreachableHostAndRefusedKey) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-unreachable");
  auto args = SetupArgs("far", "redis");
  args[std::find(args.begin(), args.end(), "--server") - args.begin() + 1] = "10.200.0.9";
  auto r = dfb.Run(args);
  EXPECT_EQ(r.code, 5);
  EXPECT_TRUE(Contains(r.err, "cannot log in to server (root@10.200.0.9)")) << r.err;
  EXPECT_EQ(dfb.State("far")["status"], "failed");

  const fs::path other = dfb.home() / "other_key";
  ASSERT_TRUE(
      core::RunCapture({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other.string()}));
  r = dfb.Run(SetupArgs("refused", "redis", other.string()));
  EXPECT_EQ(r.code, 5);
  EXPECT_TRUE(Contains(r.err, "cannot log in to server (root@10.200.0.2)")) << r.err;
  EXPECT_TRUE(Contains(r.err, "Permission denied")) << r.err;
  EXPECT_EQ(dfb.State("refused")["status"], "failed");

  r = dfb.Run({"setup", "--id", "x", "--provider", "ssh", "--server", Testbed::kServer,
               "--ssh-user", "root"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(Contains(r.err, "--client")) << r.err;
  r = dfb.Run({"setup", "--id", "x", "--server", Testbed::kServer});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(Contains(r.err, "--server needs --provider ssh")) << r.err;
  r = dfb.Run(Concat(SetupArgs("x", "redis"), {"--server", "-oProxyCommand=touch /tmp/x"}));
  EXPECT_EQ(r.code, 2) << r.err;
  ExpectNothingRunning(dfb, "far");
  ExpectNothingRunning(dfb, "refused");
}

// The server pretends to run an OS dfbench cannot install engines on: its own /etc/os-release
// is replaced inside its mount namespace only.
class FakeOs {
 public:
  FakeOs() {
    const std::string pid = *core::ReadFile(Bed().base / "server" / "sshd.rootpid");
    pid_ = pid.substr(0, pid.find('\n'));
    file_ = Bed().base / "fake-os-release";
    EXPECT_TRUE(core::WriteFileAtomic(
        file_, "ID=fedora\nVERSION_ID=40\nPRETTY_NAME=\"Fedora Linux 40\"\n"));
    auto r = core::RunCapture(
        {"nsenter", "-t", pid_, "-m", "mount", "--bind", file_.string(), "/etc/os-release"});
    ok_ = r && r->status.ok();
  }
  ~FakeOs() {
    if (ok_) (void)core::RunCapture({"nsenter", "-t", pid_, "-m", "umount", "/etc/os-release"});
  }
  bool ok() const { return ok_; }

 private:
  std::string pid_;
  fs::path file_;
  bool ok_ = false;
};

TEST(SshProvider, EngineThatCannotBeInstalled) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-noinstall");
  FakeOs fedora;
  if (!fedora.ok()) GTEST_SKIP() << "cannot mount inside the server's namespace";
  ASSERT_EQ(OnHost(Testbed::kServer, "grep ^ID= /etc/os-release"), "ID=fedora\n");
  auto r = dfb.Run(SetupArgs("nov", "redis,valkey"));
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_TRUE(Contains(r.err, "cannot install valkey on server (root@10.200.0.2)")) << r.err;
  EXPECT_TRUE(Contains(r.err, "Debian and Ubuntu only, not on Fedora Linux 40")) << r.err;
  EXPECT_TRUE(Contains(r.err, "--valkey_binary")) << r.err;
  EXPECT_FALSE(Contains(r.err, "download")) << r.err;  // no attempt to fetch anything
  EXPECT_EQ(dfb.State("nov")["status"], "failed");
  ExpectNothingRunning(dfb, "nov");
  r = dfb.Run({"destroy", "--id", "nov", "-y"});
  EXPECT_EQ(r.code, 0) << r.err;
}

// A "dragonfly" build that is really redis-server: it installs and reports a version, but
// exits at once when started with Dragonfly's flags.
fs::path FakeDragonfly(const fs::path& dir) {
  fs::create_directories(dir);
  fs::path binary = dir / "dragonfly-x86_64";
  fs::copy_file("/usr/bin/redis-server", binary, fs::copy_options::overwrite_existing);
  return binary;
}

TEST(SshProvider, LocalDragonflyBuildsAndAnEngineThatExitsAtStart) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-upload");
  const std::string id = "up";
  const fs::path raw = FakeDragonfly(dfb.home() / "build");
  auto r = dfb.Run(Concat(SetupArgs(id, "redis,dragonfly"),
                          {"--replica", Testbed::kClient, "--dragonfly_version", raw.string()}));
  ASSERT_EQ(r.code, 0) << r.err;
  json st = dfb.State(id);
  ASSERT_EQ(st["engines"].size(), 2u);
  const json& df = st["engines"][1];
  EXPECT_EQ(df["name"], "dragonfly");
  // Installed into the engine cache in the SSH user's home.
  EXPECT_TRUE(Contains(df["binary"], "/.dfbench/cache/engines/dragonfly/file-")) << df;
  EXPECT_TRUE(Contains(df["version"], "Redis server v=")) << df;
  EXPECT_EQ(st["provider_data"]["installs"]["dragonfly"]["method"], "upload");
  EXPECT_EQ(st["hosts"].size(), 3u);  // server, client, replica-0
  // Uploaded to the server and to the replica, into their caches.
  for (const char* role : {"server", "client"}) {
    bool found = false;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(
             HomeOf(role) / ".dfbench" / "cache" / "engines" / "dragonfly", ec)) {
      found |= e.path().filename() == "dragonfly";
    }
    EXPECT_TRUE(found) << role;
  }
  r = dfb.Run({"ssh", "--id", id, "--target", "replica-0", "--print"});
  EXPECT_TRUE(Contains(r.out, "root@" + std::string(Testbed::kClient))) << r.out;

  // A build for another architecture is refused before anything is uploaded.
  ASSERT_TRUE(
      core::WriteFileAtomic(dfb.home() / "build" / "dragonfly-arm", Aarch64ElfHeader(), 0755));
  r = dfb.Run(Concat({"run", "--id", id, "--engines", "dragonfly", "--dragonfly_num_shards", "0",
                      "--dragonfly_version", (dfb.home() / "build" / "dragonfly-arm").string()},
                     kSmallRun));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "built for aarch64, but the host is x86_64")) << r.err;
  EXPECT_EQ(dfb.State(id)["status"], "ready");

  // A .tar.gz is unpacked here and its binary installed; the engine then exits at start, with
  // the tail of its log on the host in the error.
  ASSERT_TRUE(core::RunCapture({"tar", "-czf", (dfb.home() / "df.tar.gz").string(), "-C",
                                raw.parent_path().string(), raw.filename().string()}));
  r = dfb.Run(
      Concat({"run", "--id", id, "--engines", "dragonfly", "--dragonfly_num_shards", "0",
              "--dragonfly_version", (dfb.home() / "df.tar.gz").string(), "--output", "json"},
             kSmallRun));
  EXPECT_EQ(r.code, 1) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["status"], "failed");
  const std::string error = out["engines"][0]["error"];
  EXPECT_TRUE(Contains(error, "dragonfly failed to start")) << error;
  EXPECT_TRUE(Contains(error, "exited during startup")) << error;
  EXPECT_TRUE(Contains(error, "last log lines")) << error;
  EXPECT_TRUE(Contains(error, "FATAL CONFIG")) << error;
  st = dfb.State(id);
  EXPECT_EQ(st["status"], "ready");
  EXPECT_EQ(st["provider_data"]["installs"]["dragonfly"]["source"],
            (dfb.home() / "df.tar.gz").string());
  ExpectNothingRunning(dfb, id);
  r = dfb.Run({"destroy", "--id", id, "--yes"});
  EXPECT_EQ(r.code, 0) << r.err;
  ExpectNothingRunning(dfb, id);
}

// Waits until results.json of the setup's newest run shows `trials` trials of its first engine.
::testing::AssertionResult WaitForTrials(const DfbenchRunner& dfb, const std::string& id,
                                         size_t trials) {
  return WaitUntil(
      [&] {
        const fs::path runs = dfb.SetupDir(id) / "benchmarks";
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(runs, ec)) {
          json r = ReadJsonIfComplete(e.path() / "results.json");
          if (r.is_object() && !r["engines"].empty() &&
              r["engines"][0]["trials"].size() >= trials) {
            return true;
          }
        }
        return false;
      },
      std::chrono::seconds(60), std::to_string(trials) + " trial(s) in results.json");
}

// The remote load generator processes of a setup: the uploaded dfbench itself (`loadgens`), or
// also the remote shells of the SSH session that runs it (`with_session`).
std::vector<int> RemoteLoadgens(const std::string& id, bool with_session = false) {
  std::vector<int> pids;
  for (const auto& line : LiveProcesses(".dfbench-work/" + id + "/bin/dfbench-")) {
    const std::string cmdline = line.substr(line.find(' ') + 1);
    const bool program = cmdline.rfind("/root/.dfbench-work/" + id + "/bin/dfbench-", 0) == 0;
    if (Contains(line, " loadgen ") && (program || with_session)) pids.push_back(std::stoi(line));
  }
  return pids;
}

json LatestResults(const DfbenchRunner& dfb, const std::string& id) {
  json st = dfb.State(id);
  return ReadJson(dfb.SetupDir(id) / st["benchmarks"].back()["path"].get<std::string>());
}

const std::vector<std::string> kLongRun = {
    "--engines",          "redis",  "--memtier-threads",  "2",  "--memtier-clients", "5",
    "--memtier-requests", "400000", "--memtier-pipeline", "10", "--warmup-requests", "0",
    "--trials",           "3",      "--cooldown",         "0"};

// Starts a long run in the background and waits (up to 10 s) for its remote load generator.
core::Process StartLongRun(const DfbenchRunner& dfb, const std::string& id) {
  core::Process run = dfb.Start(Concat({"run", "--id", id}, kLongRun));
  EXPECT_TRUE(WaitUntil([&] { return !RemoteLoadgens(id).empty(); }, std::chrono::seconds(10),
                        "the run's load generator on the client"));
  return run;
}

// The SETs and GETs the setup's redis on the server host has run (0 before it listens).
uint64_t ServerSetsAndGets() {
  const auto engines = ProcessesMatching("redis-server " + std::string(Testbed::kServer));
  return engines.empty() ? 0
                         : CallsOn(Testbed::kServer, RedisPort(engines.front()), {"set", "get"});
}

TEST(SshProvider, LoadGeneratorKilledMidTrialAndInterrupt) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-faults");
  const std::string id = "cut";
  ASSERT_NO_FATAL_FAILURE(dfb.RunOk(SetupArgs(id, "redis")));

  // The remote load generator dies mid-trial (as when its connection drops).
  core::Process run = dfb.Start(Concat({"run", "--id", id}, kLongRun));
  ASSERT_TRUE(WaitForTrials(dfb, id, 1)) << *core::ReadFile(dfb.home() / "bg.stderr");
  std::vector<int> loadgens;
  ASSERT_TRUE(WaitUntil(
      [&] {
        loadgens = RemoteLoadgens(id);
        return !loadgens.empty();
      },
      std::chrono::seconds(5), "the second trial's load generator"));
  for (int pid : loadgens) kill(pid, SIGKILL);
  auto status = run.WaitFor(std::chrono::seconds(120));
  ASSERT_TRUE(status);
  const std::string err = *core::ReadFile(dfb.home() / "bg.stderr");
  EXPECT_EQ(status->code, 1) << err;
  json results = LatestResults(dfb, id);
  EXPECT_EQ(results["status"], "failed");
  EXPECT_EQ(results["engines"][0]["trials"].size(), 1u);  // the finished trial is kept
  EXPECT_TRUE(Contains(results["engines"][0]["error"], "trial 2: load generator failed"))
      << results["engines"][0]["error"];
  EXPECT_EQ(dfb.State(id)["status"], "ready");
  ExpectNothingRunning(dfb, id);

  // The SSH session running it dies (the remote shells go): a lost connection, said so.
  run = StartLongRun(dfb, id);
  for (int pid : RemoteLoadgens(id, /*with_session=*/true)) kill(pid, SIGKILL);
  status = run.WaitFor(std::chrono::seconds(120));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 1);
  results = LatestResults(dfb, id);
  EXPECT_TRUE(Contains(results["engines"][0]["error"],
                       "trial 1: lost the SSH connection to client (root@10.200.0.3)"))
      << results["engines"][0]["error"];
  EXPECT_EQ(dfb.State(id)["status"], "ready");
  ExpectNothingRunning(dfb, id);

  // Ctrl+C mid-trial: results kept as interrupted, status restored, nothing left anywhere.
  run = StartLongRun(dfb, id);
  ASSERT_FALSE(RemoteLoadgens(id).empty());
  const uint64_t before = ServerSetsAndGets();
  ASSERT_TRUE(WaitUntil([&] { return ServerSetsAndGets() >= before + 1000; },
                        std::chrono::seconds(60), "1000 SETs and GETs of the trial on the server"));
  run.Signal(SIGINT);
  status = run.WaitFor(std::chrono::seconds(60));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 130) << *core::ReadFile(dfb.home() / "bg.stderr");
  results = LatestResults(dfb, id);
  EXPECT_EQ(results["status"], "interrupted");
  EXPECT_EQ(dfb.State(id)["status"], "ready");
  ExpectNothingRunning(dfb, id);

  // kill -9 of dfbench mid-trial: the next run says which command died, stops what it left on
  // the hosts (the pid records under the work directory), marks its run interrupted, goes on.
  run = StartLongRun(dfb, id);
  ASSERT_FALSE(RemoteLoadgens(id).empty());
  const int killed = run.pid();
  run.Signal(SIGKILL);
  ASSERT_TRUE(run.WaitFor(std::chrono::seconds(10)));
  EXPECT_EQ(dfb.State(id)["status"], "benchmarking");
  auto r = dfb.Run(Concat({"run", "--id", id, "--engines", "redis"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "(run, pid " + std::to_string(killed) + ", started ")) << r.err;
  EXPECT_TRUE(Contains(r.err, "died while benchmarking")) << r.err;
  json st = dfb.State(id);
  EXPECT_EQ(st["status"], "ready");
  ASSERT_GE(st["benchmarks"].size(), 2u);
  EXPECT_EQ(st["benchmarks"][st["benchmarks"].size() - 2]["status"], "interrupted");
  EXPECT_EQ(st["benchmarks"].back()["status"], "completed");
  ExpectNothingRunning(dfb, id);

  r = dfb.Run({"destroy", "--id", id, "--yes"});
  EXPECT_EQ(r.code, 0) << r.err;
  ExpectNothingRunning(dfb, id);
}

}  // namespace
}  // namespace dfbench::testing
