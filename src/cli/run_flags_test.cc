#include "cli/run_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

const BenchLine<SetGetCommandFlags, &AddSetGetCommandFlags, &ToSetGetCommandOptions> kRun("run");

TEST(SetGetFlags, DefaultsAreTheReferences) {
  const auto o = kRun.OptionsOf({});
  ASSERT_EQ(o.engines.size(), 3U);
  EXPECT_EQ(o.engines[0]->name, "dragonfly");
  EXPECT_EQ(o.engines[1]->name, "redis");
  EXPECT_EQ(o.engines[2]->name, "valkey");
  ExpectLoad(o.load, kReferenceRunLoad);
  EXPECT_EQ(o.requests, 1000000U);
  using S = scenarios::SetGetOptions;
  ExpectSameFields(o, S{}, &S::warmup_requests, &S::trials, &S::max_error_pct);
  EXPECT_EQ(o.cooldown, std::chrono::seconds(30));
  EXPECT_EQ(o.tuning.redis_io_threads, 0);
  EXPECT_EQ(o.tuning.dragonfly_num_shards, 0);
  EXPECT_TRUE(o.tuning.dragonfly_conn_use_incoming_cpu);
  EXPECT_TRUE(o.tuning.redis_pin_network);
  EXPECT_TRUE(o.tuning.valkey_pin_network);
  EXPECT_TRUE(o.versions.empty());
  EXPECT_EQ(kRun.Parse({})->run.output, "table");
  EXPECT_EQ(kRun.Parse({})->run.load_generator.name, "builtin");
}

TEST(SetGetFlags, EachFlagLandsInItsOption) {
  const auto o = kRun.OptionsOf(
      Argv("--engines redis --memtier-threads 1 --memtier-clients 2 --memtier-pipeline 7 "
           "--memtier-data-size 32 --memtier-ratio 1:1 --distinct-client-seed "
           "--memtier-requests 500 --warmup-requests 0 --trials 5 --max-error-pct 2.5 "
           "--cooldown 250ms --redis_io_threads 4 --valkey_io_threads 3 --dragonfly_num_shards -1 "
           "--dragonfly_conn_use_incoming_cpu=false --redis_pin_network=false "
           "--dragonfly_version v1.30.0"));
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
  const auto f = kRun.Parse(
      {"--output", "json", "--load-generator", "memtier", "--memtier-binary", "/opt/memtier"});
  EXPECT_EQ(f->run.output, "json");
  EXPECT_EQ(f->run.load_generator.name, "memtier");
  EXPECT_EQ(MakeDriver(f->run.load_generator)->Name(), "memtier");
  EXPECT_EQ(MakeDriver(kRun.Parse({})->run.load_generator)->Name(), "builtin");
  const auto binary_alone = kRun.Parse({"--memtier-binary", "/opt/memtier"});
  ExpectUsageError("--memtier-binary needs --load-generator memtier",
                   [&] { return MakeDriver(binary_alone->run.load_generator); });
}

TEST(SetGetFlags, DeprecatedSpellingsLandAsTheirNewFlags) {
  const auto o =
      kRun.OptionsOf({"--io-threads", "6", "--num-shards", "2", "--conn-use-incoming-cpu=false",
                      "--pin-network=false", "--dfly-version", "latest"});
  EXPECT_EQ(o.tuning.redis_io_threads, 6);
  EXPECT_EQ(o.tuning.valkey_io_threads, 6);
  EXPECT_EQ(o.tuning.dragonfly_num_shards, 2);
  EXPECT_FALSE(o.tuning.dragonfly_conn_use_incoming_cpu);
  EXPECT_FALSE(o.tuning.redis_pin_network);
  EXPECT_FALSE(o.tuning.valkey_pin_network);
  EXPECT_EQ(o.versions.at("dragonfly").kind, engines::VersionSpec::Kind::kLatest);
  // Beside its new flag it must agree with it.
  EXPECT_EQ(kRun.OptionsOf({"--num-shards", "2", "--dragonfly_num_shards", "2"})
                .tuning.dragonfly_num_shards,
            2);
  const auto error = ExpectUsageErrorOf([] {
    return kRun.Parse({"--num-shards", "2", "--dragonfly_num_shards", "3"});
  });
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->message.find("--num-shards"), std::string::npos) << error->message;
  EXPECT_NE(error->message.find("--dragonfly_num_shards"), std::string::npos) << error->message;
}

TEST(SetGetFlags, TopologyFlagsLandInTheTuning) {
  const auto standalone = kRun.OptionsOf({});
  EXPECT_EQ(standalone.tuning.redis_shards, 0);
  EXPECT_EQ(standalone.tuning.valkey_shards, 0);
  EXPECT_FALSE(standalone.tuning.dragonfly_cluster_emulated);
  const auto o =
      kRun.OptionsOf(Argv("--redis_shards 40 --valkey_shards 2 --dragonfly_cluster_mode emulated"));
  EXPECT_EQ(o.tuning.redis_shards, 40);
  EXPECT_EQ(o.tuning.valkey_shards, 2);
  EXPECT_TRUE(o.tuning.dragonfly_cluster_emulated);
  const std::string shards = kRun.ParseErrorOf({"--redis_shards", "300"});
  EXPECT_NE(shards.find("--redis_shards \"300\" is out of range: use 0 to 256"), std::string::npos)
      << shards;
  EXPECT_NE(kRun.ParseErrorOf({"--dragonfly_cluster_mode", "yes"}).find("yes"), std::string::npos);
}

TEST(SetGetFlags, BadValuesAreOneUsageLineNamingTheFlag) {
  ExpectUsageError(ExitErrorOf([] { return ParseEngines("redis,mysql"); })->message, [] {
    return kRun.OptionsOf({"--engines", "redis,mysql"});
  });
  ExpectUsageErrorOf([] { return kRun.OptionsOf({"--memtier-ratio", "1:x"}); });
  ExpectUsageError(
      "--redis_version /no/such/build: not a release tag, latest, system, an "
      "https:// URL or a file",
      [] {
        return kRun.OptionsOf({"--redis_version", "/no/such/build"});
      });
  const std::string trials = kRun.ParseErrorOf({"--trials", "0"});
  EXPECT_NE(trials.find("--trials \"0\""), std::string::npos) << trials;
  const std::string pct = kRun.ParseErrorOf({"--max-error-pct", "101"});
  EXPECT_NE(pct.find("--max-error-pct \"101\" is out of range: use 0 to 100"), std::string::npos)
      << pct;
  EXPECT_NE(kRun.ParseErrorOf({"--output", "xml"}).find("xml"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::cli
