#include "cli/run_commands/run_commands_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

// The reference's per-command load: spelled out here rather than read from core::kCommandLoad,
// which it checks.
const core::Load kReferenceCommandLoad{.threads = 32,
                                       .clients = 5,
                                       .pipeline = 20,
                                       .data_size = 256,
                                       .distinct_client_seed = true,
                                       .key_pattern = core::KeyPattern::kRandom,
                                       .key_maximum = 100000000};

const BenchLine<RunCommandsFlags, &AddRunCommandsFlags, &ToRunCommandsOptions> kRunCommands(
    "run-commands");
const BenchLine<RunCommandsDflyFlags, &AddRunCommandsDflyFlags, &ToRunCommandsDflyOptions>
    kRunCommandsDfly("run-commands-dfly");

TEST(RunCommandsFlags, DefaultsAreTheReferences) {
  const auto o = kRunCommands.OptionsOf({"--engines", "redis", "--command", "SET"});
  EXPECT_EQ(o.command.name, "SET");
  ExpectLoad(o.load, kReferenceCommandLoad);
  EXPECT_EQ(o.test_time, std::chrono::seconds(300));
  EXPECT_EQ(o.warmup_time, std::chrono::seconds(10));
  EXPECT_EQ(o.trials, 3);
  EXPECT_EQ(o.cooldown, std::chrono::seconds(30));
  EXPECT_EQ(o.rate_per_connection, 0);
  EXPECT_EQ(o.dfly_bench_ref, "");
  EXPECT_EQ(kRunCommands.Parse({})->load_generator.name, "builtin");
}

TEST(RunCommandsFlags, EachFlagLandsInItsOption) {
  const auto o = kRunCommands.OptionsOf(
      Argv("--engines redis,valkey --command lrange --memtier-threads 2 --memtier-clients 3 "
           "--memtier-pipeline 4 --memtier-data-size 16 --distinct-client-seed=false "
           "--key-maximum 1000 --test-time 5 --warmup-time 0 --memtier-command-key-pattern G "
           "--trials 2 --max-error-pct 4 --cooldown 1s --valkey_io_threads 2 "
           "--redis_version system"));
  ASSERT_EQ(o.engines.size(), 2U);
  EXPECT_EQ(o.command.name, "LRANGE");
  ExpectLoad(o.load, {.threads = 2,
                      .clients = 3,
                      .pipeline = 4,
                      .data_size = 16,
                      .distinct_client_seed = false,
                      .key_pattern = core::KeyPattern::kGaussian,
                      .key_maximum = 1000});
  EXPECT_EQ(o.test_time, std::chrono::seconds(5));
  EXPECT_EQ(o.warmup_time, std::chrono::seconds(0));
  EXPECT_EQ(o.trials, 2);
  EXPECT_EQ(o.max_error_pct, 4);
  EXPECT_EQ(o.cooldown, std::chrono::seconds(1));
  EXPECT_EQ(o.tuning.valkey_io_threads, 2);
  EXPECT_EQ(o.versions.at("redis").kind, engines::VersionSpec::Kind::kSystem);
  const auto f = kRunCommands.Parse({"--load-generator", "memtier", "--output", "csv"});
  EXPECT_EQ(f->load_generator.name, "memtier");
  EXPECT_EQ(f->common.output, "csv");
}

// The per-command runs take the same per-engine client profiles as run, in both spellings.
TEST(RunCommandsFlags, ClientProfilesLandPerEngine) {
  const auto o = kRunCommands.OptionsOf(
      Argv("--engines redis,valkey --command GET --client-profile valkey:threads=2,pipeline=1"));
  ASSERT_EQ(o.client_profiles.size(), 1U);
  EXPECT_EQ(o.client_profiles.at("valkey"), (core::ClientProfile{.threads = 2, .pipeline = 1}));
  const auto dfly = kRunCommandsDfly.OptionsOf(
      Argv("--engines redis --command GET --client-profile redis:clients=7"));
  EXPECT_EQ(dfly.client_profiles.at("redis").clients, 7);
  kRunCommands.ExpectUsage(
      Argv("--engines redis --command GET --client-profile dragonfly:threads=2"),
      "--client-profile \"dragonfly:threads=2\": dragonfly is not among the engines of this run");
}

TEST(RunCommandsFlags, ACustomCommandTakesItsOwnFlags) {
  const auto o =
      kRunCommands.OptionsOf({"--engines", "redis", "--command-template", "RPUSH __key__ __data__",
                              "--command-mutates", "--preload-template", "RPUSH __key__ v__item__",
                              "--preload-items", "3", "--command-key-maximum", "500"});
  EXPECT_EQ(o.command.name, "RPUSH");  // its first word
  EXPECT_EQ(o.command.tmpl, "RPUSH __key__ __data__");
  EXPECT_TRUE(o.command.mutates);
  EXPECT_FALSE(o.command.drains);
  EXPECT_EQ(o.command.preload.head, "RPUSH __key__ v__item__");
  EXPECT_EQ(o.command.preload.items, 3);
  EXPECT_EQ(o.command.key_maximum, 500U);
  const auto drains =
      kRunCommands.OptionsOf({"--engines", "redis", "--command-template", "LPOP __key__",
                              "--command-name", "lpop.all", "--command-drains"});
  EXPECT_EQ(drains.command.name, "lpop.all");
  EXPECT_TRUE(drains.command.drains);
  EXPECT_TRUE(drains.command.mutates);  // implied
}

TEST(RunCommandsFlags, TheCommandRulesAreOneUsageLineEach) {
  kRunCommands.ExpectUsage(
      {"--engines", "redis", "--command", "SET", "--command-template", "GET x"},
      "--command and --command-template are mutually exclusive");
  kRunCommands.ExpectUsage({"--engines", "redis"}, "give --command NAME (" +
                                                       scenarios::BuiltinCommandNames() +
                                                       ") or --command-template \"...\"");
  kRunCommands.ExpectUsage({"--engines", "redis", "--command", "SET", "--command-name", "X"},
                           "--command-name applies to --command-template only");
  kRunCommands.ExpectUsage(
      {"--engines", "redis", "--command", "FLY"},
      "unknown command \"FLY\" (built-in: " + scenarios::BuiltinCommandNames() +
          "; use --command-template for others)");
  kRunCommands.ExpectUsage(
      {"--engines", "redis", "--command-template", "GET __key__", "--preload-items", "2"},
      "--preload-items needs --preload-template");
  kRunCommands.ExpectUsage(
      {"--engines", "redis", "--command-template", "GET __key__", "--preload-template", "SET k v"},
      "--preload-template must contain __key__");
  kRunCommands.ExpectUsage(
      {"--engines", "redis", "--command-template", "LRANGE __key__ 0 1", "--preload-template",
       "RPUSH __key__ __item__", "--preload-items", "2"},
      "--command-key-maximum is required when --preload-items > 1 (a "
      "multi-item preload must not run against the whole --key-maximum range)");
  kRunCommands.ExpectUsage(
      {"--engines", "redis", "--command-template", "GET __key__", "--command-name", "a b"},
      "--command-name \"a b\" must be 1-64 letters, digits, '_', '-' or '.' "
      "(it names the result files)");
}

TEST(RunCommandsFlags, EnginesMustSpeakRedisAndDragonflyNeedsItsShards) {
  kRunCommands.ExpectUsage({"--engines", "memcached", "--command", "SET"},
                           "memcached does not speak the Redis protocol; per-command runs need "
                           "dragonfly, redis or valkey");
  kRunCommands.ExpectUsage({"--command", "SET"},
                           "--dragonfly_num_shards is required when dragonfly is among the engines "
                           "(-1: derived from the CPUs, 0: Dragonfly's default, >0: explicit)");
  EXPECT_EQ(kRunCommands.OptionsOf({"--command", "SET", "--dragonfly_num_shards", "0"})
                .tuning.dragonfly_num_shards,
            0);
  // The deprecated spelling counts as given.
  EXPECT_EQ(
      kRunCommands.OptionsOf({"--command", "SET", "--num-shards", "4"}).tuning.dragonfly_num_shards,
      4);
}

TEST(RunCommandsFlags, TheParallelPatternNeedsAKeyPerConnection) {
  kRunCommands.ExpectUsage({"--engines", "redis", "--command", "SET", "--key-maximum", "10",
                            "--memtier-command-key-pattern", "P"},
                           "key pattern P needs at least one key per connection (10 keys, 160 "
                           "connections)");
  EXPECT_EQ(kRunCommands
                .OptionsOf({"--engines", "redis", "--command", "SET", "--key-maximum", "160",
                            "--memtier-command-key-pattern", "P"})
                .load.key_pattern,
            core::KeyPattern::kParallel);
}

TEST(RunCommandsDflyFlags, DefaultsAreDflyBenchsOwn) {
  const auto o = kRunCommandsDfly.OptionsOf({"--command", "GET", "--dragonfly_num_shards", "0"});
  ASSERT_EQ(o.engines.size(), 1U);
  EXPECT_EQ(o.engines[0]->name, "dragonfly");
  EXPECT_FALSE(o.load.distinct_client_seed);  // dfly_bench seeds each thread itself
  EXPECT_EQ(o.load.threads, 32);
  EXPECT_EQ(o.load.clients, 5);
  EXPECT_EQ(o.load.key_pattern, core::KeyPattern::kRandom);
  EXPECT_EQ(o.rate_per_connection, 0);
  EXPECT_EQ(o.dfly_bench_ref, "main");
  EXPECT_EQ(kRunCommandsDfly.Parse({})->binary, "");
}

TEST(RunCommandsDflyFlags, EachFlagLandsInItsOption) {
  const auto o = kRunCommandsDfly.OptionsOf(
      {"--engines", "redis", "--command", "SET", "--dfly-bench-threads", "2", "--dfly-bench-conns",
       "3", "--dfly-bench-pipeline", "4", "--dfly-bench-data-size", "8", "--dfly-bench-qps", "500",
       "--dfly-bench-ref", "v1.30.0", "--dfly-bench-key-dist", "Z"});
  EXPECT_EQ(o.load.threads, 2);
  EXPECT_EQ(o.load.clients, 3);
  EXPECT_EQ(o.load.pipeline, 4);
  EXPECT_EQ(o.load.data_size, 8);
  EXPECT_EQ(o.rate_per_connection, 500);
  EXPECT_EQ(o.dfly_bench_ref, "v1.30.0");
  EXPECT_EQ(o.load.key_pattern, core::KeyPattern::kZipf);
  EXPECT_EQ(kRunCommandsDfly
                .OptionsOf({"--engines", "redis", "--command", "SET", "--dfly-bench-key-dist", "N"})
                .load.key_pattern,
            core::KeyPattern::kGaussian);
  EXPECT_EQ(kRunCommandsDfly.Parse({"--dfly-bench-binary", "/opt/dfly_bench"})->binary,
            "/opt/dfly_bench");
  // memtier's spelling is not this command's.
  EXPECT_NE(kRunCommandsDfly.ParseErrorOf({"--memtier-threads", "2"}), "");
}

TEST(RunCommandsDflyFlags, DeprecatedSpellingsLandTheSameAndAreNoted) {
  const auto f = kRunCommandsDfly.Parse({"--engines", "redis", "--command", "SET", "--dfly-threads",
                                         "2", "--dfly-conns", "3", "--dfly-pipeline", "4",
                                         "--dfly-data-size", "8"});
  const auto o = ToRunCommandsDflyOptions(*f);
  EXPECT_EQ(o.load.threads, 2);
  EXPECT_EQ(o.load.clients, 3);
  EXPECT_EQ(o.load.pipeline, 4);
  EXPECT_EQ(o.load.data_size, 8);
  EXPECT_EQ(f->deprecated, (std::vector<std::string>{
                               "--dfly-threads is deprecated; use --dfly-bench-threads",
                               "--dfly-conns is deprecated; use --dfly-bench-conns",
                               "--dfly-pipeline is deprecated; use --dfly-bench-pipeline",
                               "--dfly-data-size is deprecated; use --dfly-bench-data-size"}));
  const auto error = ExpectUsageErrorOf([] {
    return kRunCommandsDfly.Parse({"--dfly-threads", "2", "--dfly-bench-threads", "3"});
  });
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->message.find("--dfly-threads"), std::string::npos) << error->message;
  EXPECT_NE(error->message.find("--dfly-bench-threads"), std::string::npos) << error->message;
  const std::string range = kRunCommandsDfly.ParseErrorOf({"--dfly-bench-qps", "-1"});
  EXPECT_NE(range.find("--dfly-bench-qps \"-1\""), std::string::npos) << range;
}

}  // namespace
}  // namespace dfbench::cli
