#include "loadgen/workload.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "protocol/memcache_text.h"
#include "protocol/resp_encoder.h"

namespace dfbench::loadgen {
namespace {

// The bytes of a drawn request as the general encoders write them, from its formatted key.
std::string GeneralBytes(const Config& c, const Workload& w, const Request& r,
                         std::string_view key) {
  const Slot& slot = w.slots[r.slot];
  const std::string_view data(w.data.data(), r.data_size);
  const std::string ttl = std::to_string(r.ttl_s);
  std::string out;
  if (c.protocol == Protocol::kMemcacheText) {
    if (slot.kind == Slot::Kind::kGet) {
      protocol::AppendMemcacheGet(&out, key);
    } else {
      protocol::AppendMemcacheSet(&out, key, data, std::chrono::seconds(r.ttl_s));
    }
  } else if (r.ttl_s > 0) {
    protocol::AppendCommand(&out, {"SETEX", key, ttl, data});
  } else {
    slot.tmpl->Encode(&out, key, data);
  }
  return out;
}

// Every request a client writes is, byte for byte, what the general encoders write for it.
void ExpectGeneralBytes(const Config& c) {
  const auto valid = Validate(c);
  ASSERT_TRUE(valid) << valid.error().message;
  auto w = BuildWorkload(c);
  ASSERT_TRUE(w) << w.error().message;
  ClientWorkload client(c, *w, 0, 0);
  protocol::RequestBuffer out;
  out.append("before");
  for (int i = 0; i < 2000; ++i) {
    const Request r = client.Draw();
    const std::string expected = GeneralBytes(c, *w, r, client.Key(r));
    out.Shrink(6);
    client.Encode(r, &out);
    ASSERT_EQ(out.view().substr(6), expected) << "request " << i << ", key number " << r.key_index;
  }
}

// Key ranges whose numbers have few digits, and ones that have up to 19.
std::vector<Config> KeyShapes() {
  std::vector<Config> shapes;
  for (const std::string& prefix :
       std::vector<std::string>{"", "memtier-", std::string(200, 'p')}) {
    Config small;
    small.load.key_prefix = prefix;
    small.load.key_minimum = 0;
    small.load.key_maximum = 1000;
    small.set_pattern = core::KeyPattern::kSequential;
    small.get_pattern = core::KeyPattern::kRandom;
    Config wide = small;
    wide.load.key_maximum = std::numeric_limits<int64_t>::max();
    wide.set_pattern = wide.get_pattern = core::KeyPattern::kRandom;
    shapes.push_back(small);
    shapes.push_back(wide);
  }
  return shapes;
}

TEST(ClientWorkloadBytes, SetGetWithAFixedValueSize) {
  for (Config c : KeyShapes()) {
    c.load.ratio = {1, 3};
    c.load.data_size = 256;
    ExpectGeneralBytes(c);
  }
}

TEST(ClientWorkloadBytes, SetGetWithAValueSizeRangeAndExpiry) {
  for (Config c : KeyShapes()) {
    c.load.ratio = {1, 1};
    c.data_size_min = 1;
    c.data_size_max = 300;
    ExpectGeneralBytes(c);
    c.expiry_min_s = 5;
    c.expiry_max_s = 100000;
    ExpectGeneralBytes(c);
  }
}

TEST(ClientWorkloadBytes, SetGetWithASizeListOrSizesByKey) {
  for (Config c : KeyShapes()) {
    c.load.ratio = {1, 1};
    c.data_size_list = {{3, 2}, {500, 1}, {40, 0}};
    ExpectGeneralBytes(c);
    c.data_size_list.clear();
    c.data_size_min = 1;
    c.data_size_max = 300;
    c.data_size_by_key = true;
    ExpectGeneralBytes(c);
  }
}

TEST(ClientWorkloadBytes, CustomCommands) {
  for (Config c : KeyShapes()) {
    c.commands = {{"HSET h:__key__ __key__ x__data__", 2, core::KeyPattern::kSequential},
                  {"PING"},
                  {"LRANGE __key__ 0 -1"}};
    c.load.data_size = 10;
    ExpectGeneralBytes(c);
    c.data_size_min = 1;
    c.data_size_max = 2000;
    ExpectGeneralBytes(c);
  }
}

TEST(ClientWorkloadBytes, Memcache) {
  for (Config c : KeyShapes()) {
    c.protocol = Protocol::kMemcacheText;
    c.load.ratio = {1, 1};
    c.load.data_size = 256;
    ExpectGeneralBytes(c);
    c.data_size_min = 1;
    c.data_size_max = 300;
    ExpectGeneralBytes(c);
    c.expiry_min_s = 30;
    c.expiry_max_s = 60;
    ExpectGeneralBytes(c);
  }
}

}  // namespace
}  // namespace dfbench::loadgen
