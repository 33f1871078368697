// WAIT requests in the SET/GET mix (--wait-ratio, --num-slaves, --wait-timeout): where memtier
// puts them among the SETs and GETs, what each asks for, and their bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "loadgen/workload.h"

namespace dfbench::loadgen {
namespace {

Config WaitConfigOf(uint32_t sets, uint32_t waits) {
  Config c;
  c.load.ratio = {.set = 1, .get = 10};
  c.wait = {.sets = sets,
            .waits = waits,
            .replicas_min = 1,
            .replicas_max = 3,
            .timeout_min_ms = 10,
            .timeout_max_ms = 20};
  return c;
}

// The first `n` requests' types, one letter each: S, G or W.
std::string Kinds(const Config& c, int n) {
  const auto w = BuildWorkload(c);
  EXPECT_TRUE(w);
  ClientWorkload client(c, *w, 0, 0);
  std::string kinds;
  for (int i = 0; i < n; ++i) kinds += w->slots[client.Draw().slot].type[0];
  return kinds;
}

// memtier's interleaving (client.cpp, create_request): a WAIT first, then one whenever SETs /
// WAITs, in whole numbers, exceeds SETS / WAITS, checked before every request. With 1:1, a WAIT
// right after every second SET; 30 requests of 1:10 are memtier's 3 SETs, 25 GETs and 2 WAITs.
TEST(WorkloadWaits, InterleavedAsMemtierDoes) {
  const std::string g10(10, 'G');
  EXPECT_EQ(Kinds(WaitConfigOf(1, 1), 30), "WS" + g10 + "SW" + g10 + "S" + std::string(5, 'G'));
  // 1:2 is 0 in whole numbers: a WAIT whenever any SET was sent since.
  EXPECT_EQ(Kinds(WaitConfigOf(1, 2), 26), "WSW" + g10 + "SW" + g10 + "S");
  // SETS:0 sends none, and the mix has no Waits section.
  EXPECT_EQ(Kinds(WaitConfigOf(1, 0), 12), "S" + g10 + "S");
  EXPECT_EQ(BuildWorkload(WaitConfigOf(1, 0))->slots.size(), 2u);
}

// numreplicas is uniform in --num-slaves, the timeout normal in --wait-timeout; both are drawn
// from the client's seed, so a run repeats them.
TEST(WorkloadWaits, ReplicasAndTimeoutDrawnFromTheirRanges) {
  const Config c = WaitConfigOf(0, 1);  // 0:1 is a WAIT every other request
  const auto w = BuildWorkload(c);
  ASSERT_TRUE(w);
  ClientWorkload client(c, *w, 0, 0);
  std::vector<uint64_t> replicas;
  std::vector<uint32_t> timeouts;
  for (int i = 0; i < 2000 && replicas.size() < 8; ++i) {
    const Request r = client.Draw();
    if (w->slots[r.slot].kind != Slot::Kind::kWait) continue;
    replicas.push_back(r.key_index);
    timeouts.push_back(r.data_size);
  }
  EXPECT_EQ(replicas, (std::vector<uint64_t>{3, 1, 1, 1, 2, 3, 1, 2}));
  EXPECT_EQ(timeouts, (std::vector<uint32_t>{13, 16, 15, 13, 18, 13, 11, 19}));

  ClientWorkload again(c, *w, 0, 0);
  int seen_min = 0;
  int seen_max = 0;
  for (int i = 0; i < 20000; ++i) {
    const Request r = again.Draw();
    if (w->slots[r.slot].kind != Slot::Kind::kWait) continue;
    ASSERT_GE(r.key_index, 1u);
    ASSERT_LE(r.key_index, 3u);
    ASSERT_GE(r.data_size, 10u);
    ASSERT_LE(r.data_size, 20u);
    seen_min += r.data_size == 10;
    seen_max += r.data_size == 20;
  }
  EXPECT_GT(seen_min + seen_max, 0);  // the ends are reached, rarely
}

// One value for each: memtier's gaussian_distribution_range returns it as it is.
TEST(WorkloadWaits, FixedRangesAreSentAsTheyAre) {
  Config c = WaitConfigOf(1, 1);
  c.wait.replicas_min = c.wait.replicas_max = 2;
  c.wait.timeout_min_ms = c.wait.timeout_max_ms = 0;
  const auto w = BuildWorkload(c);
  ASSERT_TRUE(w);
  ClientWorkload client(c, *w, 0, 0);
  protocol::RequestBuffer out;
  EXPECT_EQ(client.Next(&out), 2u);
  EXPECT_EQ(std::string_view(out.data(), out.size()), "*3\r\n$4\r\nWAIT\r\n$1\r\n2\r\n$1\r\n0\r\n");
  EXPECT_EQ(w->slots[2].section, "Waits");
  EXPECT_EQ(w->slots[2].type, "WAIT");
}

}  // namespace
}  // namespace dfbench::loadgen
