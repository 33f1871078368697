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
void ExpectGeneralBytes(const Options& o) {
  auto c = ParseOptions(o);
  ASSERT_TRUE(c) << c.error().message;
  auto w = BuildWorkload(*c);
  ASSERT_TRUE(w) << w.error().message;
  ClientWorkload client(*c, *w, 0, 0);
  protocol::RequestBuffer out;
  out.append("before");
  for (int i = 0; i < 2000; ++i) {
    const Request r = client.Draw();
    const std::string expected = GeneralBytes(*c, *w, r, client.Key(r));
    out.Shrink(6);
    client.Encode(r, &out);
    ASSERT_EQ(out.view().substr(6), expected) << "request " << i << ", key number " << r.key_index;
  }
}

// Key ranges whose numbers have few digits, and ones that have up to 19.
std::vector<Options> KeyShapes() {
  std::vector<Options> shapes;
  for (const std::string& prefix :
       std::vector<std::string>{"", "memtier-", std::string(200, 'p')}) {
    Options small;
    small.key_prefix = prefix;
    small.key_minimum = 0;
    small.key_maximum = 1000;
    small.key_pattern = "S:R";
    Options wide = small;
    wide.key_maximum = std::numeric_limits<int64_t>::max();
    wide.key_pattern = "R:R";
    shapes.push_back(small);
    shapes.push_back(wide);
  }
  return shapes;
}

TEST(ClientWorkloadBytes, SetGetWithAFixedValueSize) {
  for (Options o : KeyShapes()) {
    o.ratio = "1:3";
    o.data_size = 256;
    ExpectGeneralBytes(o);
  }
}

TEST(ClientWorkloadBytes, SetGetWithAValueSizeRangeAndExpiry) {
  for (Options o : KeyShapes()) {
    o.ratio = "1:1";
    o.data_size_range = "1-300";
    ExpectGeneralBytes(o);
    o.expiry_range = "5-100000";
    ExpectGeneralBytes(o);
  }
}

TEST(ClientWorkloadBytes, CustomCommands) {
  for (Options o : KeyShapes()) {
    o.key_pattern.clear();  // each command has its own
    o.commands = {{"HSET h:__key__ __key__ x__data__", 2, core::KeyPattern::kSequential},
                  {"PING"},
                  {"LRANGE __key__ 0 -1"}};
    o.data_size = 10;
    ExpectGeneralBytes(o);
    o.data_size_range = "1-2000";
    ExpectGeneralBytes(o);
  }
}

TEST(ClientWorkloadBytes, Memcache) {
  for (Options o : KeyShapes()) {
    o.protocol = "memcache_text";
    o.ratio = "1:1";
    o.data_size = 256;
    ExpectGeneralBytes(o);
    o.data_size_range = "1-300";
    ExpectGeneralBytes(o);
    o.expiry_range = "30-60";
    ExpectGeneralBytes(o);
  }
}

}  // namespace
}  // namespace dfbench::loadgen
