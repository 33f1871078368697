#include "cli/loadgen/loadgen_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::cli {
namespace {

const CommandLine<LoadgenOptions, &AddLoadgenFlags, &ToLoadgenConfig> kLoadgen{"loadgen"};

TEST(LoadgenFlags, DefaultsAreMemtiersOwn) {
  const auto c = kLoadgen.OptionsOf({});
  EXPECT_EQ(c.server, "127.0.0.1");
  EXPECT_EQ(c.port, 6379);
  EXPECT_EQ(c.protocol, loadgen::Protocol::kRedis);
  EXPECT_EQ(c.load.threads, 4);
  EXPECT_EQ(c.load.clients, 50);
  EXPECT_EQ(c.load.pipeline, 1);
  EXPECT_EQ(c.pass.requests_per_client, 10000U);
  EXPECT_EQ(c.load.ratio.set, 1U);
  EXPECT_EQ(c.load.ratio.get, 10U);
  EXPECT_EQ(c.load.data_size, 32);
  EXPECT_EQ(c.load.key_prefix, "memtier-");
  EXPECT_EQ(c.load.key_maximum, 10000000U);
  EXPECT_EQ(c.KeyPatternString(), "R:R");
  EXPECT_EQ(c.load.percentiles, (std::vector<double>{50, 99, 99.9}));
  EXPECT_FALSE(c.open_loop());
  EXPECT_TRUE(c.commands.empty());
}

TEST(LoadgenFlags, EachFlagLandsAndShortNamesAreTheSame) {
  const auto c = kLoadgen.OptionsOf(
      Argv("-s 10.0.0.5 -p 7000 -a secret -t 2 -c 3 --pipeline 4 -n 10k --ratio 1:2 -d 64 "
           "--key-prefix key: --key-minimum 1 --key-maximum 100 --key-pattern S:S "
           "--distinct-client-seed --print-percentiles 50,99.99 --rate 5k --warmup-time 2s"));
  EXPECT_EQ(c.server, "10.0.0.5");
  EXPECT_EQ(c.port, 7000);
  EXPECT_EQ(c.password, "secret");
  EXPECT_EQ(c.load.threads, 2);
  EXPECT_EQ(c.load.clients, 3);
  EXPECT_EQ(c.load.pipeline, 4);
  EXPECT_EQ(c.pass.requests_per_client, 10000U);
  EXPECT_EQ(c.load.ratio.get, 2U);
  EXPECT_EQ(c.load.data_size, 64);
  EXPECT_EQ(c.load.key_prefix, "key:");
  EXPECT_EQ(c.load.key_minimum, 1U);
  EXPECT_EQ(c.load.key_maximum, 100U);
  EXPECT_EQ(c.set_pattern, core::KeyPattern::kSequential);
  EXPECT_TRUE(c.load.distinct_client_seed);
  EXPECT_EQ(c.load.percentiles, (std::vector<double>{50, 99.99}));
  EXPECT_EQ(c.pass.rate_per_sec, 5000);
  EXPECT_EQ(c.pass.warmup_time, std::chrono::seconds(2));
  const auto long_names = kLoadgen.OptionsOf(
      Argv("--server 10.0.0.5 --port 7000 --threads 2 --clients 3 --requests 10k "
           "--data-size 64 --protocol memcache_text"));
  using C = loadgen::Config;
  ExpectSameFields(long_names, c, &C::server, &C::port);
  EXPECT_EQ(long_names.load.threads, c.load.threads);
  EXPECT_EQ(long_names.load.clients, c.load.clients);
  EXPECT_EQ(long_names.pass.requests_per_client, c.pass.requests_per_client);
  EXPECT_EQ(long_names.load.data_size, c.load.data_size);
  EXPECT_EQ(long_names.protocol, loadgen::Protocol::kMemcacheText);
}

TEST(LoadgenFlags, ARepeatedFlagTakesItsLastValue) {
  EXPECT_EQ(kLoadgen.OptionsOf({"-t", "2", "-t", "5"}).load.threads, 5);
  EXPECT_EQ(kLoadgen.OptionsOf({"--test-time", "30", "--test-time", "2m"}).pass.test_time,
            std::chrono::minutes(2));
}

TEST(LoadgenFlags, CommandFlagsApplyToTheCommandBeforeThem) {
  const auto c = kLoadgen.OptionsOf({"--command", "LPUSH __key__ __data__", "--command-ratio", "3",
                                     "--command-key-pattern", "S", "--command", "LPOP __key__"});
  ASSERT_EQ(c.commands.size(), 2U);
  EXPECT_EQ(c.commands[0].text, "LPUSH __key__ __data__");
  EXPECT_EQ(c.commands[0].ratio, 3U);
  EXPECT_EQ(c.commands[0].key_pattern, core::KeyPattern::kSequential);
  EXPECT_EQ(c.commands[1].text, "LPOP __key__");
  EXPECT_EQ(c.commands[1].ratio, 1U);
  EXPECT_EQ(c.commands[1].key_pattern, core::KeyPattern::kRandom);
}

TEST(LoadgenFlags, BadValuesAreOneUsageLineNamingTheFlag) {
  ExpectUsageError("--command-ratio must follow the --command it applies to", [] {
    return kLoadgen.OptionsOf({"--command-ratio", "2", "--command", "GET __key__"});
  });
  ExpectUsageError("invalid --command-ratio '0' (expected a count >= 1)", [] {
    return kLoadgen.OptionsOf({"--command", "GET __key__", "--command-ratio", "0"});
  });
  ExpectUsageErrorStartingWith("--command-key-pattern: ", [] {
    return kLoadgen.OptionsOf({"--command", "GET __key__", "--command-key-pattern", "Q"});
  });
  const std::string threads = kLoadgen.ParseErrorOf({"-t", "0"});
  EXPECT_NE(threads.find("--threads \"0\""), std::string::npos) << threads;
  EXPECT_EQ(kLoadgen.ParseErrorOf({"-n", "allkeys"}), "");
  testing::ScopedTempDir dir("loadgen-flags");
  const std::string nowhere = (dir.path() / "no" / "report.json").string();
  ExpectUsageErrorNaming(nowhere, [&] { return kLoadgen.OptionsOf({"--json-out-file", nowhere}); });
}

// memtier's reconnect flags, as memtier spells them; unset, ours.
TEST(LoadgenFlags, MemtiersReconnectFlagsLand) {
  const auto c = kLoadgen.OptionsOf(
      Argv("--reconnect-interval=100 --reconnect-on-error --max-reconnect-attempts=5 "
           "--reconnect-backoff-factor=1.5 --connection-timeout=3"));
  EXPECT_EQ(c.reconnect_interval, 100U);
  EXPECT_EQ(c.reconnect, loadgen::ReconnectPolicy::kOn);
  EXPECT_EQ(c.max_reconnect_attempts, 5U);
  EXPECT_EQ(c.reconnect_backoff_factor, 1.5);
  EXPECT_EQ(c.connection_timeout_s, 3U);
  const auto ours = kLoadgen.OptionsOf({});
  EXPECT_EQ(ours.reconnect_interval, 0U);
  EXPECT_EQ(ours.max_reconnect_attempts, std::nullopt);
  EXPECT_EQ(ours.reconnect_backoff_factor, std::nullopt);
  EXPECT_EQ(ours.connection_timeout_s, 10U);
  const std::string attempts = kLoadgen.ParseErrorOf({"--max-reconnect-attempts", "-1"});
  EXPECT_NE(attempts.find("--max-reconnect-attempts \"-1\""), std::string::npos) << attempts;
  ExpectUsageError("--reconnect-on-error contradicts --reconnect off", [] {
    return kLoadgen.OptionsOf({"--reconnect", "off", "--reconnect-on-error"});
  });
}

}  // namespace
}  // namespace dfbench::cli
