#include "cli/run_commands_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

void AddRunCommandsLine(CLI::App* sub, RunCommandsFlags* f) {
  AddBenchTargetFlags(sub, &f->target, {});
  AddRunCommandsFlags(sub, f);
}

void AddRunCommandsDflyLine(CLI::App* sub, RunCommandsDflyFlags* f) {
  AddBenchTargetFlags(sub, &f->target, {});
  AddRunCommandsDflyFlags(sub, f);
}

ParsedFlags<RunCommandsFlags> ParseRunCommands(std::vector<std::string> args) {
  args.insert(args.end(), {"--id", "c"});
  return ParseFlags("run-commands", &AddRunCommandsLine, std::move(args));
}

scenarios::CommandOptions RunCommandsOf(std::vector<std::string> args) {
  return ToRunCommandsOptions(*ParseRunCommands(std::move(args)));
}

ParsedFlags<RunCommandsDflyFlags> ParseRunCommandsDfly(std::vector<std::string> args) {
  args.insert(args.end(), {"--id", "c"});
  return ParseFlags("run-commands-dfly", &AddRunCommandsDflyLine, std::move(args));
}

scenarios::CommandOptions RunCommandsDflyOf(std::vector<std::string> args) {
  return ToRunCommandsDflyOptions(*ParseRunCommandsDfly(std::move(args)));
}

void ExpectRunCommandsUsage(std::vector<std::string> args, const std::string& message) {
  ExpectExitError([&] { return RunCommandsOf(args); }, core::ErrorKind::kUsage, message);
}

TEST(RunCommandsFlags, DefaultsAreTheReferences) {
  const auto o = RunCommandsOf({"--engines", "redis", "--command", "SET"});
  EXPECT_EQ(o.command.name, "SET");
  ExpectLoad(o.load, {.threads = 32,
                      .clients = 5,
                      .pipeline = 20,
                      .data_size = 256,
                      .distinct_client_seed = true,
                      .key_pattern = core::KeyPattern::kRandom,
                      .key_maximum = 100000000});
  EXPECT_EQ(o.test_time, std::chrono::seconds(300));
  EXPECT_EQ(o.warmup_time, std::chrono::seconds(10));
  EXPECT_EQ(o.trials, 3);
  EXPECT_EQ(o.cooldown, std::chrono::seconds(30));
  EXPECT_EQ(o.rate_per_connection, 0);
  EXPECT_EQ(o.dfly_bench_ref, "");
  EXPECT_EQ(ParseRunCommands({})->load_generator.name, "builtin");
}

TEST(RunCommandsFlags, EachFlagLandsInItsOption) {
  const auto o = RunCommandsOf(
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
  const auto f = ParseRunCommands({"--load-generator", "memtier", "--output", "csv"});
  EXPECT_EQ(f->load_generator.name, "memtier");
  EXPECT_EQ(f->common.output, "csv");
}

TEST(RunCommandsFlags, ACustomCommandTakesItsOwnFlags) {
  const auto o =
      RunCommandsOf({"--engines", "redis", "--command-template", "RPUSH __key__ __data__",
                     "--command-mutates", "--preload-template", "RPUSH __key__ v__item__",
                     "--preload-items", "3", "--command-key-maximum", "500"});
  EXPECT_EQ(o.command.name, "RPUSH");  // its first word
  EXPECT_EQ(o.command.tmpl, "RPUSH __key__ __data__");
  EXPECT_TRUE(o.command.mutates);
  EXPECT_FALSE(o.command.drains);
  EXPECT_EQ(o.command.preload.head, "RPUSH __key__ v__item__");
  EXPECT_EQ(o.command.preload.items, 3);
  EXPECT_EQ(o.command.key_maximum, 500U);
  const auto drains = RunCommandsOf({"--engines", "redis", "--command-template", "LPOP __key__",
                                     "--command-name", "lpop.all", "--command-drains"});
  EXPECT_EQ(drains.command.name, "lpop.all");
  EXPECT_TRUE(drains.command.drains);
  EXPECT_TRUE(drains.command.mutates);  // implied
}

TEST(RunCommandsFlags, TheCommandRulesAreOneUsageLineEach) {
  ExpectRunCommandsUsage({"--engines", "redis", "--command", "SET", "--command-template", "GET x"},
                         "--command and --command-template are mutually exclusive");
  ExpectRunCommandsUsage({"--engines", "redis"}, "give --command NAME (" +
                                                     scenarios::BuiltinCommandNames() +
                                                     ") or --command-template \"...\"");
  ExpectRunCommandsUsage({"--engines", "redis", "--command", "SET", "--command-name", "X"},
                         "--command-name applies to --command-template only");
  ExpectRunCommandsUsage({"--engines", "redis", "--command", "FLY"},
                         "unknown command \"FLY\" (built-in: " + scenarios::BuiltinCommandNames() +
                             "; use --command-template for others)");
  ExpectRunCommandsUsage(
      {"--engines", "redis", "--command-template", "GET __key__", "--preload-items", "2"},
      "--preload-items needs --preload-template");
  ExpectRunCommandsUsage(
      {"--engines", "redis", "--command-template", "GET __key__", "--preload-template", "SET k v"},
      "--preload-template must contain __key__");
  ExpectRunCommandsUsage({"--engines", "redis", "--command-template", "LRANGE __key__ 0 1",
                          "--preload-template", "RPUSH __key__ __item__", "--preload-items", "2"},
                         "--command-key-maximum is required when --preload-items > 1 (a "
                         "multi-item preload must not run against the whole --key-maximum range)");
  ExpectRunCommandsUsage(
      {"--engines", "redis", "--command-template", "GET __key__", "--command-name", "a b"},
      "--command-name \"a b\" must be 1-64 letters, digits, '_', '-' or '.' "
      "(it names the result files)");
}

TEST(RunCommandsFlags, EnginesMustSpeakRedisAndDragonflyNeedsItsShards) {
  ExpectRunCommandsUsage({"--engines", "memcached", "--command", "SET"},
                         "memcached does not speak the Redis protocol; per-command runs need "
                         "dragonfly, redis or valkey");
  ExpectRunCommandsUsage({"--command", "SET"},
                         "--dragonfly_num_shards is required when dragonfly is among the engines "
                         "(-1: derived from the CPUs, 0: Dragonfly's default, >0: explicit)");
  EXPECT_EQ(RunCommandsOf({"--command", "SET", "--dragonfly_num_shards", "0"})
                .tuning.dragonfly_num_shards,
            0);
  // The deprecated spelling counts as given.
  EXPECT_EQ(RunCommandsOf({"--command", "SET", "--num-shards", "4"}).tuning.dragonfly_num_shards,
            4);
}

TEST(RunCommandsFlags, TheParallelPatternNeedsAKeyPerConnection) {
  ExpectRunCommandsUsage({"--engines", "redis", "--command", "SET", "--key-maximum", "10",
                          "--memtier-command-key-pattern", "P"},
                         "key pattern P needs at least one key per connection (10 keys, 160 "
                         "connections)");
  EXPECT_EQ(RunCommandsOf({"--engines", "redis", "--command", "SET", "--key-maximum", "160",
                           "--memtier-command-key-pattern", "P"})
                .load.key_pattern,
            core::KeyPattern::kParallel);
}

TEST(RunCommandsDflyFlags, DefaultsAreDflyBenchsOwn) {
  const auto o = RunCommandsDflyOf({"--command", "GET", "--dragonfly_num_shards", "0"});
  ASSERT_EQ(o.engines.size(), 1U);
  EXPECT_EQ(o.engines[0]->name, "dragonfly");
  EXPECT_FALSE(o.load.distinct_client_seed);  // dfly_bench seeds each thread itself
  EXPECT_EQ(o.load.threads, 32);
  EXPECT_EQ(o.load.clients, 5);
  EXPECT_EQ(o.load.key_pattern, core::KeyPattern::kRandom);
  EXPECT_EQ(o.rate_per_connection, 0);
  EXPECT_EQ(o.dfly_bench_ref, "main");
  EXPECT_EQ(ParseRunCommandsDfly({})->binary, "");
}

TEST(RunCommandsDflyFlags, EachFlagLandsInItsOption) {
  const auto o = RunCommandsDflyOf(
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
  EXPECT_EQ(
      RunCommandsDflyOf({"--engines", "redis", "--command", "SET", "--dfly-bench-key-dist", "N"})
          .load.key_pattern,
      core::KeyPattern::kGaussian);
  EXPECT_EQ(ParseRunCommandsDfly({"--dfly-bench-binary", "/opt/dfly_bench"})->binary,
            "/opt/dfly_bench");
  // memtier's spelling is not this command's.
  EXPECT_NE(ParseErrorOf("run-commands-dfly", &AddRunCommandsDflyLine,
                         {"--id", "c", "--memtier-threads", "2"}),
            "");
}

TEST(RunCommandsDflyFlags, DeprecatedSpellingsLandTheSameAndAreNoted) {
  const auto f =
      ParseRunCommandsDfly({"--engines", "redis", "--command", "SET", "--dfly-threads", "2",
                            "--dfly-conns", "3", "--dfly-pipeline", "4", "--dfly-data-size", "8"});
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
  const auto error = ExitErrorOf([] {
    return ParseRunCommandsDfly({"--dfly-threads", "2", "--dfly-bench-threads", "3"});
  });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, core::ErrorKind::kUsage);
  EXPECT_NE(error->message.find("--dfly-threads"), std::string::npos) << error->message;
  EXPECT_NE(error->message.find("--dfly-bench-threads"), std::string::npos) << error->message;
  const std::string range = ParseErrorOf("run-commands-dfly", &AddRunCommandsDflyLine,
                                         {"--id", "c", "--dfly-bench-qps", "-1"});
  EXPECT_NE(range.find("--dfly-bench-qps \"-1\""), std::string::npos) << range;
}

}  // namespace
}  // namespace dfbench::cli
