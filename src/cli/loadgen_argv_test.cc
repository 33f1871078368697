// The built-in driver's command line and loadgen's parser agree: every load and pass a
// benchmark can ask for, written as `dfbench loadgen` argv by the driver (as a client host runs
// it), parsed by loadgen's own flags, comes back as the same load. Generated from a seed,
// printed so a failure can be replayed (DFBENCH_PROPERTY_SEED).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "cli/flags_test_support.h"
#include "cli/loadgen_flags.h"
#include "drivers/builtin_driver.h"

namespace dfbench::cli {
namespace {

const CommandLine<loadgen::Options, &AddLoadgenFlags, &ToLoadgenConfig> kLoadgenLine{"loadgen"};

struct Case {
  drivers::Target target;
  core::Load load;
  core::Pass pass;
};

template <class T>
const T& Pick(std::mt19937_64& rng, const std::vector<T>& from) {
  return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
}

Case Generate(std::mt19937_64& rng) {
  auto number = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Case c;
  c.target.address = Pick<std::string>(rng, {"127.0.0.1", "10.0.0.7", "cache.invalid", "::1"});
  c.target.port = number(1, 65535);
  c.target.protocol =
      Pick<core::Protocol>(rng, {core::Protocol::kRedis, core::Protocol::kMemcacheText});
  const bool redis = c.target.protocol == core::Protocol::kRedis;
  c.target.cluster = redis && number(0, 3) == 0;
  c.target.db = redis && !c.target.cluster && number(0, 2) == 0 ? number(1, 15) : 0;
  c.target.key_namespace = number(0, 2) == 0 ? "dfbench:s:20261207-1:" : "";
  core::Load& l = c.load;
  l.threads = number(1, 8);
  l.clients = number(1, 60);
  l.pipeline = number(1, 64);
  l.data_size = number(1, 4096);
  l.distinct_client_seed = number(0, 1) == 1;
  l.seed_client_base = number(0, 1) == 1 ? number(1, 500) : 0;
  if (redis && number(0, 2) == 0) {
    l.command = Pick<std::string>(rng, {"SET __key__ __data__", "LPUSH __key__ __data__",
                                        "HSET __key__ f __data__", "GET __key__"});
    l.key_pattern =
        Pick<core::KeyPattern>(rng, {core::KeyPattern::kRandom, core::KeyPattern::kSequential,
                                     core::KeyPattern::kGaussian, core::KeyPattern::kZipf});
  } else {
    l.ratio = std::to_string(number(0, 5)) + ":" + std::to_string(number(1, 20));
  }
  if (number(0, 1) == 1) {
    l.key_minimum = static_cast<uint64_t>(number(1, 1000));
    l.key_maximum = l.key_minimum + static_cast<uint64_t>(number(1000, 1000000));
  }
  l.key_prefix = Pick<std::string>(rng, {"", "key:", "bench-"});
  if (number(0, 1) == 1) l.percentiles = Pick<std::vector<double>>(rng, {{50, 99}, {99.9, 99.99}});
  switch (number(0, 3)) {
    case 3:  // a preload: every key of the range written once
      c.pass = core::Pass::Fill();
      if (l.key_maximum == 0) l.key_maximum = static_cast<uint64_t>(number(1, 300));
      break;
    case 0:
      c.pass = core::Pass::Requests(static_cast<uint64_t>(number(1, 100000)));
      break;
    case 1:
      c.pass = core::Pass::Time(std::chrono::seconds(number(1, 600)));
      c.pass.warmup_time = std::chrono::milliseconds(number(0, 1) * number(1, 30000));
      if (number(0, 1) == 1) c.pass.rate_per_sec = number(100, 200000);
      break;
    default:
      c.pass = core::Pass::Time(std::chrono::seconds(number(1, 60)));
      c.pass.start_at_us = 1'796'000'000'000'000 + number(0, 1'000'000);
  }
  return c;
}

// What loadgen parsed from the driver's argv is the load the case asked for.
void ExpectSameLoad(const Case& c, const loadgen::Config& got, const std::string& shown) {
  const core::Load load = drivers::InNamespace(c.target, c.load, "memtier-");
  EXPECT_EQ(got.server, c.target.address) << shown;
  EXPECT_EQ(got.port, c.target.port) << shown;
  EXPECT_EQ(got.protocol, c.target.protocol) << shown;
  EXPECT_EQ(got.cluster_mode, c.target.cluster) << shown;
  EXPECT_EQ(got.select_db, c.target.db) << shown;
  const core::Pass& pass = c.pass;
  const bool fill = pass.length == core::Pass::Length::kFill;
  // A fill needs a key per connection: never more connections than keys.
  const uint64_t keys = load.KeyCount();
  const int threads =
      fill ? static_cast<int>(std::min<uint64_t>(load.threads, keys)) : load.threads;
  const int clients =
      fill ? static_cast<int>(std::min<uint64_t>(load.clients, keys / threads)) : load.clients;
  EXPECT_EQ(got.threads, threads) << shown;
  EXPECT_EQ(got.clients, clients) << shown;
  EXPECT_EQ(got.pipeline, load.pipeline) << shown;
  EXPECT_EQ(got.data_size, static_cast<uint64_t>(load.data_size)) << shown;
  EXPECT_EQ(got.distinct_client_seed, load.distinct_client_seed) << shown;
  EXPECT_EQ(got.seed_client_base, load.seed_client_base) << shown;
  EXPECT_EQ(got.key_prefix, load.key_prefix.empty() ? "memtier-" : load.key_prefix) << shown;
  if (load.key_maximum > 0) {
    EXPECT_EQ(got.key_minimum, load.key_minimum) << shown;
    EXPECT_EQ(got.key_maximum, load.key_maximum) << shown;
  }
  if (load.command.empty()) {
    EXPECT_TRUE(got.commands.empty()) << shown;
    EXPECT_EQ(std::to_string(got.set_ratio) + ":" + std::to_string(got.get_ratio),
              fill ? "1:0" : load.ratio)
        << shown;
    if (fill) {
      EXPECT_EQ(got.KeyPatternString(), "P:P") << shown;
    }
  } else {
    ASSERT_EQ(got.commands.size(), 1u) << shown;
    EXPECT_EQ(got.commands[0].text, load.command) << shown;
    EXPECT_EQ(got.commands[0].key_pattern, fill ? core::KeyPattern::kParallel : load.key_pattern)
        << shown;
  }
  if (!load.percentiles.empty()) {
    EXPECT_EQ(got.percentiles, load.percentiles) << shown;
  }
  if (fill) {
    EXPECT_TRUE(got.all_keys) << shown;
  } else if (pass.length == core::Pass::Length::kRequests) {
    EXPECT_EQ(got.requests, pass.requests_per_client) << shown;
    EXPECT_FALSE(got.by_time()) << shown;
  } else {
    EXPECT_EQ(got.test_time, std::chrono::duration_cast<std::chrono::microseconds>(pass.test_time))
        << shown;
  }
  EXPECT_EQ(got.rate_per_sec, pass.rate_per_sec) << shown;
  EXPECT_EQ(got.warmup_time,
            std::chrono::duration_cast<std::chrono::microseconds>(pass.warmup_time))
      << shown;
  EXPECT_EQ(got.start_at_us, pass.start_at_us) << shown;
}

TEST(LoadgenArgv, EveryLoadTheDriverWritesIsTheLoadLoadgenReads) {
  const char* seed_text = std::getenv("DFBENCH_PROPERTY_SEED");
  const uint64_t seed = seed_text ? std::stoull(seed_text) : std::random_device{}();
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 300 && !::testing::Test::HasFailure(); ++i) {
    const Case c = Generate(rng);
    std::vector<std::string> argv = drivers::BuiltinDriver::BuildArgs(
        "/usr/bin/dfbench", c.target, c.load, c.pass, "/tmp/report.json");
    ASSERT_GE(argv.size(), 2u);
    ASSERT_EQ(argv[1], "loadgen");
    argv.erase(argv.begin(), argv.begin() + 2);
    std::string shown = "seed " + std::to_string(seed) + " case " + std::to_string(i) + ":";
    for (const auto& a : argv) shown += " " + a;
    const loadgen::Config got = kLoadgenLine.OptionsOf(argv);
    ExpectSameLoad(c, got, shown);
  }
}

}  // namespace
}  // namespace dfbench::cli
