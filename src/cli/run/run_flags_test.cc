#include "cli/run/run_flags.h"

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
                      .ratio = {.set = 1, .get = 1}});
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

// Both stopping rules of the published setups: -n per connection (the default, the
// reference's) or a time box, never both.
TEST(SetGetFlags, TrialsCountRequestsOrLastATestTime) {
  const auto counted = kRun.OptionsOf(Argv("--memtier-requests 200000"));
  EXPECT_EQ(counted.TrialPass().length, core::Pass::Length::kRequests);
  EXPECT_EQ(counted.TrialPass().requests_per_client, 200000U);
  const auto timed = kRun.OptionsOf(Argv("--test-time 180"));
  EXPECT_EQ(timed.TrialPass().length, core::Pass::Length::kTestTime);
  EXPECT_EQ(timed.TrialPass().test_time, std::chrono::seconds(180));
  const std::string both = kRun.ParseErrorOf(Argv("--test-time 5 --memtier-requests 10"));
  EXPECT_NE(both.find("excludes"), std::string::npos) << both;
  EXPECT_NE(kRun.ParseErrorOf(Argv("--test-time 0")).find("--test-time"), std::string::npos);
  // Redis's runs kept keys 1..1,000,000; the default is the generator's own range.
  EXPECT_EQ(counted.load.key_maximum, 0U);
  const auto keyed = kRun.OptionsOf(Argv("--key-maximum 1000000"));
  EXPECT_EQ(keyed.load.key_minimum, 1U);
  EXPECT_EQ(keyed.load.key_maximum, 1000000U);
}

// Each vendor's own client: a profile per engine, what it leaves out the run's, recorded per
// engine; bad ones are one usage line naming the flag and what is wrong.
TEST(SetGetFlags, ClientProfilesArePerEngineAndChecked) {
  EXPECT_TRUE(kRun.OptionsOf({}).client_profiles.empty());
  const auto o =
      kRun.OptionsOf(Argv("--client-profile redis:threads=24,clients=1,pipeline=30 "
                          "--client-profile dragonfly:clients=30"));
  ASSERT_EQ(o.client_profiles.size(), 2U);
  EXPECT_EQ(o.client_profiles.at("redis"),
            (core::ClientProfile{.threads = 24, .clients = 1, .pipeline = 30}));
  const core::Load dragonfly = o.client_profiles.at("dragonfly").AppliedTo(o.load);
  EXPECT_EQ(dragonfly.threads, 4);
  EXPECT_EQ(dragonfly.clients, 30);
  EXPECT_EQ(dragonfly.pipeline, 30);

  const std::pair<const char*, const char*> refused[] = {
      {"--engines redis --client-profile valkey:threads=2",
       "\"valkey:threads=2\": valkey is not among the engines of this run"},
      {"--client-profile redis", "\"redis\": expected ENGINE:threads=N,clients=N,pipeline=N"},
      {"--client-profile redis:threads=0",
       "\"redis:threads=0\": threads must be a whole number from 1 to 1024"},
      {"--client-profile redis:conns=3",
       "\"redis:conns=3\": \"conns=3\" is not threads=N, clients=N or pipeline=N"},
      {"--client-profile redis:threads=2 --client-profile redis:clients=2",
       "\"redis:clients=2\": redis has a profile already"},
      {"--client-profile redis:threads=2,threads=3",
       "\"redis:threads=2,threads=3\": threads given twice"},
  };
  for (const auto& [line, why] : refused) {
    kRun.ExpectUsage(Argv(line), std::string("--client-profile ") + why);
  }
}

// Several generator processes on the client split the load: each needs a thread, the run's
// load and every engine's profile alike.
TEST(SetGetFlags, LoadgenProcessesNeedAThreadEach) {
  EXPECT_EQ(kRun.OptionsOf({}).loadgen_processes, 1);
  EXPECT_EQ(kRun.OptionsOf(Argv("--loadgen-processes 4")).loadgen_processes, 4);
  EXPECT_FALSE(kRun.OptionsOf({}).per_client);
  EXPECT_TRUE(kRun.OptionsOf(Argv("--loadgen-processes 2 --per-client")).per_client);
  kRun.ExpectUsage(Argv("--loadgen-processes 5"),
                   "--loadgen-processes 5 needs a thread per process (the run's load has 4)");
  kRun.ExpectUsage(Argv("--loadgen-processes 2 --client-profile redis:threads=1"),
                   "--loadgen-processes 2 needs a thread per process (redis's client profile has "
                   "1)");
  EXPECT_NE(kRun.ParseErrorOf(Argv("--loadgen-processes 0")).find("--loadgen-processes"),
            std::string::npos);
}

}  // namespace
}  // namespace dfbench::cli
