#include "loadgen/keygen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "loadgen/workload.h"
#include "protocol/memcache_text.h"
#include "protocol/resp_parser.h"

namespace dfbench::loadgen {
namespace {

// The configuration of keys key_min..key_max; a Gaussian's median and stddev when given.
Config MakeConfig(uint64_t key_min, uint64_t key_max, std::optional<double> median = std::nullopt,
                  std::optional<double> stddev = std::nullopt) {
  Config c;
  c.load.key_minimum = key_min;
  c.load.key_maximum = key_max;
  if (median) c.key_median = *median;
  if (stddev) c.key_stddev = *stddev;
  const auto valid = Validate(c);
  EXPECT_TRUE(valid) << valid.error().message;
  return c;
}

std::vector<uint64_t> Draw(KeyGenerator& g, Rng& rng, int n) {
  std::vector<uint64_t> out;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(g.Next(rng));
  return out;
}

TEST(Rng, BelowStaysInBoundsAndIsDeterministic) {
  Rng a(7), b(7);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t x = a.Below(13);
    EXPECT_LT(x, 13u);
    EXPECT_EQ(x, b.Below(13));
    const double u = a.Unit();
    b.Unit();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
}

TEST(KeyGenerator, RandomCoversTheRangeUniformly) {
  Config c = MakeConfig(10, 19);
  KeyGenerator g(c, core::KeyPattern::kRandom, 0, 1);
  Rng rng(1);
  std::map<uint64_t, int> seen;
  for (uint64_t k : Draw(g, rng, 100000)) ++seen[k];
  ASSERT_EQ(seen.size(), 10u);
  EXPECT_EQ(seen.begin()->first, 10u);
  EXPECT_EQ(seen.rbegin()->first, 19u);
  for (auto [key, n] : seen) EXPECT_NEAR(n, 10000, 500) << key;
}

TEST(KeyGenerator, SequentialWalksTheWholeRangeAndWraps) {
  Config c = MakeConfig(5, 8);
  KeyGenerator g(c, core::KeyPattern::kSequential, 3, 4);  // the client index does not matter for S
  Rng rng(1);
  EXPECT_EQ(Draw(g, rng, 9), (std::vector<uint64_t>{5, 6, 7, 8, 5, 6, 7, 8, 5}));
}

TEST(KeyGenerator, ParallelSlicesCoverTheRangeExactlyOnce) {
  Config c = MakeConfig(100, 1099);  // 1000 keys over 7 clients
  Rng rng(1);
  std::map<uint64_t, int> seen;
  for (int client = 0; client < 7; ++client) {
    KeyGenerator g(c, core::KeyPattern::kParallel, client, 7);
    const KeySlice slice = ParallelSlice(100, 1099, client, 7);
    for (uint64_t k : Draw(g, rng, static_cast<int>(slice.size()))) ++seen[k];
    // The next key wraps to the start of the slice.
    EXPECT_EQ(g.Next(rng), slice.first);
  }
  ASSERT_EQ(seen.size(), 1000u);
  EXPECT_EQ(seen.begin()->first, 100u);
  EXPECT_EQ(seen.rbegin()->first, 1099u);
  for (auto [key, n] : seen) EXPECT_EQ(n, 1) << key;
}

TEST(KeyGenerator, GaussianCentresOnTheMedian) {
  Config c = MakeConfig(0, 100000, 30000, 1000);
  KeyGenerator g(c, core::KeyPattern::kGaussian, 0, 1);
  Rng rng(3);
  const int n = 100000;
  double sum = 0, sum_sq = 0;
  int within_one_sigma = 0;
  for (uint64_t k : Draw(g, rng, n)) {
    const double x = static_cast<double>(k);
    sum += x;
    sum_sq += x * x;
    if (std::abs(x - 30000) <= 1000) ++within_one_sigma;
  }
  const double mean = sum / n;
  const double stddev = std::sqrt(sum_sq / n - mean * mean);
  EXPECT_NEAR(mean, 30000, 30);
  EXPECT_NEAR(stddev, 1000, 30);
  EXPECT_NEAR(within_one_sigma / double(n), 0.6827, 0.01);
}

TEST(KeyGenerator, GaussianDefaultsAreMidRangeAndSixthOfRange) {
  Config c = MakeConfig(0, 59999);
  KeyGenerator g(c, core::KeyPattern::kGaussian, 0, 1);
  Rng rng(4);
  double sum = 0;
  int within = 0;
  const int n = 50000;
  for (uint64_t k : Draw(g, rng, n)) {
    sum += static_cast<double>(k);
    if (std::abs(static_cast<double>(k) - 29999.5) <= 10000) ++within;
  }
  EXPECT_NEAR(sum / n, 29999.5, 200);
  EXPECT_NEAR(within / double(n), 0.6827, 0.015);
}

TEST(KeyGenerator, GaussianStaysInRange) {
  Config c = MakeConfig(10, 20, 10, 50);
  KeyGenerator g(c, core::KeyPattern::kGaussian, 0, 1);
  Rng rng(5);
  for (uint64_t k : Draw(g, rng, 10000)) {
    EXPECT_GE(k, 10u);
    EXPECT_LE(k, 20u);
  }
}

// The share of the hottest keys follows P(rank) = rank^-s / H(n, s).
TEST(KeyGenerator, ZipfMatchesTheDistribution) {
  for (double s : {0.5, 1.0, 1.5}) {
    Config c;
    c.load.key_minimum = 1;
    c.load.key_maximum = 1000;
    c.key_zipf_exp = s;
    KeyGenerator g(c, core::KeyPattern::kZipf, 0, 1);
    Rng rng(6);
    const int n = 400000;
    std::vector<int> counts(1001);
    for (uint64_t k : Draw(g, rng, n)) {
      ASSERT_GE(k, 1u);
      ASSERT_LE(k, 1000u);
      ++counts[k];
    }
    double h = 0;
    for (int r = 1; r <= 1000; ++r) h += std::pow(r, -s);
    for (int rank : {1, 2, 3, 10, 100}) {
      const double expected = std::pow(rank, -s) / h;
      EXPECT_NEAR(counts[rank] / double(n), expected, 0.05 * expected + 0.0005)
          << "s=" << s << " rank=" << rank;
    }
  }
}

TEST(KeyGenerator, ZipfHandlesLargeRanges) {
  Config c = MakeConfig(0, 9999999);
  KeyGenerator g(c, core::KeyPattern::kZipf, 0, 1);
  Rng rng(7);
  int hottest = 0;
  for (uint64_t k : Draw(g, rng, 100000)) {
    ASSERT_LE(k, 9999999u);
    hottest += k == 0;
  }
  // 1 / H(10^7, 1) = 1 / 16.695 = 6.0%.
  EXPECT_NEAR(hottest / 100000.0, 0.0599, 0.005);
}

TEST(ClientSeed, SameForAllClientsUnlessDistinct) {
  Config c = MakeConfig(0, 1000000000);
  EXPECT_EQ(ClientSeed(c, 0, 0), ClientSeed(c, 5, 0));
  c.load.distinct_client_seed = true;
  EXPECT_NE(ClientSeed(c, 0, 0), ClientSeed(c, 5, 0));
  c.load.distinct_client_seed = false;
  c.randomize = true;
  EXPECT_NE(ClientSeed(c, 0, 111), ClientSeed(c, 0, 222));
}

TEST(ClientSeed, DefaultClientsProduceTheSameKeys) {
  Config c = MakeConfig(0, 1000000000);
  Workload w = *BuildWorkload(c);
  ClientWorkload a(c, w, 0, 0), b(c, w, 1, 0);
  protocol::RequestBuffer out_a, out_b;
  for (int i = 0; i < 50; ++i) {
    a.Next(&out_a);
    b.Next(&out_b);
  }
  EXPECT_EQ(out_a.view(), out_b.view());
  c.load.distinct_client_seed = true;
  ClientWorkload d(c, w, 0, 0), e(c, w, 1, 0);
  out_a.clear();
  out_b.clear();
  for (int i = 0; i < 50; ++i) {
    d.Next(&out_a);
    e.Next(&out_b);
  }
  EXPECT_NE(out_a.view(), out_b.view());
}

// Splits a buffer of RESP requests into argument lists.
std::vector<std::vector<std::string>> ParseRequests(std::string_view data) {
  std::vector<std::vector<std::string>> out;
  while (!data.empty()) {
    size_t used = 0;
    protocol::Reply r;
    EXPECT_EQ(protocol::ParseReply(data, &used, &r), protocol::ParseStatus::kOk);
    if (used == 0) break;
    std::vector<std::string> args;
    for (const auto& e : r.elements) args.push_back(e.str);
    out.push_back(args);
    data.remove_prefix(used);
  }
  return out;
}

TEST(ClientWorkload, RatioCycleAndEncoding) {
  Config c;
  c.load.ratio = {2, 3};
  c.set_pattern = c.get_pattern = core::KeyPattern::kSequential;
  c.load.key_maximum = 1000;
  c.load.data_size = 7;
  Workload w = *BuildWorkload(c);
  ClientWorkload client(c, w, 0, 0);
  protocol::RequestBuffer out;
  std::vector<uint32_t> slots;
  slots.reserve(10);
  for (int i = 0; i < 10; ++i) slots.push_back(client.Next(&out));
  EXPECT_EQ(slots, (std::vector<uint32_t>{0, 0, 1, 1, 1, 0, 0, 1, 1, 1}));
  auto requests = ParseRequests(out.view());
  ASSERT_EQ(requests.size(), 10u);
  ASSERT_EQ(requests[0].size(), 3u);
  EXPECT_EQ(requests[0][0], "SET");
  EXPECT_EQ(requests[0][1], "memtier-0");
  EXPECT_EQ(requests[0][2].size(), 7u);
  EXPECT_EQ(requests[1][1], "memtier-1");
  EXPECT_EQ(requests[2], (std::vector<std::string>{"GET", "memtier-0"}));
  EXPECT_EQ(requests[4], (std::vector<std::string>{"GET", "memtier-2"}));
}

TEST(ClientWorkload, ZeroRatioSideIsNeverSent) {
  Config c;
  c.load.ratio = {0, 1};
  Workload w = *BuildWorkload(c);
  ClientWorkload client(c, w, 0, 0);
  protocol::RequestBuffer out;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(client.Next(&out), 1u);
}

TEST(ClientWorkload, DataSizeRangeAndExpiry) {
  Config c;
  c.load.ratio = {1, 0};
  c.data_size_min = 10;
  c.data_size_max = 20;
  c.expiry_min_s = 100;
  c.expiry_max_s = 200;
  Workload w = *BuildWorkload(c);
  ClientWorkload client(c, w, 0, 0);
  protocol::RequestBuffer out;
  for (int i = 0; i < 200; ++i) client.Next(&out);
  std::set<size_t> sizes;
  for (const auto& args : ParseRequests(out.view())) {
    ASSERT_EQ(args.size(), 4u);
    EXPECT_EQ(args[0], "SETEX");
    const int ttl = std::stoi(args[2]);
    EXPECT_GE(ttl, 100);
    EXPECT_LE(ttl, 200);
    EXPECT_GE(args[3].size(), 10u);
    EXPECT_LE(args[3].size(), 20u);
    sizes.insert(args[3].size());
  }
  EXPECT_EQ(sizes.size(), 11u);
}

TEST(ClientWorkload, CustomCommands) {
  Config c;
  c.commands = {{"LPUSH list:__key__ __data__", 2}, {"LRANGE list:__key__ 0 -1"}};
  c.load.key_maximum = 0;
  c.load.data_size = 3;
  Workload w = *BuildWorkload(c);
  ASSERT_EQ(w.slots.size(), 2u);
  EXPECT_EQ(w.slots[0].section, "Lpushs");
  EXPECT_EQ(w.slots[0].type, "LPUSH");
  EXPECT_EQ(w.slots[1].section, "Lranges");
  ClientWorkload client(c, w, 0, 0);
  protocol::RequestBuffer out;
  for (int i = 0; i < 3; ++i) client.Next(&out);
  auto requests = ParseRequests(out.view());
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0][1], "list:memtier-0");
  EXPECT_EQ(requests[1][0], "LPUSH");
  EXPECT_EQ(requests[2], (std::vector<std::string>{"LRANGE", "list:memtier-0", "0", "-1"}));
}

TEST(ClientWorkload, MemcacheEncoding) {
  Config c;
  c.protocol = Protocol::kMemcacheText;
  c.load.ratio = {1, 1};
  c.set_pattern = c.get_pattern = core::KeyPattern::kSequential;
  c.load.data_size = 4;
  c.expiry_min_s = 30;
  c.expiry_max_s = 30;
  Workload w = *BuildWorkload(c);
  ClientWorkload client(c, w, 0, 0);
  protocol::RequestBuffer out;
  client.Next(&out);
  client.Next(&out);
  const std::string_view bytes = out.view();
  EXPECT_EQ(bytes.substr(0, bytes.find("\r\n")), "set memtier-0 0 30 4");
  EXPECT_NE(bytes.find("get memtier-0\r\n"), std::string::npos);
}

TEST(SectionName, MemtierStyle) {
  EXPECT_EQ(SectionName("LPUSH"), "Lpushs");
  EXPECT_EQ(SectionName("zadd"), "Zadds");
  EXPECT_EQ(SectionName("SET"), "Sets");
}

}  // namespace
}  // namespace dfbench::loadgen
