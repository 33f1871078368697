#include "cli/run_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

void AddRunLine(CLI::App* sub, SetGetCommandFlags* f) {
  AddBenchTargetFlags(sub, &f->target, {});
  AddSetGetCommandFlags(sub, f);
}

ParsedFlags<SetGetCommandFlags> ParseRun(std::vector<std::string> args) {
  args.insert(args.end(), {"--id", "r"});
  return ParseFlags("run", &AddRunLine, std::move(args));
}

scenarios::SetGetOptions RunOf(std::vector<std::string> args) {
  return ToSetGetCommandOptions(*ParseRun(std::move(args)));
}

TEST(SetGetFlags, DefaultsAreTheReferences) {
  const auto o = RunOf({});
  const scenarios::SetGetOptions d;
  ASSERT_EQ(o.engines.size(), 3U);
  EXPECT_EQ(o.engines[0]->name, "dragonfly");
  EXPECT_EQ(o.engines[1]->name, "redis");
  EXPECT_EQ(o.engines[2]->name, "valkey");
  ExpectLoad(o.load, {.threads = 4,
                      .clients = 50,
                      .pipeline = 30,
                      .data_size = 256,
                      .distinct_client_seed = false,
                      .ratio = "1:10"});
  EXPECT_EQ(o.requests, 1000000U);
  EXPECT_EQ(o.warmup_requests, d.warmup_requests);
  EXPECT_EQ(o.trials, d.trials);
  EXPECT_EQ(o.max_error_pct, d.max_error_pct);
  EXPECT_EQ(o.cooldown, std::chrono::seconds(30));
  EXPECT_EQ(o.tuning.redis_io_threads, 0);
  EXPECT_EQ(o.tuning.dragonfly_num_shards, 0);
  EXPECT_TRUE(o.tuning.dragonfly_conn_use_incoming_cpu);
  EXPECT_TRUE(o.tuning.redis_pin_network);
  EXPECT_TRUE(o.tuning.valkey_pin_network);
  EXPECT_TRUE(o.versions.empty());
  EXPECT_EQ(ParseRun({})->run.output, "table");
  EXPECT_EQ(ParseRun({})->run.load_generator.name, "builtin");
}

TEST(SetGetFlags, EachFlagLandsInItsOption) {
  const auto o = RunOf({"--engines",
                        "redis",
                        "--memtier-threads",
                        "1",
                        "--memtier-clients",
                        "2",
                        "--memtier-pipeline",
                        "7",
                        "--memtier-data-size",
                        "32",
                        "--memtier-ratio",
                        "1:1",
                        "--distinct-client-seed",
                        "--memtier-requests",
                        "500",
                        "--warmup-requests",
                        "0",
                        "--trials",
                        "5",
                        "--max-error-pct",
                        "2.5",
                        "--cooldown",
                        "250ms",
                        "--redis_io_threads",
                        "4",
                        "--valkey_io_threads",
                        "3",
                        "--dragonfly_num_shards",
                        "-1",
                        "--dragonfly_conn_use_incoming_cpu=false",
                        "--redis_pin_network=false",
                        "--dragonfly_version",
                        "v1.30.0"});
  ASSERT_EQ(o.engines.size(), 1U);
  ExpectLoad(o.load, {.threads = 1,
                      .clients = 2,
                      .pipeline = 7,
                      .data_size = 32,
                      .distinct_client_seed = true,
                      .ratio = "1:1"});
  EXPECT_EQ(o.requests, 500U);
  EXPECT_EQ(o.warmup_requests, 0U);
  EXPECT_EQ(o.trials, 5);
  EXPECT_EQ(o.max_error_pct, 2.5);
  EXPECT_EQ(o.cooldown, std::chrono::milliseconds(250));
  EXPECT_EQ(o.tuning.redis_io_threads, 4);
  EXPECT_EQ(o.tuning.valkey_io_threads, 3);
  EXPECT_EQ(o.tuning.dragonfly_num_shards, -1);
  EXPECT_FALSE(o.tuning.dragonfly_conn_use_incoming_cpu);
  EXPECT_FALSE(o.tuning.redis_pin_network);
  EXPECT_TRUE(o.tuning.valkey_pin_network);
  ASSERT_EQ(o.versions.count("dragonfly"), 1U);
  EXPECT_EQ(o.versions.at("dragonfly").kind, engines::VersionSpec::Kind::kTag);
}

TEST(SetGetFlags, OutputAndLoadGeneratorStayForTheWiring) {
  const auto f = ParseRun(
      {"--output", "json", "--load-generator", "memtier", "--memtier-binary", "/opt/memtier"});
  EXPECT_EQ(f->run.output, "json");
  EXPECT_EQ(f->run.load_generator.name, "memtier");
  EXPECT_EQ(MakeDriver(f->run.load_generator)->Name(), "memtier");
  EXPECT_EQ(MakeDriver(ParseRun({})->run.load_generator)->Name(), "builtin");
  const auto binary_alone = ParseRun({"--memtier-binary", "/opt/memtier"});
  ExpectExitError([&] { return MakeDriver(binary_alone->run.load_generator); },
                  core::ErrorKind::kUsage, "--memtier-binary needs --load-generator memtier");
}

TEST(SetGetFlags, DeprecatedSpellingsLandAsTheirNewFlags) {
  const auto o = RunOf({"--io-threads", "6", "--num-shards", "2", "--conn-use-incoming-cpu=false",
                        "--pin-network=false", "--dfly-version", "latest"});
  EXPECT_EQ(o.tuning.redis_io_threads, 6);
  EXPECT_EQ(o.tuning.valkey_io_threads, 6);
  EXPECT_EQ(o.tuning.dragonfly_num_shards, 2);
  EXPECT_FALSE(o.tuning.dragonfly_conn_use_incoming_cpu);
  EXPECT_FALSE(o.tuning.redis_pin_network);
  EXPECT_FALSE(o.tuning.valkey_pin_network);
  EXPECT_EQ(o.versions.at("dragonfly").kind, engines::VersionSpec::Kind::kLatest);
  // Beside its new flag it must agree with it.
  EXPECT_EQ(RunOf({"--num-shards", "2", "--dragonfly_num_shards", "2"}).tuning.dragonfly_num_shards,
            2);
  const auto error = ExitErrorOf([] {
    return ParseRun({"--num-shards", "2", "--dragonfly_num_shards", "3"});
  });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, core::ErrorKind::kUsage);
  EXPECT_NE(error->message.find("--num-shards"), std::string::npos) << error->message;
  EXPECT_NE(error->message.find("--dragonfly_num_shards"), std::string::npos) << error->message;
}

TEST(SetGetFlags, BadValuesAreOneUsageLineNamingTheFlag) {
  ExpectExitError(
      [] {
        return RunOf({"--engines", "redis,mysql"});
      },
      core::ErrorKind::kUsage, ExitErrorOf([] { return ParseEngines("redis,mysql"); })->message);
  const auto ratio = ExitErrorOf([] { return RunOf({"--memtier-ratio", "1:x"}); });
  ASSERT_TRUE(ratio.has_value());
  EXPECT_EQ(ratio->kind, core::ErrorKind::kUsage);
  ExpectExitError(
      [] {
        return RunOf({"--redis_version", "/no/such/build"});
      },
      core::ErrorKind::kUsage,
      "--redis_version /no/such/build: not a release tag, latest, system, an "
      "https:// URL or a file");
  const std::string trials = ParseErrorOf("run", &AddRunLine, {"--id", "r", "--trials", "0"});
  EXPECT_NE(trials.find("--trials \"0\""), std::string::npos) << trials;
  const std::string pct = ParseErrorOf("run", &AddRunLine, {"--id", "r", "--max-error-pct", "101"});
  EXPECT_NE(pct.find("--max-error-pct \"101\" is out of range: use 0 to 100"), std::string::npos)
      << pct;
  EXPECT_NE(ParseErrorOf("run", &AddRunLine, {"--id", "r", "--output", "xml"}).find("xml"),
            std::string::npos);
}

}  // namespace
}  // namespace dfbench::cli
