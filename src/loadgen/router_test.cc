// The router on exact values, no socket: a key's node, and what each redirection means.
#include "loadgen/router.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dfbench::loadgen {
namespace {

using Kind = Router::Step::Kind;

// Slots of the keys below, as CLUSTER KEYSLOT gives them.
constexpr uint16_t kHelloSlot = 866, kBarSlot = 5061, kFooSlot = 12182;

// Three nodes with the slot ranges redis-cli gives them: 0-5460, 5461-10922, 10923-16383.
SlotMap ThreeNodes() {
  SlotMap map;
  map.nodes = {{"10.0.0.1", 7000}, {"10.0.0.2", 7001}, {"10.0.0.3", 7002}};
  for (int slot = 0; slot < kClusterSlots; ++slot) {
    map.owner[static_cast<size_t>(slot)] = slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2;
  }
  return map;
}

uint16_t NodeOf(const Router& router, std::string_view key) {
  return router.NodeOf([key] { return key; });
}

Redirect Moved(uint16_t slot, std::string host, int port) {
  return Redirect{.kind = Redirect::Kind::kMoved, .slot = slot, .node = {std::move(host), port}};
}
Redirect Ask(uint16_t slot, std::string host, int port) {
  return Redirect{.kind = Redirect::Kind::kAsk, .slot = slot, .node = {std::move(host), port}};
}

// Records the nodes it is asked to open, and opens them when `reachable`.
struct Opener {
  bool reachable = true;
  std::vector<std::pair<ClusterNode, uint16_t>> opened;
  Router::OpenNode Fn() {
    return [this](const ClusterNode& node, uint16_t index) {
      opened.emplace_back(node, index);
      return reachable;
    };
  }
};

TEST(Router, SendsEveryKeyToItsSlotsOwner) {
  ASSERT_EQ(HashSlot("hello"), kHelloSlot);
  ASSERT_EQ(HashSlot("bar"), kBarSlot);
  ASSERT_EQ(HashSlot("foo"), kFooSlot);
  const Router router(ThreeNodes());
  EXPECT_EQ(NodeOf(router, "hello"), 0);
  EXPECT_EQ(NodeOf(router, "bar"), 0);
  EXPECT_EQ(NodeOf(router, "foo"), 2);
  EXPECT_EQ(NodeOf(router, "{foo}:42"), 2);  // by its hash tag
}

TEST(Router, WithOneServerSendsEverythingToNodeZeroWithoutAskingTheKey) {
  const Router router;
  EXPECT_EQ(router.NodeOf([]() -> std::string_view {
    ADD_FAILURE() << "the key was drawn";
    return "foo";
  }),
            0);
  EXPECT_FALSE(router.RedirectOf("MOVED 12182 10.0.0.2:7001"));
  EXPECT_FALSE(router.RedirectOf("ASK 12182 10.0.0.2:7001"));
}

TEST(Router, InAClusterReadsRedirectionsOnly) {
  const Router router(ThreeNodes());
  const auto moved = router.RedirectOf("MOVED 12182 10.0.0.2:7001");
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->kind, Redirect::Kind::kMoved);
  EXPECT_EQ(moved->slot, kFooSlot);
  EXPECT_EQ(moved->node, (ClusterNode{"10.0.0.2", 7001}));
  EXPECT_FALSE(router.RedirectOf("ERR unknown command"));
}

TEST(Router, MovedSendsTheRequestAndLaterKeysOfTheSlotToTheNewOwner) {
  Router router(ThreeNodes());
  Opener opener;
  const auto step = router.Follow(Moved(kFooSlot, "10.0.0.2", 7001), 2, 1, opener.Fn());
  EXPECT_EQ(step.kind, Kind::kMoved);
  EXPECT_EQ(step.node, 1);
  EXPECT_EQ(NodeOf(router, "foo"), 1);
  EXPECT_EQ(NodeOf(router, "{foo}:42"), 1);
  EXPECT_EQ(NodeOf(router, "hello"), 0);  // other slots stay where they were
  EXPECT_TRUE(opener.opened.empty());
}

TEST(Router, AskSendsOneRequestWithoutTouchingTheMap) {
  Router router(ThreeNodes());
  Opener opener;
  const auto step = router.Follow(Ask(kFooSlot, "10.0.0.1", 7000), 2, 1, opener.Fn());
  EXPECT_EQ(step.kind, Kind::kAsk);
  EXPECT_EQ(step.node, 0);
  EXPECT_EQ(NodeOf(router, "foo"), 2);
}

TEST(Router, GivesUpPastTheRedirectLimitNamingTheLastNode) {
  Router router(ThreeNodes());
  Opener opener;
  const Redirect to_second = Moved(kFooSlot, "10.0.0.2", 7001);
  EXPECT_EQ(router.Follow(to_second, 2, kMaxRedirects, opener.Fn()).kind, Kind::kMoved);
  const auto step = router.Follow(to_second, 1, kMaxRedirects + 1, opener.Fn());
  EXPECT_EQ(step.kind, Kind::kGiveUp);
  EXPECT_EQ(step.error, "too many redirections (last: 10.0.0.2:7001)");
}

TEST(Router, ANodeFirstNamedByARedirectionGetsTheNextIndex) {
  Router router(ThreeNodes());
  Opener opener;
  const auto step = router.Follow(Moved(kFooSlot, "10.0.0.4", 7003), 2, 1, opener.Fn());
  EXPECT_EQ(step.kind, Kind::kMoved);
  EXPECT_EQ(step.node, 3);
  ASSERT_EQ(opener.opened.size(), 1u);
  EXPECT_EQ(opener.opened[0].first, (ClusterNode{"10.0.0.4", 7003}));
  EXPECT_EQ(opener.opened[0].second, 3);
  EXPECT_EQ(NodeOf(router, "foo"), 3);
  // Known from now on: not opened again.
  EXPECT_EQ(router.Follow(Ask(kBarSlot, "10.0.0.4", 7003), 0, 1, opener.Fn()).node, 3);
  EXPECT_EQ(opener.opened.size(), 1u);
}

TEST(Router, AnUnreachableNodeIsAnErrorAndIsTriedAgainNextTime) {
  Router router(ThreeNodes());
  Opener opener{.reachable = false};
  const Redirect to_new = Moved(kFooSlot, "node.invalid", 7003);
  const auto step = router.Follow(to_new, 2, 1, opener.Fn());
  EXPECT_EQ(step.kind, Kind::kGiveUp);
  EXPECT_EQ(step.error, "unreachable node (node.invalid:7003)");
  EXPECT_EQ(NodeOf(router, "foo"), 2);  // the map stays
  opener.reachable = true;
  EXPECT_EQ(router.Follow(to_new, 2, 1, opener.Fn()).node, 3);
  ASSERT_EQ(opener.opened.size(), 2u);
  EXPECT_EQ(opener.opened[1].second, 3);
}

TEST(Router, AnEmptyHostIsTheRedirectingNodes) {
  Router router(ThreeNodes());
  Opener opener;
  // From 10.0.0.2: ":7001" is 10.0.0.2:7001, node 1 itself; ":7000" there is a new node.
  const auto same = router.Follow(Moved(12, "", 7001), 1, 1, opener.Fn());
  EXPECT_EQ(same.node, 1);
  EXPECT_TRUE(opener.opened.empty());
  const auto other = router.Follow(Moved(12, "", 7000), 1, 1, opener.Fn());
  EXPECT_EQ(other.node, 3);
  ASSERT_EQ(opener.opened.size(), 1u);
  EXPECT_EQ(opener.opened[0].first, (ClusterNode{"10.0.0.2", 7000}));
}

}  // namespace
}  // namespace dfbench::loadgen
