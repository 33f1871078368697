// Engine lifecycle against real redis-server and memcached on this machine.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <thread>

#include "core/files.h"
#include "core/interrupt.h"
#include "engines/engine.h"
#include "hosts/local_host.h"
#include "protocol/blocking_client.h"
#include "support/scoped_temp_dir.h"
#include "support/wait_until.h"

namespace dfbench::engines {
namespace {

using std::chrono::milliseconds;

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override { host_ = std::make_unique<hosts::LocalHost>(dir_ / "work"); }
  void TearDown() override { host_.reset(); }

  std::string Binary(const std::string& name) {
    auto path = core::FindOnPath(FindEngine(name)->program);
    if (!path) ADD_FAILURE() << FindEngine(name)->program << " is not installed";
    return path.value_or("");
  }

  // An executable shell script standing in for an engine binary.
  std::string Script(const std::string& name, const std::string& body) {
    auto path = dir_ / name;
    EXPECT_TRUE(core::WriteFileAtomic(path, "#!/bin/sh\n" + body + "\n", 0755));
    return path.string();
  }

  protocol::BlockingClient Client(const RunningEngine& engine) {
    auto c = protocol::BlockingClient::Connect(engine.address(), engine.port(), milliseconds(2000));
    EXPECT_TRUE(c) << c.error().message;
    return std::move(*c);
  }

  const testing::ScopedTempDir dir_{"engine"};
  std::unique_ptr<hosts::LocalHost> host_;
};

bool ProcessExists(int pid) {
  return std::filesystem::exists("/proc/" + std::to_string(pid));
}

TEST_F(EngineTest, RedisLifecycle) {
  auto engine = Start(*host_, *FindEngine("redis"), Binary("redis"), {});
  ASSERT_TRUE(engine) << engine.error().message;
  EXPECT_EQ(engine->version().rfind("redis ", 0), 0u) << engine->version();
  EXPECT_EQ(engine->address(), "127.0.0.1");
  EXPECT_GT(engine->port(), 0);
  EXPECT_TRUE(engine->Alive());
  EXPECT_TRUE(engine->HealthCheck());
  const int pid = engine->pid();
  ASSERT_GT(pid, 0);
  {
    auto c = Client(*engine);
    auto set = c.Command({"SET", "k", "v"});
    ASSERT_TRUE(set) << set.error().message;
    EXPECT_EQ(set->str, "OK");
    auto get = c.Command({"GET", "k"});
    ASSERT_TRUE(get);
    EXPECT_EQ(get->str, "v");
  }
  ASSERT_TRUE(engine->Flush());
  {
    auto c = Client(*engine);
    auto size = c.Command({"DBSIZE"});
    ASSERT_TRUE(size);
    EXPECT_EQ(size->integer, 0);
    // Persistence is off.
    auto save = c.Command({"CONFIG", "GET", "save"});
    ASSERT_TRUE(save);
    ASSERT_EQ(save->elements.size(), 2u);
    EXPECT_EQ(save->elements[1].str, "");
  }
  EXPECT_NE(core::ReadTail(engine->log_path()).find("Ready to accept connections"),
            std::string::npos);
  ASSERT_TRUE(engine->Stop());
  EXPECT_FALSE(ProcessExists(pid));
  EXPECT_FALSE(engine->Alive());
  EXPECT_TRUE(engine->Stop());  // idempotent
}

TEST_F(EngineTest, DestructorStopsTheEngine) {
  int pid = -1;
  {
    auto engine = Start(*host_, *FindEngine("redis"), Binary("redis"), {});
    ASSERT_TRUE(engine) << engine.error().message;
    pid = engine->pid();
    EXPECT_TRUE(ProcessExists(pid));
  }
  EXPECT_FALSE(ProcessExists(pid));
}

TEST_F(EngineTest, IoThreadsReachTheProcess) {
  Tuning tuning{.redis_io_threads = 2};
  auto engine = Start(*host_, *FindEngine("redis"), Binary("redis"), tuning);
  ASSERT_TRUE(engine) << engine.error().message;
  auto c = Client(*engine);
  auto r = c.Command({"CONFIG", "GET", "io-threads"});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->elements.size(), 2u);
  EXPECT_EQ(r->elements[1].str, "2");
  EXPECT_EQ(engine->tuning(), nlohmann::json({{"io_threads", 2}}));
}

TEST_F(EngineTest, PinnedEngineRunsOnItsCpus) {
  const int cpu = hosts::AllowedCpus().back();
  auto engine = Start(*host_, *FindEngine("redis"), Binary("redis"), Tuning{.cpus = {cpu}});
  ASSERT_TRUE(engine) << engine.error().message;
  auto status = core::ReadFile("/proc/" + std::to_string(engine->pid()) + "/status");
  ASSERT_TRUE(status);
  std::string line = "Cpus_allowed_list:\t";
  line += std::to_string(cpu);
  line += '\n';
  EXPECT_NE(status->find(line), std::string::npos) << *status;
  EXPECT_EQ(engine->tuning()["cpus"], nlohmann::json({cpu}));
}

TEST_F(EngineTest, BinaryThatExitsAtStartReportsTheLog) {
  std::string bin = Script("bad-redis", "echo 'boom: bad config'\nexit 1");
  auto engine = Start(*host_, *FindEngine("redis"), bin, {});
  ASSERT_FALSE(engine);
  EXPECT_EQ(engine.error().kind, core::ErrorKind::kEnvironment);
  const std::string& msg = engine.error().message;
  EXPECT_EQ(msg.rfind("redis failed to start: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("exit code 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("last log lines:\nboom: bad config"), std::string::npos) << msg;
}

TEST_F(EngineTest, BinaryThatNeverAnswersTimesOutAndIsKilled) {
  auto pid_file = dir_ / "pid";
  std::string bin =
      Script("silent-redis", "echo waiting\necho $$ > '" + pid_file.string() + "'\nexec sleep 60");
  auto engine = Start(*host_, *FindEngine("redis"), bin, {},
                      StartOptions{.ready_timeout = milliseconds(600)});
  ASSERT_FALSE(engine);
  EXPECT_EQ(engine.error().kind, core::ErrorKind::kEnvironment);
  const std::string& msg = engine.error().message;
  EXPECT_NE(msg.find("no answer to PING on 127.0.0.1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(the last try: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("within 600ms"), std::string::npos) << msg;
  EXPECT_NE(msg.find("waiting"), std::string::npos) << msg;
  auto pid = core::ReadFile(pid_file);
  ASSERT_TRUE(pid);
  EXPECT_FALSE(ProcessExists(std::stoi(*pid)));
}

TEST_F(EngineTest, InterruptDuringStartKillsTheEngine) {
  core::InstallInterruptHandlers();
  auto pid_file = dir_ / "pid";
  std::string bin = Script("slow-redis", "echo $$ > '" + pid_file.string() + "'\nexec sleep 60");
  std::thread raiser([&pid_file] {
    // Interrupted while Start waits for the engine to answer, once the engine has written its
    // whole pid (the file exists, empty, before `echo` writes into it).
    EXPECT_TRUE(testing::WaitUntil(
        [&] {
          auto pid = core::ReadFile(pid_file);
          return pid && pid->ends_with('\n');
        },
        std::chrono::seconds(10), "the engine's pid in its pid file"));
    kill(getpid(), SIGINT);
  });
  auto engine = Start(*host_, *FindEngine("redis"), bin, {});
  raiser.join();
  core::ResetInterruptForTesting();
  ASSERT_FALSE(engine);
  EXPECT_EQ(engine.error().kind, core::ErrorKind::kInterrupted);
  auto pid = core::ReadFile(pid_file);
  ASSERT_TRUE(pid);
  EXPECT_FALSE(ProcessExists(std::stoi(*pid)));
}

TEST_F(EngineTest, KilledEngineFailsHealthCheck) {
  auto engine = Start(*host_, *FindEngine("redis"), Binary("redis"), {});
  ASSERT_TRUE(engine) << engine.error().message;
  ASSERT_EQ(kill(engine->pid(), SIGKILL), 0);
  auto health = engine->HealthCheck();
  ASSERT_FALSE(health);
  EXPECT_EQ(health.error().kind, core::ErrorKind::kFailure);
  EXPECT_EQ(health.error().message.rfind("redis ", 0), 0u) << health.error().message;
  EXPECT_TRUE(testing::WaitUntil([&] { return !engine->Alive(); }, std::chrono::seconds(5),
                                 "the killed engine's exit"));
  EXPECT_TRUE(engine->Stop());
}

// An engine that neither answers SHUTDOWN nor exits on SIGTERM (a stopped process: SIGSTOP
// holds both off) is killed, and each overdue step says what it waited for and what it got.
TEST_F(EngineTest, StopSaysWhichSignalTheEngineIgnored) {
  auto engine = Start(*host_, *FindEngine("redis"), Binary("redis"), {},
                      StartOptions{.stop_grace = milliseconds(300)});
  ASSERT_TRUE(engine) << engine.error().message;
  const int pid = engine->pid();
  ASSERT_EQ(kill(pid, SIGSTOP), 0);
  ::testing::internal::CaptureStderr();
  EXPECT_TRUE(engine->Stop());
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(ProcessExists(pid));
  EXPECT_NE(err.find("[redis] still running 300ms after SHUTDOWN NOSAVE (it answered: "),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("timed out"), std::string::npos) << err;  // no reply from a frozen engine
  EXPECT_NE(err.find("[redis] did not exit within 300ms of SIGTERM; killed with SIGKILL"),
            std::string::npos)
      << err;
}

TEST_F(EngineTest, MemcachedLifecycle) {
  auto engine = Start(*host_, *FindEngine("memcached"), Binary("memcached"), {});
  ASSERT_TRUE(engine) << engine.error().message;
  EXPECT_EQ(engine->version().rfind("memcached 1.", 0), 0u) << engine->version();
  EXPECT_TRUE(engine->HealthCheck());
  EXPECT_TRUE(engine->Flush());
  {
    auto c = Client(*engine);
    auto stats = c.MemcacheCommand("stats");
    ASSERT_TRUE(stats) << stats.error().message;
    EXPECT_EQ(stats->back(), "END");
  }
  const int pid = engine->pid();
  ASSERT_TRUE(engine->Stop());
  EXPECT_FALSE(ProcessExists(pid));
}

TEST_F(EngineTest, ProbeVersion) {
  auto redis = ProbeVersion(*host_, Binary("redis"), *FindEngine("redis"));
  ASSERT_TRUE(redis) << redis.error().message;
  EXPECT_EQ(redis->rfind("Redis server v=", 0), 0u) << *redis;
  EXPECT_EQ(redis->find('\n'), std::string::npos);
  auto mc = ProbeVersion(*host_, Binary("memcached"), *FindEngine("memcached"));
  ASSERT_TRUE(mc) << mc.error().message;
  EXPECT_EQ(mc->rfind("memcached 1.", 0), 0u) << *mc;
  auto coloured =
      ProbeVersion(*host_, Script("coloured", "printf 'dragonfly \\033[0;32mv1.40.0\\033[m\\n'"),
                   *FindEngine("dragonfly"));
  ASSERT_TRUE(coloured) << coloured.error().message;
  EXPECT_EQ(*coloured, "dragonfly v1.40.0");
  auto missing = ProbeVersion(*host_, "/nonexistent/redis-server", *FindEngine("redis"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, core::ErrorKind::kEnvironment);
  auto failing =
      ProbeVersion(*host_, Script("broken", "echo nope >&2; exit 2"), *FindEngine("redis"));
  ASSERT_FALSE(failing);
  EXPECT_EQ(failing.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(failing.error().message.find("nope"), std::string::npos) << failing.error().message;
}

}  // namespace
}  // namespace dfbench::engines
