// state.json as each provider writes it: loaded and saved again, a setup's file keeps every byte
// (keys, nesting, value types, key order), so an older dfbench and this one read each other's.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "core/files.h"
#include "state/state.h"
#include "support/dfbench_home.h"

namespace dfbench::state {
namespace {

// `dfbench setup --provider local --engines redis,dragonfly --replicas 1 --dragonfly_version
// v1.30.0 --redis_binary /usr/bin/redis-server --engine-port 0`.
constexpr char kLocalState[] = R"json({
  "id": "loc",
  "status": "ready",
  "provider": "local",
  "created_at": "2026-12-03T06:50:29Z",
  "updated_at": "2026-12-03T06:50:29Z",
  "region": "",
  "tune_network": false,
  "hosts": [
    {
      "role": "server",
      "name": "vm",
      "address": "localhost",
      "private_address": "127.0.0.1",
      "cpu_model": "AMD EPYC",
      "vcpus": 2,
      "memory_bytes": 25275990016,
      "kernel": "6.18.44-fc-v1045",
      "os": "Debian GNU/Linux 12 (bookworm)",
      "arch": "x86_64",
      "cpus": [
        0
      ]
    }
  ],
  "engines": [
    {
      "name": "redis",
      "binary": "/usr/bin/redis-server",
      "version": "Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64",
      "status": "installed",
      "origin": "system"
    }
  ],
  "benchmarks": [
    {
      "kind": "run",
      "run_id": "20261203-065100",
      "path": "benchmarks/20261203-065100/results.json",
      "created_at": "2026-12-03T06:51:00Z",
      "completed_at": "2026-12-03T06:52:10Z",
      "status": "completed",
      "engines": [
        "redis"
      ]
    }
  ],
  "provider_data": {
    "engine_port": 0
  },
  "settings": {
    "dragonfly_version": "v1.30.0",
    "engines": [
      "redis",
      "dragonfly"
    ],
    "pin_cpus": false,
    "redis_binary": "/usr/bin/redis-server",
    "replicas": 1
  }
}
)json";

// `dfbench setup --provider ssh` with a key of the user's, private addresses, a replica, both
// external load generators (one could not be built) and --tune-network.
constexpr char kSshState[] = R"json({
  "id": "lab",
  "status": "ready",
  "provider": "ssh",
  "created_at": "2026-12-03T06:50:29Z",
  "updated_at": "2026-12-03T06:58:02Z",
  "region": "",
  "tune_network": true,
  "hosts": [
    {
      "role": "server",
      "name": "bench-1",
      "address": "192.168.1.10",
      "private_address": "10.0.0.1",
      "cpu_model": "AMD EPYC 7R13",
      "vcpus": 16,
      "memory_bytes": 34359738368,
      "kernel": "6.1.0-18-amd64",
      "os": "Debian GNU/Linux 12",
      "arch": "x86_64",
      "cpus": [],
      "nic": "ens5",
      "rx_queues": 8
    }
  ],
  "engines": [
    {
      "name": "dragonfly",
      "binary": "/home/bench/.dfbench/cache/engines/dragonfly/v1.30.0-x86_64/dragonfly",
      "version": "dragonfly v1.30.0-abc",
      "status": "installed",
      "origin": "release",
      "sha256": "5f2b6c1e"
    }
  ],
  "benchmarks": [],
  "provider_data": {
    "engine_port": 6379,
    "installs": {
      "dragonfly": {
        "method": "release",
        "source": "https://github.com/dragonflydb/dragonfly/releases/download/v1.30.0/x.tar.gz"
      },
      "redis": {
        "method": "present",
        "source": "/usr/bin/redis-server"
      }
    },
    "load_generators": {
      "dfly_bench": {
        "method": "missing",
        "reason": "no cmake on the client",
        "version": "main"
      },
      "memtier": {
        "binary": "/home/bench/.local/bin/memtier_benchmark",
        "method": "source",
        "source": "https://github.com/RedisLabs/memtier_benchmark/archive/2.1.1.tar.gz",
        "version": "2.1.1"
      }
    },
    "ssh": {
      "hosts": [
        {
          "role": "server",
          "address": "192.168.1.10",
          "private_address": "10.0.0.1"
        },
        {
          "role": "client",
          "address": "192.168.1.11",
          "private_address": "10.0.0.2"
        },
        {
          "role": "replica-0",
          "address": "192.168.1.12",
          "private_address": ""
        }
      ],
      "key_generated": false,
      "key_path": "/home/me/.ssh/id_ed25519",
      "port": 2222,
      "user": "bench"
    },
    "tune_network": {
      "applied": true,
      "interface": "ens5",
      "io_cpus": [
        14,
        15
      ],
      "irqs": 8,
      "rps_queues": 8,
      "xps_queues": 0
    }
  },
  "settings": {
    "client": "192.168.1.11",
    "client_private_ip": "10.0.0.2",
    "dragonfly_binary": "/opt/dragonfly",
    "engines": [
      "dragonfly",
      "redis"
    ],
    "memcached_version": "system",
    "pin_cpus": true,
    "replicas": [
      "192.168.1.12"
    ],
    "server": "192.168.1.10",
    "server_private_ip": "10.0.0.1",
    "ssh_key": "/home/me/.ssh/id_ed25519",
    "ssh_port": 2222,
    "ssh_user": "bench",
    "valkey_binary": "/usr/bin/valkey-server"
  }
}
)json";

// `dfbench setup --provider aws --replicas 1 --ssh-user root`, its stack up, the NIC tuning
// refused.
constexpr char kAwsState[] = R"json({
  "id": "fleet",
  "status": "ready",
  "provider": "aws",
  "created_at": "2026-12-03T06:50:29Z",
  "updated_at": "2026-12-03T07:02:41Z",
  "region": "eu-west-1",
  "ubuntu_version": "24.04",
  "tune_network": true,
  "hosts": [],
  "engines": [],
  "benchmarks": [],
  "provider_data": {
    "aws": {
      "account": "123456789012",
      "instances": [
        {
          "arch": "x86_64",
          "id": "i-0a1b2c3d4e5f60718",
          "private_ip": "10.0.1.10",
          "public_ip": "54.214.1.10",
          "role": "server",
          "type": "c6i.2xlarge"
        },
        {
          "arch": "arm64",
          "id": "i-0a1b2c3d4e5f60719",
          "private_ip": "10.0.1.11",
          "public_ip": "54.214.1.11",
          "role": "client",
          "type": "c7g.xlarge"
        },
        {
          "arch": "x86_64",
          "id": "i-0a1b2c3d4e5f60720",
          "private_ip": "10.0.1.12",
          "public_ip": "54.214.1.12",
          "role": "replica-0",
          "type": "c6i.2xlarge"
        }
      ],
      "stack_id": "arn:aws:cloudformation:eu-west-1:123456789012:stack/dfbench-fleet/1a2b",
      "stack_name": "dfbench-fleet",
      "ubuntu_version": "24.04"
    },
    "engine_port": 6379,
    "installs": {
      "redis": {
        "method": "apt",
        "source": "redis-server"
      }
    },
    "ssh": {
      "hosts": [
        {
          "role": "server",
          "address": "54.214.1.10",
          "private_address": "10.0.1.10"
        },
        {
          "role": "client",
          "address": "54.214.1.11",
          "private_address": "10.0.1.11"
        },
        {
          "role": "replica-0",
          "address": "54.214.1.12",
          "private_address": "10.0.1.12"
        }
      ],
      "key_generated": true,
      "key_path": "/home/me/.dfbench/runs/fleet/ssh/id_rsa",
      "port": 22,
      "user": "root"
    },
    "tune_network": {
      "applied": false,
      "error": "sudo: a password is required",
      "interface": "ens5",
      "io_cpus": [
        7
      ]
    }
  },
  "settings": {
    "client_arch": "arm64",
    "client_instance": "c7g.xlarge",
    "engines": [
      "redis"
    ],
    "pin_cpus": true,
    "region": "eu-west-1",
    "replica_arch": "x86_64",
    "replica_instance": "c6i.2xlarge",
    "replicas": 1,
    "server_arch": "x86_64",
    "server_instance": "c6i.2xlarge",
    "ssh_user": "root"
  }
}
)json";

// An aws setup that failed before its stack was created: no account, no stack id, no instances.
constexpr char kAwsFailedState[] = R"json({
  "id": "early",
  "status": "failed",
  "provider": "aws",
  "created_at": "2026-12-03T06:50:29Z",
  "updated_at": "2026-12-03T06:50:31Z",
  "region": "us-east-1",
  "ubuntu_version": "22.04",
  "tune_network": false,
  "hosts": [],
  "engines": [],
  "benchmarks": [],
  "provider_data": {
    "aws": {
      "instances": [],
      "stack_name": "dfbench-early",
      "ubuntu_version": "22.04"
    }
  },
  "settings": {
    "client_arch": "x86_64",
    "client_instance": "c6i.2xlarge",
    "engines": [
      "dragonfly"
    ],
    "pin_cpus": true,
    "region": "us-east-1",
    "replica_arch": "x86_64",
    "replica_instance": "c6i.2xlarge",
    "replicas": 0,
    "server_arch": "x86_64",
    "server_instance": "c6i.2xlarge"
  }
}
)json";

// `dfbench setup --endpoint redis=redis://127.0.0.1:6379`, after a run whose keys the server
// would not let it remove (UNLINK and DEL renamed): the prefix stays, with what it left.
constexpr char kEndpointState[] = R"json({
  "id": "shared",
  "status": "ready",
  "provider": "endpoint",
  "created_at": "2026-12-07T03:30:46Z",
  "updated_at": "2026-12-07T03:41:38Z",
  "region": "",
  "tune_network": false,
  "hosts": [
    {
      "role": "client",
      "name": "vm",
      "address": "localhost",
      "private_address": "127.0.0.1",
      "cpu_model": "Intel(R) Xeon(R) Processor",
      "vcpus": 2,
      "memory_bytes": 25324953600,
      "kernel": "6.18.44-fc-v1272",
      "os": "Debian GNU/Linux 12 (bookworm)",
      "arch": "x86_64",
      "cpus": []
    }
  ],
  "engines": [
    {
      "name": "redis",
      "binary": "",
      "version": "redis 7.0.15",
      "status": "installed",
      "origin": "endpoint"
    }
  ],
  "benchmarks": [
    {
      "kind": "run",
      "run_id": "20261207-033046",
      "path": "benchmarks/20261207-033046/results.json",
      "created_at": "2026-12-07T03:30:46Z",
      "completed_at": "2026-12-07T03:30:46Z",
      "status": "failed",
      "engines": [
        "redis"
      ]
    }
  ],
  "provider_data": {
    "endpoints": {
      "redis": {
        "allow_flush": false,
        "cacert": "",
        "cert": "",
        "key": "",
        "password_env": "",
        "password_file": "",
        "run_keys": [
          {
            "error": "redis at 127.0.0.1:6379: 10 key(s) of the run left under \"dfbench:shared:20261207-033046:\": UNLINK answered ERR unknown command 'UNLINK'; DEL answered ERR unknown command 'DEL'",
            "keys_left": 10,
            "prefix": "dfbench:shared:20261207-033046:"
          }
        ],
        "skip_verify": false,
        "sni": "",
        "url": "redis://127.0.0.1:6379"
      }
    }
  },
  "settings": {
    "engines": [],
    "pin_cpus": true,
    "replicas": 0
  }
}
)json";

class StateRecordsTest : public testing::DfbenchHomeTest {
 protected:
  // Writes `text` as setup `id`'s state.json, loads it and saves it again; the file then.
  std::string RoundTrip(const std::string& id, const std::string& text) {
    const std::filesystem::path path = SetupDir(id) / "state.json";
    EXPECT_TRUE(core::WriteFileAtomic(path, text));
    auto s = Load(id);
    EXPECT_TRUE(s) << s.error().message;
    if (!s) return "";
    EXPECT_TRUE(Save(&*s));
    auto saved = core::ReadFile(path);
    EXPECT_TRUE(saved);
    return saved ? *saved : "";
  }
};

// Save stamps updated_at: the one line that may change.
std::string WithoutUpdatedAt(const std::string& text) {
  static const std::regex kUpdatedAt("\"updated_at\": \"[^\"]*\"");
  return std::regex_replace(text, kUpdatedAt, "\"updated_at\": \"\"");
}

TEST_F(StateRecordsTest, LocalStateKeepsEveryByte) {
  EXPECT_EQ(WithoutUpdatedAt(RoundTrip("loc", kLocalState)), WithoutUpdatedAt(kLocalState));
}

TEST_F(StateRecordsTest, SshStateKeepsEveryByte) {
  EXPECT_EQ(WithoutUpdatedAt(RoundTrip("lab", kSshState)), WithoutUpdatedAt(kSshState));
}

TEST_F(StateRecordsTest, AwsStateKeepsEveryByte) {
  EXPECT_EQ(WithoutUpdatedAt(RoundTrip("fleet", kAwsState)), WithoutUpdatedAt(kAwsState));
}

TEST_F(StateRecordsTest, AwsStateWithoutStackKeepsEveryByte) {
  EXPECT_EQ(WithoutUpdatedAt(RoundTrip("early", kAwsFailedState)),
            WithoutUpdatedAt(kAwsFailedState));
}

TEST_F(StateRecordsTest, EndpointStateWithRunKeysKeepsEveryByte) {
  EXPECT_EQ(WithoutUpdatedAt(RoundTrip("shared", kEndpointState)),
            WithoutUpdatedAt(kEndpointState));
  auto s = Load("shared");
  ASSERT_TRUE(s) << s.error().message;
  const auto& runs = s->provider_data.endpoints->at("redis").run_keys;
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].prefix, "dfbench:shared:20261207-033046:");
  EXPECT_EQ(runs[0].keys_left, 10u);
}

// An endpoint recorded before runs recorded their prefixes, and one with none left: no key.
TEST_F(StateRecordsTest, AnEndpointWithoutRunKeysHasNone) {
  ASSERT_TRUE(core::WriteFileAtomic(SetupDir("older") / "state.json", R"({
  "id": "older", "status": "ready", "provider": "endpoint",
  "provider_data": {"endpoints": {"redis": {"allow_flush": false, "cacert": "", "cert": "",
    "key": "", "password_env": "", "password_file": "", "skip_verify": false, "sni": "",
    "url": "redis://127.0.0.1:6379"}}}
})"));
  auto s = Load("older");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_TRUE(s->provider_data.endpoints->at("redis").run_keys.empty());
  ASSERT_TRUE(Save(&*s));
  auto saved = core::ReadFile(SetupDir("older") / "state.json");
  ASSERT_TRUE(saved);
  EXPECT_EQ(saved->find("run_keys"), std::string::npos) << *saved;
}

// Every key the providers record, read into its typed member.
TEST_F(StateRecordsTest, EverySshKeyIsATypedMember) {
  ASSERT_TRUE(core::WriteFileAtomic(SetupDir("lab") / "state.json", kSshState));
  auto s = Load("lab");
  ASSERT_TRUE(s) << s.error().message;
  const ProviderData& p = s->provider_data;
  EXPECT_EQ(p.engine_port, 6379);
  ASSERT_TRUE(p.installs);
  EXPECT_EQ(p.installs->at("redis").method, "present");
  EXPECT_EQ(p.installs->at("dragonfly").source,
            "https://github.com/dragonflydb/dragonfly/releases/download/v1.30.0/x.tar.gz");
  ASSERT_TRUE(p.load_generators && p.load_generators->memtier && p.load_generators->dfly_bench);
  const LoadGeneratorRecord& memtier = *p.load_generators->memtier;
  EXPECT_EQ(memtier.method, "source");
  EXPECT_EQ(memtier.binary, "/home/bench/.local/bin/memtier_benchmark");
  EXPECT_EQ(memtier.version, "2.1.1");
  EXPECT_EQ(memtier.source, "https://github.com/RedisLabs/memtier_benchmark/archive/2.1.1.tar.gz");
  EXPECT_EQ(p.load_generators->dfly_bench->reason, "no cmake on the client");
  ASSERT_TRUE(p.ssh);
  EXPECT_EQ(p.ssh->user, "bench");
  EXPECT_EQ(p.ssh->port, 2222);
  EXPECT_EQ(p.ssh->key_path, "/home/me/.ssh/id_ed25519");
  EXPECT_FALSE(p.ssh->key_generated);
  ASSERT_EQ(p.ssh->hosts.size(), 3u);
  EXPECT_EQ(p.ssh->hosts[1].role.Name(), "client");
  EXPECT_EQ(p.ssh->hosts[1].address, "192.168.1.11");
  EXPECT_EQ(p.ssh->hosts[1].private_address, "10.0.0.2");
  ASSERT_TRUE(p.tune_network);
  EXPECT_TRUE(p.tune_network->applied);
  EXPECT_EQ(p.tune_network->interface, "ens5");
  EXPECT_EQ(p.tune_network->io_cpus, (std::vector<int>{14, 15}));
  EXPECT_EQ(p.tune_network->irqs, 8);
  EXPECT_EQ(p.tune_network->rps_queues, 8);
  EXPECT_EQ(p.tune_network->xps_queues, 0);
  EXPECT_FALSE(p.aws);

  const SetupSettings& st = s->settings;
  EXPECT_EQ(st.engines, (std::vector<std::string>{"dragonfly", "redis"}));
  EXPECT_TRUE(st.pin_cpus);
  EXPECT_EQ(st.replicas.addresses, (std::vector<std::string>{"192.168.1.12"}));
  EXPECT_EQ(st.replicas.Count(), 1);
  EXPECT_EQ(st.server, "192.168.1.10");
  EXPECT_EQ(st.server_private_ip, "10.0.0.1");
  EXPECT_EQ(st.client, "192.168.1.11");
  EXPECT_EQ(st.client_private_ip, "10.0.0.2");
  EXPECT_EQ(st.ssh_user, "bench");
  EXPECT_EQ(st.ssh_port, 2222);
  EXPECT_EQ(st.ssh_key, "/home/me/.ssh/id_ed25519");
  EXPECT_EQ(st.dragonfly_binary, "/opt/dragonfly");
  EXPECT_EQ(st.memcached_version, "system");
  EXPECT_EQ(st.valkey_binary, "/usr/bin/valkey-server");
}

TEST_F(StateRecordsTest, EveryAwsAndLocalKeyIsATypedMember) {
  ASSERT_TRUE(core::WriteFileAtomic(SetupDir("fleet") / "state.json", kAwsState));
  auto s = Load("fleet");
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_TRUE(s->provider_data.aws);
  const AwsRecord& aws = *s->provider_data.aws;
  EXPECT_EQ(aws.account, "123456789012");
  EXPECT_EQ(aws.stack_name, "dfbench-fleet");
  EXPECT_EQ(aws.stack_id, "arn:aws:cloudformation:eu-west-1:123456789012:stack/dfbench-fleet/1a2b");
  EXPECT_EQ(aws.ubuntu_version, "24.04");
  ASSERT_EQ(aws.instances.size(), 3u);
  const AwsInstanceRecord& client = aws.instances[1];
  EXPECT_EQ(client.role.Name(), "client");
  EXPECT_EQ(client.id, "i-0a1b2c3d4e5f60719");
  EXPECT_EQ(client.type, "c7g.xlarge");
  EXPECT_EQ(client.arch, "arm64");
  EXPECT_EQ(client.public_ip, "54.214.1.11");
  EXPECT_EQ(client.private_ip, "10.0.1.11");
  ASSERT_TRUE(s->provider_data.tune_network);
  EXPECT_EQ(s->provider_data.tune_network->error, "sudo: a password is required");
  EXPECT_FALSE(s->provider_data.tune_network->irqs);

  const SetupSettings& st = s->settings;
  EXPECT_EQ(st.region, "eu-west-1");
  EXPECT_EQ(st.replicas.count, 1);
  EXPECT_FALSE(st.replicas.addresses);
  EXPECT_EQ(InstanceType(st, core::Role::Server()), "c6i.2xlarge");
  EXPECT_EQ(InstanceArch(st, core::Role::Client()), "arm64");
  EXPECT_EQ(st.client_instance, "c7g.xlarge");
  EXPECT_EQ(st.replica_instance, "c6i.2xlarge");
  EXPECT_EQ(st.replica_arch, "x86_64");
  EXPECT_EQ(st.server_arch, "x86_64");
  EXPECT_EQ(st.ssh_user, "root");

  ASSERT_TRUE(core::WriteFileAtomic(SetupDir("loc") / "state.json", kLocalState));
  auto local = Load("loc");
  ASSERT_TRUE(local) << local.error().message;
  EXPECT_EQ(local->provider_data.engine_port, 0);
  EXPECT_EQ(local->settings.dragonfly_version, "v1.30.0");
  EXPECT_EQ(local->settings.redis_binary, "/usr/bin/redis-server");
  EXPECT_EQ(*EngineFlag(&local->settings, "redis", "binary"), "/usr/bin/redis-server");
  EXPECT_EQ(EngineFlag(&local->settings, "keydb", "binary"), nullptr);
}

// A file from before a key was recorded reads it as absent; keys this dfbench does not know are
// no error.
TEST_F(StateRecordsTest, OlderAndUnknownKeysLoad) {
  ASSERT_TRUE(core::WriteFileAtomic(SetupDir("old") / "state.json", R"({
  "id": "old", "status": "ready", "provider": "ssh",
  "provider_data": {"ssh": {"user": "u", "hosts": [{"role": "server", "address": "h"}]},
                    "future": {"x": 1}},
  "settings": {"engines": ["redis"], "future_flag": true}
})"));
  auto s = Load("old");
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_TRUE(s->provider_data.ssh);
  EXPECT_EQ(s->provider_data.ssh->port, 22);
  EXPECT_EQ(s->provider_data.ssh->hosts.at(0).private_address, "");
  EXPECT_FALSE(s->provider_data.engine_port);
  EXPECT_EQ(s->settings.replicas.Count(), 0);
  EXPECT_FALSE(s->settings.pin_cpus);
}

TEST_F(StateRecordsTest, AValueOfTheWrongTypeNamesItsPath) {
  ASSERT_TRUE(core::WriteFileAtomic(SetupDir("bad") / "state.json",
                                    R"({"id": "bad", "settings": {"replicas": "two"}})"));
  auto s = Load("bad");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("settings.replicas: expected a number or an array"),
            std::string::npos)
      << s.error().message;
}

}  // namespace
}  // namespace dfbench::state
