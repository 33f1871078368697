#include <gtest/gtest.h>

#include <algorithm>

#include "engines/engine.h"
#include "support/test_data.h"

namespace dfbench::engines {
namespace {

bool Contains(const std::vector<std::string>& argv, const std::string& arg) {
  return std::find(argv.begin(), argv.end(), arg) != argv.end();
}

// The value following `flag` in argv, or "<absent>".
std::string ValueOf(const std::vector<std::string>& argv, const std::string& flag) {
  auto it = std::find(argv.begin(), argv.end(), flag);
  if (it == argv.end() || it + 1 == argv.end()) return "<absent>";
  return *(it + 1);
}

LaunchParams Params() {
  return {.binary = "/opt/bin/engine", .address = "127.0.0.1", .port = 7001, .work_dir = "/w"};
}

TEST(ParseEngineList, ParsesAndTrims) {
  auto list = ParseEngineList(" dragonfly, redis ,valkey,memcached");
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->size(), 4u);
  EXPECT_EQ((*list)[0]->name, "dragonfly");
  EXPECT_EQ((*list)[0]->program, "dragonfly");
  EXPECT_EQ((*list)[1]->program, "redis-server");
  EXPECT_EQ((*list)[2]->program, "valkey-server");
  EXPECT_EQ((*list)[3]->protocol, Protocol::kMemcacheText);
  auto one = ParseEngineList("redis");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->size(), 1u);
}

TEST(ParseEngineList, RejectsUnknownEmptyAndDuplicates) {
  auto unknown = ParseEngineList("redis,foo");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(unknown.error().message,
            "unknown engine \"foo\" (known: dragonfly, redis, valkey, memcached)");
  for (const char* bad : {"", " ", "redis,", ",redis", "redis,,valkey", "redis,redis"}) {
    auto r = ParseEngineList(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().kind, core::ErrorKind::kUsage) << bad;
  }
  EXPECT_NE(ParseEngineList("redis, redis").error().message.find("twice"), std::string::npos);
}

TEST(FindEngine, KnownAndUnknown) {
  ASSERT_NE(FindEngine("valkey"), nullptr);
  EXPECT_EQ(FindEngine("valkey")->program, "valkey-server");
  EXPECT_EQ(FindEngine("keydb"), nullptr);
  EXPECT_EQ(KnownEngines().front().name, "dragonfly");
}

TEST(BuildArgv, Redis) {
  Tuning t{.redis_io_threads = 4, .valkey_io_threads = 2, .extra_args = {"--maxclients", "5000"}};
  auto argv = BuildArgv(*FindEngine("redis"), t, Params());
  EXPECT_EQ(argv.front(), "/opt/bin/engine");
  EXPECT_EQ(ValueOf(argv, "--port"), "7001");
  EXPECT_EQ(ValueOf(argv, "--bind"), "127.0.0.1");
  EXPECT_EQ(ValueOf(argv, "--save"), "");
  EXPECT_EQ(ValueOf(argv, "--appendonly"), "no");
  EXPECT_EQ(ValueOf(argv, "--protected-mode"), "no");
  EXPECT_EQ(ValueOf(argv, "--daemonize"), "no");
  EXPECT_EQ(ValueOf(argv, "--dir"), "/w");
  EXPECT_EQ(ValueOf(argv, "--logfile"), "");
  EXPECT_EQ(ValueOf(argv, "--io-threads"), "4");
  EXPECT_EQ(argv[argv.size() - 2], "--maxclients");
  EXPECT_EQ(argv.back(), "5000");
  EXPECT_FALSE(Contains(BuildArgv(*FindEngine("redis"), {}, Params()), "--io-threads"));
}

TEST(BuildArgv, AClusterNodeGetsItsBusPortAndItsOwnNodesFile) {
  LaunchParams params = Params();
  params.cluster_bus_port = 17001;
  auto argv = BuildArgv(*FindEngine("valkey"), {.valkey_shards = 3}, params);
  EXPECT_EQ(ValueOf(argv, "--cluster-enabled"), "yes");
  EXPECT_EQ(ValueOf(argv, "--cluster-port"), "17001");
  EXPECT_EQ(ValueOf(argv, "--cluster-config-file"), "/w/nodes-7001.conf");
  EXPECT_FALSE(Contains(BuildArgv(*FindEngine("redis"), {}, Params()), "--cluster-enabled"));
  EXPECT_TRUE(
      Contains(BuildArgv(*FindEngine("dragonfly"), {.dragonfly_cluster_emulated = true}, Params()),
               "--cluster_mode=emulated"));
}

// With TLS the engine's one port serves TLS alone, to clients with a certificate of the CA.
TEST(BuildArgv, TlsServesThePortWithTheSetupsFilesAlone) {
  LaunchParams params = Params();
  params.tls = ServerTlsFiles{.cert = "/t/server.crt", .key = "/t/server.key", .ca = "/t/ca.crt"};
  const auto redis = BuildArgv(*FindEngine("redis"), {.tls = true}, params);
  EXPECT_EQ(ValueOf(redis, "--port"), "0");
  EXPECT_EQ(ValueOf(redis, "--tls-port"), "7001");
  EXPECT_EQ(ValueOf(redis, "--tls-cert-file"), "/t/server.crt");
  EXPECT_EQ(ValueOf(redis, "--tls-key-file"), "/t/server.key");
  EXPECT_EQ(ValueOf(redis, "--tls-ca-cert-file"), "/t/ca.crt");
  EXPECT_EQ(ValueOf(redis, "--tls-auth-clients"), "yes");
  EXPECT_FALSE(Contains(redis, "--tls-cluster"));
  params.cluster_bus_port = 17001;
  EXPECT_EQ(ValueOf(BuildArgv(*FindEngine("valkey"), {.tls = true}, params), "--tls-cluster"),
            "yes");
  params.cluster_bus_port = 0;
  const auto dragonfly = BuildArgv(*FindEngine("dragonfly"), {.tls = true}, params);
  EXPECT_EQ(ValueOf(dragonfly, "--port"), "7001");
  EXPECT_TRUE(Contains(dragonfly, "--tls"));
  EXPECT_TRUE(Contains(dragonfly, "--tls_cert_file=/t/server.crt"));
  EXPECT_TRUE(Contains(dragonfly, "--tls_key_file=/t/server.key"));
  EXPECT_TRUE(Contains(dragonfly, "--tls_ca_cert_file=/t/ca.crt"));
  EXPECT_FALSE(Contains(BuildArgv(*FindEngine("redis"), {}, Params()), "--tls-port"));
  EXPECT_EQ(TuningJson(*FindEngine("redis"), {.tls = true})["tls"], true);
  EXPECT_FALSE(TuningJson(*FindEngine("redis"), {}).contains("tls"));
}

TEST(TopologyOf, ShardsMakeAClusterOfProcessesAndDragonflyEmulatesOne) {
  const Tuning t{.redis_shards = 3, .dragonfly_cluster_emulated = true};
  const Topology redis = TopologyOf(*FindEngine("redis"), t);
  EXPECT_EQ(redis.processes(), 3);
  EXPECT_TRUE(redis.cluster);
  const Topology valkey = TopologyOf(*FindEngine("valkey"), t);  // its own knob is unset
  EXPECT_EQ(valkey.processes(), 1);
  EXPECT_FALSE(valkey.cluster);
  const Topology dragonfly = TopologyOf(*FindEngine("dragonfly"), t);
  EXPECT_EQ(dragonfly.processes(), 1);
  EXPECT_TRUE(dragonfly.cluster);
  EXPECT_EQ(TuningJson(*FindEngine("redis"), t)["shards"], 3);
  EXPECT_EQ(TuningJson(*FindEngine("dragonfly"), t)["cluster_mode"], "emulated");
  EXPECT_FALSE(TuningJson(*FindEngine("valkey"), t).contains("shards"));
}

TEST(StartingFlagOf, NamesTheEnginesOwnFlagThatShapesItsStart) {
  const Tuning t{.redis_io_threads = 4, .valkey_shards = 2, .dragonfly_cluster_emulated = true};
  EXPECT_EQ(StartingFlagOf(*FindEngine("redis"), t), "--redis_io_threads");
  EXPECT_EQ(StartingFlagOf(*FindEngine("valkey"), t), "--valkey_shards");
  EXPECT_EQ(StartingFlagOf(*FindEngine("dragonfly"), t), "--dragonfly_cluster_mode emulated");
  EXPECT_EQ(StartingFlagOf(*FindEngine("dragonfly"), {.dragonfly_num_shards = 0}), "");
  EXPECT_EQ(StartingFlagOf(*FindEngine("dragonfly"), {.dragonfly_num_shards = -1}),
            "--dragonfly_num_shards");
  // Defaults shape nothing.
  EXPECT_EQ(StartingFlagOf(*FindEngine("redis"), {.redis_pin_network = true}), "");
  EXPECT_EQ(StartingFlagOf(*FindEngine("memcached"), t), "");
}

// The memory scenario's flags come last, so its snapshot directory wins over the work directory.
TEST(BuildArgv, SnapshotAndDebugFlagsComeLast) {
  const EngineSpec& redis = *FindEngine("redis");
  ASSERT_TRUE(redis.debug_populate && redis.snapshots);
  Tuning t{.extra_args = SnapshotArgs("/snap", "dump.rdb")};
  t.extra_args.insert(t.extra_args.end(), redis.debug_command_args.begin(),
                      redis.debug_command_args.end());
  auto argv = BuildArgv(redis, t, Params());
  const std::vector<std::string> tail(argv.end() - 6, argv.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"--dir", "/snap", "--dbfilename", "dump.rdb",
                                            "--enable-debug-command", "yes"}));
  EXPECT_FALSE(FindEngine("memcached")->snapshots);
  EXPECT_FALSE(FindEngine("memcached")->debug_populate);
  EXPECT_TRUE(FindEngine("dragonfly")->debug_command_args.empty());
}

TEST(BuildArgv, ValkeyUsesItsOwnIoThreads) {
  Tuning t{.redis_io_threads = 4, .valkey_io_threads = 2};
  auto argv = BuildArgv(*FindEngine("valkey"), t, Params());
  EXPECT_EQ(ValueOf(argv, "--io-threads"), "2");
}

TEST(BuildArgv, DragonflyDefaults) {
  Tuning t{.dragonfly_num_shards = 0};
  auto argv = BuildArgv(*FindEngine("dragonfly"), t, Params());
  EXPECT_EQ(ValueOf(argv, "--port"), "7001");
  EXPECT_EQ(ValueOf(argv, "--bind"), "127.0.0.1");
  EXPECT_EQ(ValueOf(argv, "--dir"), "/w");
  EXPECT_TRUE(Contains(argv, "--dbfilename="));
  EXPECT_TRUE(Contains(argv, "--logtostderr"));
  EXPECT_TRUE(Contains(argv, "--version_check=false"));
  for (const auto& a : argv) {
    EXPECT_EQ(a.find("--num_shards"), std::string::npos) << "num_shards 0 is omitted";
    EXPECT_EQ(a.find("--proactor_threads"), std::string::npos);
  }
  EXPECT_FALSE(Contains(argv, "--conn_use_incoming_cpu"));
}

TEST(BuildArgv, DragonflyTuning) {
  Tuning t{.dragonfly_num_shards = 6,
           .dragonfly_conn_use_incoming_cpu = true,
           .dragonfly_proactor_threads = 8,
           .extra_args = {"--cache_mode=true"}};
  auto argv = BuildArgv(*FindEngine("dragonfly"), t, Params());
  EXPECT_TRUE(Contains(argv, "--num_shards=6"));
  EXPECT_TRUE(Contains(argv, "--conn_use_incoming_cpu"));
  EXPECT_TRUE(Contains(argv, "--proactor_threads=8"));
  EXPECT_TRUE(Contains(argv, "--version_check=false"));
  EXPECT_EQ(argv.back(), "--cache_mode=true");
}

// No start of Dragonfly may phone out, whatever the tuning, pinning or snapshot flags.
TEST(BuildArgv, DragonflyNeverChecksItsVersionOnline) {
  const EngineSpec& df = *FindEngine("dragonfly");
  for (const Tuning& t : {Tuning{}, Tuning{.dragonfly_num_shards = 3, .cpus = {0, 1}},
                          Tuning{.extra_args = SnapshotArgs("/snap", "dfbench-x")}}) {
    auto argv = BuildArgv(df, t, Params());
    EXPECT_EQ(std::count(argv.begin(), argv.end(), "--version_check=false"), 1);
  }
  EXPECT_FALSE(Contains(BuildArgv(*FindEngine("redis"), {}, Params()), "--version_check=false"));
}

TEST(BuildArgv, DragonflyPinnedSizesProactorsToThePin) {
  Tuning t{.dragonfly_num_shards = 0, .cpus = {2, 3, 5}};
  auto argv = BuildArgv(*FindEngine("dragonfly"), t, Params());
  EXPECT_TRUE(Contains(argv, "--proactor_threads=3"));
}

TEST(ResolveTuning, DerivesDragonflyShards) {
  const EngineSpec& df = *FindEngine("dragonfly");
  Tuning derive{.dragonfly_num_shards = -1};
  EXPECT_EQ(*ResolveTuning(df, derive, 32, 8).dragonfly_num_shards, 16);
  EXPECT_EQ(*ResolveTuning(df, derive, 8).dragonfly_num_shards, 8);
  EXPECT_EQ(*ResolveTuning(df, derive, 2, 4).dragonfly_num_shards, 1);  // at least one
  Tuning pinned{.dragonfly_num_shards = -1, .cpus = {0, 1}};
  Tuning r = ResolveTuning(df, pinned, 64);
  EXPECT_EQ(*r.dragonfly_num_shards, 2);
  EXPECT_EQ(r.dragonfly_proactor_threads, 2);
  Tuning capped{.dragonfly_num_shards = -1, .dragonfly_proactor_threads = 3};
  EXPECT_EQ(*ResolveTuning(df, capped, 16).dragonfly_num_shards, 3);
  Tuning explicit_shards{.dragonfly_num_shards = 5};
  EXPECT_EQ(*ResolveTuning(df, explicit_shards, 16).dragonfly_num_shards, 5);
  auto argv = BuildArgv(df, ResolveTuning(df, derive, 4), Params());
  EXPECT_TRUE(Contains(argv, "--num_shards=4"));
  // Other engines are left alone.
  EXPECT_EQ(*ResolveTuning(*FindEngine("redis"), derive, 8).dragonfly_num_shards, -1);
}

TEST(BuildArgv, Memcached) {
  LaunchParams p = Params();
  auto argv = BuildArgv(*FindEngine("memcached"), {}, p);
  EXPECT_EQ(ValueOf(argv, "-l"), "127.0.0.1");
  EXPECT_EQ(ValueOf(argv, "-p"), "7001");
  EXPECT_EQ(ValueOf(argv, "-U"), "0");
  EXPECT_EQ(ValueOf(argv, "-m"), "1024");
  EXPECT_FALSE(Contains(argv, "-t"));
  EXPECT_FALSE(Contains(argv, "-u"));
  p.run_as_user = "root";
  argv = BuildArgv(*FindEngine("memcached"), Tuning{.cpus = {0, 1}}, p);
  EXPECT_EQ(ValueOf(argv, "-t"), "2");
  EXPECT_EQ(ValueOf(argv, "-u"), "root");
}

// memcached gets a worker thread per CPU it is given, as every engine does: its pinned CPUs,
// else every vCPU of the host.
TEST(ResolveTuning, MemcachedThreadsFollowItsCpus) {
  const EngineSpec& mc = *FindEngine("memcached");
  Tuning unpinned = ResolveTuning(mc, {}, 8);
  EXPECT_EQ(unpinned.memcached_threads, 8);
  auto argv = BuildArgv(mc, unpinned, Params());
  EXPECT_EQ(ValueOf(argv, "-t"), "8");
  EXPECT_EQ(TuningJson(mc, unpinned), nlohmann::json({{"threads", 8}}));

  Tuning pinned = ResolveTuning(mc, Tuning{.cpus = {2, 3, 4}}, 8);
  EXPECT_EQ(pinned.memcached_threads, 3);
  EXPECT_EQ(ValueOf(BuildArgv(mc, pinned, Params()), "-t"), "3");
  EXPECT_EQ(TuningJson(mc, pinned), nlohmann::json({{"threads", 3}, {"cpus", {2, 3, 4}}}));

  Tuning given = ResolveTuning(mc, Tuning{.memcached_threads = 2, .cpus = {0, 1, 2, 3}}, 8);
  EXPECT_EQ(ValueOf(BuildArgv(mc, given, Params()), "-t"), "2");
  EXPECT_EQ(ResolveTuning(*FindEngine("redis"), {}, 8).memcached_threads, 0);
}

TEST(TuningJson, PerEngine) {
  Tuning t{.redis_io_threads = 4,
           .valkey_io_threads = 8,
           .dragonfly_num_shards = 16,
           .dragonfly_conn_use_incoming_cpu = true,
           .cpus = {0, 1}};
  EXPECT_EQ(TuningJson(*FindEngine("redis"), t),
            nlohmann::json({{"io_threads", 4}, {"cpus", {0, 1}}}));
  EXPECT_EQ(TuningJson(*FindEngine("valkey"), t)["io_threads"], 8);
  auto df = TuningJson(*FindEngine("dragonfly"), t);
  EXPECT_EQ(df["num_shards"], 16);
  EXPECT_EQ(df["conn_use_incoming_cpu"], true);
  EXPECT_FALSE(df.contains("io_threads"));
  EXPECT_EQ(TuningJson(*FindEngine("memcached"), t), nlohmann::json({{"cpus", {0, 1}}}));
  EXPECT_EQ(TuningJson(*FindEngine("redis"), {}), nlohmann::json::object());
}

TEST(VersionFromInfo, NamesTheRealEngine) {
  EXPECT_EQ(VersionFromInfo("# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n"),
            "redis 7.0.15");
  EXPECT_EQ(VersionFromInfo("# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\n"
                            "valkey_version:8.0.1\r\n"),
            "valkey 8.0.1");
  EXPECT_EQ(VersionFromInfo("# Server\r\nredis_version:7.4.0\r\ndragonfly_version:df-v1.27.0\r\n"),
            "dragonfly v1.27.0");
  EXPECT_EQ(VersionFromInfo("# Server\r\n"), "");
}

// The test beds' Dragonfly, started with --proactor_threads 2 (tests/fixtures/info/README.md).
TEST(VersionFromInfo, ReadsDragonflysOwnVersionOverItsRedisCompatibleOne) {
  const std::string info = testing::FixtureText("info/dragonfly_info_server.txt");
  ASSERT_NE(info.find("redis_version:7.4.0\r\n"), std::string::npos) << info;
  EXPECT_EQ(VersionFromInfo(info), "dragonfly v1.40.0-87-gf8eca6d0b");
}

TEST(AddReportedTuning, DragonflysThreadCountWhereItsStartSetNone) {
  const std::string info = testing::FixtureText("info/dragonfly_info_server.txt");
  const EngineSpec& dragonfly = *FindEngine("dragonfly");
  nlohmann::json tuning = {{"conn_use_incoming_cpu", true}};
  AddReportedTuning(dragonfly, info, &tuning);
  EXPECT_EQ(tuning, (nlohmann::json{{"conn_use_incoming_cpu", true}, {"proactor_threads", 2}}));

  nlohmann::json given = {{"proactor_threads", 1}};  // what its command line said stays
  AddReportedTuning(dragonfly, info, &given);
  EXPECT_EQ(given, (nlohmann::json{{"proactor_threads", 1}}));

  nlohmann::json redis = nlohmann::json::object();
  AddReportedTuning(*FindEngine("redis"), "redis_version:7.0.15\r\nthread_count:4\r\n", &redis);
  EXPECT_EQ(redis, nlohmann::json::object());

  nlohmann::json unreadable = nlohmann::json::object();
  AddReportedTuning(dragonfly, "dragonfly_version:df-v1.40.0\r\nthread_count:x\r\n", &unreadable);
  EXPECT_EQ(unreadable, nlohmann::json::object());
}

}  // namespace
}  // namespace dfbench::engines

namespace dfbench::engines {
namespace {

// The first lines of `--version` (memcached: -V) as the real programs print them.
TEST(VersionLabel, NamesTheVersionOfItsOwnEngineOnly) {
  const EngineSpec& dragonfly = *FindEngine("dragonfly");
  const EngineSpec& redis = *FindEngine("redis");
  const EngineSpec& valkey = *FindEngine("valkey");
  const EngineSpec& memcached = *FindEngine("memcached");
  EXPECT_EQ(VersionLabel(dragonfly,
                         "dragonfly \x1b[0;32mv1.40.0-87-gf8eca6d0b-"
                         "f8eca6d0b05c915cee9439036b5b04aebbb973bb\x1b[m"),
            "v1.40.0-87-gf8eca6d0b");
  EXPECT_EQ(VersionLabel(dragonfly, "dragonfly v1.31.0-6c3c6a6e5b2b1a4c9d8e7f6a5b4c3d2e1f0a9b8c"),
            "v1.31.0");
  const std::string redis_line =
      "Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=ae4d7c971a948f0";
  EXPECT_EQ(VersionLabel(redis, redis_line), "7.0.15");
  EXPECT_EQ(VersionLabel(valkey, "Valkey server v=8.0.1 sha=00000000:1 malloc=jemalloc-5.3.0"),
            "8.0.1");
  EXPECT_EQ(VersionLabel(memcached, "memcached 1.6.18"), "1.6.18");

  auto wrong = VersionLabel(valkey, redis_line);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(wrong.error().message, "not valkey: its version line is \"" + redis_line +
                                       "\", not \"Valkey server v=<version> ...\"");
  EXPECT_FALSE(VersionLabel(dragonfly, "memcached 1.6.18"));
  EXPECT_FALSE(VersionLabel(memcached, "memcached"));
  EXPECT_FALSE(VersionLabel(memcached, "memcached ../x1"));
}

TEST(NetworkCpus, TopCpusForIoAndCpuZeroForPinning) {
  EXPECT_EQ(NetworkIoCpus(32, 8),
            (std::vector<int>{16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}));
  EXPECT_EQ(NetworkPinCpus(32, 8).front(), 0);
  EXPECT_EQ(NetworkPinCpus(32, 8).size(), 17u);
  EXPECT_EQ(NetworkPinCpus(8, 1), (std::vector<int>{0, 6, 7}));
  EXPECT_EQ(NetworkPinCpus(2, 1), (std::vector<int>{0, 1}));  // CPU 0 is never an I/O CPU
  EXPECT_EQ(NetworkPinCpus(4, 8), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(NetworkPinCpus(32, 0).empty());  // queues unknown: no pinning
  EXPECT_TRUE(NetworkPinCpus(1, 4).empty());
}

TEST(TuningJson, PinNetworkOnlyWhenApplied) {
  Tuning t{.redis_pin_network = true, .cpus = {0, 6, 7}};
  EXPECT_EQ(TuningJson(*FindEngine("redis"), t),
            nlohmann::json({{"pin_network", true}, {"cpus", {0, 6, 7}}}));
  EXPECT_FALSE(TuningJson(*FindEngine("valkey"), t).contains("pin_network"));
  EXPECT_FALSE(TuningJson(*FindEngine("dragonfly"), t).contains("pin_network"));
}

}  // namespace
}  // namespace dfbench::engines

namespace dfbench::engines {
namespace {

TEST(EngineFacts, ReplicaofAtStartOnlyForDragonfly) {
  EXPECT_TRUE(FindEngine("dragonfly")->replicaof_at_start);
  EXPECT_FALSE(FindEngine("redis")->replicaof_at_start);
  EXPECT_FALSE(FindEngine("valkey")->replicaof_at_start);
}

TEST(EngineFacts, EachEngineReadsItsOwnNetworkPinning) {
  const Tuning redis_only{.redis_pin_network = true};
  EXPECT_TRUE(PinsNetwork(*FindEngine("redis"), redis_only));
  EXPECT_FALSE(PinsNetwork(*FindEngine("valkey"), redis_only));
  EXPECT_TRUE(PinsNetwork(*FindEngine("valkey"), Tuning{.valkey_pin_network = true}));
  EXPECT_FALSE(PinsNetwork(*FindEngine("dragonfly"),
                           Tuning{.redis_pin_network = true, .valkey_pin_network = true}));
  EXPECT_FALSE(PinsNetwork(*FindEngine("memcached"),
                           Tuning{.redis_pin_network = true, .valkey_pin_network = true}));
}

}  // namespace
}  // namespace dfbench::engines
