#include "loadgen/value_sizes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace dfbench::loadgen {
namespace {

std::vector<uint32_t> Sizes(const Config& config, const std::vector<uint64_t>& keys) {
  ValueSizes sizes(config);
  Rng rng(1);
  std::vector<uint32_t> out;
  out.reserve(keys.size());
  for (uint64_t key : keys) out.push_back(sizes.Next(key, rng));
  return out;
}

TEST(ValueSizes, EveryValueHasTheFixedSize) {
  Config c;
  c.load.data_size = 77;
  EXPECT_EQ(Sizes(c, {0, 5, 9}), (std::vector<uint32_t>{77, 77, 77}));
  EXPECT_EQ(FixedValueSize(c), 77u);
  EXPECT_EQ(LargestValueSize(c), 77u);
}

TEST(ValueSizes, ARangeIsRandomWithinIt) {
  Config c;
  c.data_size_min = 10;
  c.data_size_max = 12;
  const std::vector<uint32_t> sizes = Sizes(c, std::vector<uint64_t>(300, 0));
  for (uint32_t s : sizes) {
    EXPECT_GE(s, 10u);
    EXPECT_LE(s, 12u);
  }
  EXPECT_NE(std::count(sizes.begin(), sizes.end(), 10u), 0);
  EXPECT_NE(std::count(sizes.begin(), sizes.end(), 12u), 0);
  EXPECT_EQ(FixedValueSize(c), std::nullopt);
  EXPECT_EQ(LargestValueSize(c), 32u);  // the -d default still sizes the shared bytes
}

// memtier's S: min at --key-minimum, max at --key-maximum, linear (truncated) between.
TEST(ValueSizes, PatternSGrowsWithTheKey) {
  Config c;
  c.data_size_min = 100;
  c.data_size_max = 200;
  c.data_size_by_key = true;
  c.load.key_minimum = 1000;
  c.load.key_maximum = 2000;
  EXPECT_EQ(Sizes(c, {1000, 1001, 1500, 1999, 2000}),
            (std::vector<uint32_t>{100, 100, 150, 199, 200}));
  c.load.key_maximum = 1000;
  EXPECT_EQ(Sizes(c, {1000}), (std::vector<uint32_t>{100}));
}

// memtier's config_weight_list::get_next_size: `weight` values of each size in turn.
TEST(ValueSizes, AListGivesEachSizeItsWeightInTurn) {
  Config c;
  c.data_size_list = {{10, 2}, {20, 0}, {30, 1}};
  EXPECT_EQ(Sizes(c, std::vector<uint64_t>(7, 0)),
            (std::vector<uint32_t>{10, 10, 30, 10, 10, 30, 10}));
  c.data_size_list = {{5, 0}, {6, 3}};
  EXPECT_EQ(Sizes(c, std::vector<uint64_t>(4, 0)), (std::vector<uint32_t>{6, 6, 6, 6}));
  c.data_size_list = {{10, 1}, {5000, 1}};
  EXPECT_EQ(FixedValueSize(c), std::nullopt);
  EXPECT_EQ(LargestValueSize(c), 5000u);
}

}  // namespace
}  // namespace dfbench::loadgen
