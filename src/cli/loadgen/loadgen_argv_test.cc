// The one memtier-style argv codec (drivers/memtier_args.h) and loadgen's parser agree: every
// load and pass a benchmark can ask for, written as `dfbench loadgen` argv by the built-in driver
// (as a client host runs it), parsed by loadgen's own flags, comes back as the same load, every
// field of it the flags can set (connections, pipeline, value size, seeds, ratio or command and
// its key pattern, key range and prefix, percentiles). Generated from a seed, printed so a
// failure can be replayed (DFBENCH_PROPERTY_SEED). The memtier driver writes the same flags,
// checked against memtier's own spelling on a few exact loads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "cli/flags_test_support.h"
#include "cli/loadgen/loadgen_flags.h"
#include "drivers/builtin_driver.h"
#include "drivers/memtier_driver.h"
#include "support/test_data.h"

namespace dfbench::cli {
namespace {

const CommandLine<LoadgenOptions, &AddLoadgenFlags, &ToLoadgenConfig> kLoadgenLine{"loadgen"};

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
  // A SET:GET load's key pattern is not sent (it is the command's): drawn all the same.
  l.key_pattern = Pick<core::KeyPattern>(
      rng, {core::KeyPattern::kRandom, core::KeyPattern::kSequential, core::KeyPattern::kParallel,
            core::KeyPattern::kGaussian, core::KeyPattern::kZipf});
  if (redis && number(0, 2) == 0) {
    l.command = Pick<std::string>(rng, {"SET __key__ __data__", "LPUSH __key__ __data__",
                                        "HSET __key__ f __data__", "GET __key__"});
  } else if (number(0, 2) == 0) {
    l.ratio = Pick<core::Ratio>(rng, {core::kSetsOnly,
                                      {.set = 0, .get = 1},
                                      {.set = UINT32_MAX, .get = 1},
                                      {.set = 3, .get = UINT32_MAX}});
  } else {
    const auto set = static_cast<uint32_t>(number(0, 5));
    l.ratio = {.set = set, .get = static_cast<uint32_t>(number(set == 0 ? 1 : 0, 20))};
  }
  // P gives every connection a slice of its own: the range holds more keys than connections.
  if (number(0, 1) == 1 || l.key_pattern == core::KeyPattern::kParallel) {
    l.key_minimum = static_cast<uint64_t>(number(0, 1000));
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

// What loadgen parsed from the driver's argv is the load the case asked for, as loadgen runs it:
// the target's namespace in front of the prefix, a fill's connections cut to its keys and its
// requests writes, and what the argv leaves unsaid at loadgen's defaults.
void ExpectSameLoad(const Case& c, const loadgen::Config& got, const std::string& shown) {
  EXPECT_EQ(got.server, c.target.address) << shown;
  EXPECT_EQ(got.port, c.target.port) << shown;
  EXPECT_EQ(got.protocol, c.target.protocol) << shown;
  EXPECT_EQ(got.cluster_mode, c.target.cluster) << shown;
  EXPECT_EQ(got.select_db, c.target.db) << shown;
  const loadgen::Config defaults;
  core::Load want = drivers::InNamespace(c.target, c.load, "memtier-");
  const bool fill = c.pass.length == core::Pass::Length::kFill;
  if (want.key_prefix.empty()) want.key_prefix = defaults.load.key_prefix;
  if (want.key_maximum == 0) {
    want.key_minimum = defaults.load.key_minimum;
    want.key_maximum = defaults.load.key_maximum;
  }
  if (want.percentiles.empty()) want.percentiles = defaults.load.percentiles;
  if (fill) {
    // A fill needs a key per connection: never more connections than keys.
    const uint64_t keys = want.KeyCount();
    want.threads = static_cast<int>(std::min<uint64_t>(want.threads, keys));
    want.clients = static_cast<int>(std::min<uint64_t>(want.clients, keys / want.threads));
  }
  // loadgen keeps a command, with its key pattern, among its `commands`; a SET:GET load's
  // pattern is not sent, and a command's ratio is not read.
  if (want.command.empty()) {
    EXPECT_TRUE(got.commands.empty()) << shown;
    EXPECT_EQ(got.KeyPatternString(), fill ? "P:P" : "R:R") << shown;
    if (fill) want.ratio = core::kSetsOnly;
  } else {
    ASSERT_EQ(got.commands.size(), 1u) << shown;
    EXPECT_EQ(got.commands[0].text, want.command) << shown;
    EXPECT_EQ(got.commands[0].key_pattern, fill ? core::KeyPattern::kParallel : want.key_pattern)
        << shown;
    want.command.clear();
    want.ratio = defaults.load.ratio;
  }
  want.key_pattern = defaults.load.key_pattern;
  EXPECT_TRUE(got.load == want) << shown;
  EXPECT_TRUE(got.pass == c.pass) << shown;
}

// A pass both generators run alike (by requests, nothing only the built-in one takes): memtier's
// flags are the built-in generator's `loadgen_flags`, with the percentiles its report is read at.
void ExpectMemtierSharesTheFlags(const Case& c, std::vector<std::string> loadgen_flags,
                                 const std::string& shown) {
  if (c.pass.length != core::Pass::Length::kRequests || c.load.seed_client_base > 0 ||
      !c.load.percentiles.empty()) {
    return;
  }
  const auto memtier = drivers::MemtierDriver::BuildArgs("memtier_benchmark", c.target, c.load,
                                                         c.pass, "/tmp/report.json");
  ASSERT_TRUE(memtier) << memtier.error().message << " " << shown;
  // Every loadgen command line keeps error replies apart from the operations; memtier has no
  // such flag (it counts them as operations).
  const auto apart =
      std::ranges::search(loadgen_flags, std::vector<std::string>{"--error-replies", "apart"});
  ASSERT_FALSE(apart.empty()) << shown;
  loadgen_flags.erase(apart.begin(), apart.end());
  const auto report = loadgen_flags.end() - 2;
  loadgen_flags.insert(report, {"--print-percentiles", "50,99,99.9"});
  loadgen_flags.insert(loadgen_flags.begin(), "memtier_benchmark");
  EXPECT_EQ(*memtier, loadgen_flags) << shown;
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
    ExpectMemtierSharesTheFlags(c, argv, shown);
  }
}

// memtier_benchmark's command line of a few exact loads, written as memtier reads it.
TEST(MemtierArgv, ExactLoadsAreMemtiersFlags) {
  struct Exact {
    drivers::Target target;
    core::Load load;
    core::Pass pass;
    std::string want;
  };
  core::Load set_get{.threads = 2,
                     .clients = 3,
                     .pipeline = 4,
                     .data_size = 64,
                     .distinct_client_seed = true,
                     .ratio = {.set = 3, .get = 7},
                     .key_minimum = 5,
                     .key_maximum = 1004,
                     .key_prefix = "bench-"};
  drivers::Target shared{.address = "10.0.0.7", .port = 7001, .key_namespace = "dfbench:s:1:"};
  core::Load command{.threads = 1, .clients = 2, .pipeline = 8, .data_size = 32};
  command.command = "HSET __key__ f __data__";
  command.key_pattern = core::KeyPattern::kZipf;
  drivers::Target tls{.address = "cache.invalid", .port = 6380, .user = "bench", .db = 2};
  tls.tls = {.enabled = true, .cacert = "/ca.pem", .sni = "cache"};
  core::Load fill{.threads = 32, .clients = 5, .pipeline = 20, .data_size = 16};
  fill.command = "RPUSH __key__ __data__";
  fill.key_minimum = 1;
  fill.key_maximum = 1000;
  const Exact cases[] = {
      {shared, set_get, core::Pass::Requests(2000),
       "m --server 10.0.0.7 --port 7001 --protocol redis --threads 2 --clients 3 --pipeline 4 "
       "--requests 2000 --ratio 3:7 --data-size 64 --key-minimum 5 --key-maximum 1004 "
       "--key-prefix dfbench:s:1:bench- --distinct-client-seed --print-percentiles 50,99,99.9 "
       "--json-out-file r.json"},
      {tls, command, core::Pass::Time(std::chrono::seconds(45)),
       "m --server cache.invalid --port 6380 --protocol redis --threads 1 --clients 2 --pipeline 8 "
       "--tls --cacert /ca.pem --sni cache --user bench --select-db 2 --test-time 45 --command "
       "'HSET __key__ f __data__' --command-key-pattern Z --data-size 32 --print-percentiles "
       "50,99,99.9 --json-out-file r.json"},
      // 1000 keys over 125 connections of 8 each, every key written once.
      {{.address = "127.0.0.1", .port = 7000, .cluster = true},
       fill,
       core::Pass::Fill(),
       "m --server 127.0.0.1 --port 7000 --protocol redis --threads 25 --clients 5 --pipeline 20 "
       "--cluster-mode --requests 8 --command 'RPUSH __key__ __data__' --command-key-pattern P "
       "--data-size 16 --key-minimum 1 --key-maximum 1000 --print-percentiles 50,99,99.9 "
       "--json-out-file r.json"},
  };
  for (const Exact& c : cases) {
    const auto args = drivers::MemtierDriver::BuildArgs("m", c.target, c.load, c.pass, "r.json");
    ASSERT_TRUE(args) << args.error().message;
    EXPECT_EQ(*args, testing::SplitArgs(c.want)) << testing::JoinArgs(*args);
  }
}

}  // namespace
}  // namespace dfbench::cli
