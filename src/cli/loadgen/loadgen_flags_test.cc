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

TEST(LoadgenFlags, ValueFlagsLand) {
  auto c = kLoadgen.OptionsOf(Argv("--data-size-list 10:2,30:1 -R"));
  ASSERT_EQ(c.data_size_list.size(), 2U);
  EXPECT_EQ(c.data_size_list[1].size, 30U);
  EXPECT_TRUE(c.random_data);
  c = kLoadgen.OptionsOf(Argv("--data-size-range 1-9 --data-size-pattern S --random-data"));
  EXPECT_TRUE(c.data_size_by_key);
  EXPECT_TRUE(c.random_data);
  EXPECT_FALSE(kLoadgen.OptionsOf({}).random_data);
  EXPECT_EQ(kLoadgen.OptionsOf(Argv("--data-offset 7")).data_offset, 7U);
  EXPECT_NE(kLoadgen.ParseErrorOf(Argv("--data-offset 536870912")).find("--data-offset"),
            std::string::npos);
  // As memtier: -d, even at its default, is not taken beside a list or a range.
  kLoadgen.ExpectUsage(Argv("-d 32 --data-size-list 10:1"),
                       "--data-size cannot be used with --data-size-list or --data-size-range");
  kLoadgen.ExpectUsage(Argv("--data-size-range 1-9 --data-size 5"),
                       "--data-size cannot be used with --data-size-list or --data-size-range");
}

// As memtier's: -h and --host are -s, and help is --help alone.
TEST(LoadgenFlags, HostIsTheServer) {
  EXPECT_EQ(kLoadgen.OptionsOf({"-h", "10.0.0.9"}).server, "10.0.0.9");
  EXPECT_EQ(kLoadgen.OptionsOf({"--host", "cache.invalid"}).server, "cache.invalid");
  EXPECT_NE(kLoadgen.ParseErrorOf({"-h"}), "");
}

TEST(LoadgenFlags, Ipv4AndIpv6PickTheFamilyTheLastOneWins) {
  using loadgen::AddressFamily;
  EXPECT_EQ(kLoadgen.OptionsOf({}).address_family, AddressFamily::kAny);
  EXPECT_EQ(kLoadgen.OptionsOf({"-4"}).address_family, AddressFamily::kIpv4);
  EXPECT_EQ(kLoadgen.OptionsOf({"--ipv6"}).address_family, AddressFamily::kIpv6);
  EXPECT_EQ(kLoadgen.OptionsOf({"-6", "-4"}).address_family, AddressFamily::kIpv4);
  EXPECT_EQ(kLoadgen.OptionsOf({"-4", "--ipv6"}).address_family, AddressFamily::kIpv6);
}

TEST(LoadgenFlags, ConnectionStartJitterLands) {
  const auto c = kLoadgen.OptionsOf(
      Argv("--thread-conn-start-min-jitter-micros 10 --thread-conn-start-max-jitter-micros 250"));
  EXPECT_EQ(c.conn_start_jitter_min_us, 10U);
  EXPECT_EQ(c.conn_start_jitter_max_us, 250U);
  kLoadgen.ExpectUsage(Argv("--thread-conn-start-min-jitter-micros 10"),
                       "--thread-conn-start-min-jitter-micros (10) cannot be greater than "
                       "--thread-conn-start-max-jitter-micros (0)");
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
