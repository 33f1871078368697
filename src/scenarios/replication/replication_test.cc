#include "scenarios/replication/replication.h"

#include <gtest/gtest.h>

#include <limits>

#include "scenarios/frame/background_load.h"
#include "scenarios/replication/replication_series.h"
#include "scenarios/replication/replication_signals.h"
#include "support/test_data.h"

namespace dfbench::scenarios {
namespace {

TEST(ParseReplicationCases, ReferenceDefaultsAndSuffixes) {
  auto cases = ParseReplicationCases("qps=100000,qps=80k,maxload");
  ASSERT_TRUE(cases) << cases.error().message;
  ASSERT_EQ(cases->size(), 3u);
  EXPECT_EQ((*cases)[0].name, "qps=100000");
  EXPECT_EQ((*cases)[0].TotalRate(), 200000);  // per connection, two connections
  EXPECT_EQ((*cases)[1].name, "qps=80000");
  EXPECT_EQ((*cases)[2].name, "maxload");
  EXPECT_EQ((*cases)[2].TotalRate(), 0);
  for (const char* bad : {"", "qps=", "qps=0", "qps=x", "load", "qps=10,,maxload"}) {
    auto r = ParseReplicationCases(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().kind, core::ErrorKind::kUsage);
  }
}

TEST(FullSyncDone, NeedsLinkUpNoSyncInProgressAndAnOffset) {
  const std::string redis_done =
      "# Replication\r\nrole:slave\r\nmaster_host:127.0.0.1\r\nmaster_link_status:up\r\n"
      "master_sync_in_progress:0\r\nslave_repl_offset:14\r\n";
  EXPECT_TRUE(FullSyncDone(redis_done));
  // Redis while transferring: link down, sync in progress.
  const std::string redis_syncing =
      "role:slave\r\nmaster_link_status:down\r\nmaster_sync_in_progress:1\r\n"
      "slave_repl_offset:1\r\n";
  EXPECT_FALSE(FullSyncDone(redis_syncing));
  EXPECT_EQ(ReadReplicaPhase(redis_syncing), ReplicaPhase::kFullSync);
  // Dragonfly linked and preparing its sync: link up, no sync in progress, no offset yet.
  EXPECT_EQ(ReadReplicaPhase("role:slave\r\nmaster_link_status:up\r\n"
                             "master_sync_in_progress:0\r\n"),
            ReplicaPhase::kConnecting);
  EXPECT_EQ(ReadReplicaPhase("role:master\r\nconnected_slaves:0\r\n"), ReplicaPhase::kNotReplica);
  EXPECT_EQ(ReadReplicaPhase(""), ReplicaPhase::kNoAnswer);
}

std::string InfoFixture(const std::string& name) {
  return testing::FixtureText("info_replication/" + name + ".txt");
}

// Each phase of a real Dragonfly replica's first sync, as it answered INFO replication.
TEST(ReplicaPhase, DragonflysOwnRepliesPhaseByPhase) {
  EXPECT_EQ(ReadReplicaPhase(InfoFixture("dragonfly_replica_connecting")),
            ReplicaPhase::kConnecting);
  EXPECT_EQ(ReadReplicaPhase(InfoFixture("dragonfly_replica_full_sync")), ReplicaPhase::kFullSync);
  EXPECT_EQ(ReadReplicaPhase(InfoFixture("dragonfly_replica_stable_sync")),
            ReplicaPhase::kStableSync);
  EXPECT_TRUE(FullSyncDone(InfoFixture("dragonfly_replica_stable_sync")));
  // Its master gone, the replica keeps its offset but the link is down: not stable any more.
  EXPECT_EQ(ReadReplicaPhase(InfoFixture("dragonfly_replica_master_lost")),
            ReplicaPhase::kConnecting);
  EXPECT_FALSE(FullSyncDone(InfoFixture("dragonfly_replica_master_lost")));
  for (const char* master : {"dragonfly_master_no_replica", "dragonfly_master_full_sync",
                             "dragonfly_master_stable_sync"}) {
    EXPECT_EQ(ReadReplicaPhase(InfoFixture(master)), ReplicaPhase::kNotReplica) << master;
  }
}

TEST(CatchUp, SameKeyCountOnBothAndTheLineWhenItNeverCame) {
  EXPECT_TRUE(CaughtUp({.master = 5000, .replica = 5000}));
  EXPECT_TRUE(CaughtUp({.master = 0, .replica = 0}));
  EXPECT_FALSE(CaughtUp({.master = 5000, .replica = 4990}));
  EXPECT_FALSE(CaughtUp({.master = -1, .replica = -1}));  // neither answered
  EXPECT_EQ(CatchUpExpired({.master = 3205904, .replica = 3205100}, std::chrono::seconds(30)),
            "the replica did not catch up with its master within 30 s of the load's end (waited "
            "for the same DBSIZE on both); the master held 3205904 keys, the replica 3205100");
  EXPECT_EQ(CatchUpExpired({.master = 10, .replica = -1}, std::chrono::seconds(30)),
            "the replica did not catch up with its master within 30 s of the load's end (waited "
            "for the same DBSIZE on both); the master held 10 keys, the replica no answer");
}

TEST(ConnectedReplicas, DragonflyMastersOwnReplies) {
  EXPECT_EQ(ConnectedReplicas(InfoFixture("dragonfly_master_no_replica")), 0);
  EXPECT_EQ(ConnectedReplicas(InfoFixture("dragonfly_master_full_sync")), 1);
  EXPECT_EQ(ConnectedReplicas(InfoFixture("dragonfly_master_stable_sync")), 1);
}

TEST(SummarizeReplicaInfo, TheFieldsThePhaseIsReadFrom) {
  EXPECT_EQ(SummarizeReplicaInfo(InfoFixture("dragonfly_replica_connecting")),
            "role:slave master_link_status:down master_sync_in_progress:0 no slave_repl_offset");
  EXPECT_EQ(SummarizeReplicaInfo(InfoFixture("dragonfly_replica_stable_sync")),
            "role:slave master_link_status:up master_sync_in_progress:0 slave_repl_offset:1");
  EXPECT_EQ(SummarizeReplicaInfo(""), "no answer");
}

TEST(ExpiredSyncWait, TheLinkDeadlineThenTheStableSyncDeadline) {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  const SyncDeadlines d{.linked = seconds(60), .stable = seconds(600)};
  const std::string connecting = InfoFixture("dragonfly_replica_connecting");
  const std::string full_sync = InfoFixture("dragonfly_replica_full_sync");
  // The replica's INFO, whether a poll saw it in full sync, the time waited, and the line the
  // wait fails with ("" while it may go on).
  struct Wait {
    std::string info;
    bool full_sync_seen;
    milliseconds elapsed;
    std::string expired;
  };
  const Wait waits[] = {
      {connecting, false, milliseconds(59'999), ""},
      {connecting, false, seconds(60),
       "the replica did not start its full sync with the master within 60 s (waited for "
       "master_sync_in_progress:1 or stable sync); its INFO replication showed role:slave "
       "master_link_status:down master_sync_in_progress:0 no slave_repl_offset (connecting)"},
      // In full sync, only the whole sync's deadline counts.
      {full_sync, false, seconds(599), ""},
      {full_sync, false, seconds(600),
       "the replica did not reach stable sync within 600 s (waited for master_link_status:up, "
       "master_sync_in_progress:0 and slave_repl_offset); its INFO replication showed "
       "role:slave master_link_status:up master_sync_in_progress:1 no slave_repl_offset (full "
       "sync)"},
      // A sync that began and fell back to connecting is past its link.
      {connecting, true, seconds(61), ""},
      {InfoFixture("dragonfly_replica_stable_sync"), true, seconds(900), ""},
  };
  for (const Wait& w : waits) {
    EXPECT_EQ(ExpiredSyncWait(w.info, w.full_sync_seen, w.elapsed, d), w.expired)
        << w.elapsed.count() << " ms, full sync seen: " << w.full_sync_seen;
  }
  // Past the whole sync's deadline, a sync that fell back has not reached stable sync.
  EXPECT_NE(ExpiredSyncWait(connecting, true, seconds(600), d).find("reach stable sync"),
            std::string::npos);
  // A replica that does not answer says so.
  EXPECT_NE(ExpiredSyncWait("", false, seconds(60), d).find("showed no answer (no answer)"),
            std::string::npos);
}

TEST(ConnectedReplicas, ReadsTheMastersCount) {
  EXPECT_EQ(ConnectedReplicas("role:master\r\nconnected_slaves:1\r\n"), 1);
  EXPECT_EQ(ConnectedReplicas("role:master\r\nconnected_slaves:0\r\n"), 0);
  EXPECT_EQ(ConnectedReplicas(""), std::nullopt);
  EXPECT_EQ(ConnectedReplicas("connected_slaves:x\r\n"), std::nullopt);
}

TEST(SeriesFromReport, OneSamplePerSecondInMicroseconds) {
  const std::string report = R"({"ALL STATS": {"Totals": {"Time-Serie": {
      "0": {"Count": 2000, "p50.00": 0.1, "p99.00": 6.99187},
      "1": {"Count": 0},
      "2": {"Count": 1999, "p99.00": 0.5}}}}})";
  auto series = SeriesFromReport(report);
  ASSERT_TRUE(series) << series.error().message;
  ASSERT_EQ(series->size(), 3u);
  EXPECT_EQ((*series)[0].t_sec, 1);
  EXPECT_EQ((*series)[0].rps, 2000);
  EXPECT_DOUBLE_EQ((*series)[0].p99_us, 6991.87);
  EXPECT_EQ((*series)[1].p99_us, 0);  // a second without replies has no latency
  EXPECT_EQ((*series)[2].t_sec, 3);
  EXPECT_FALSE(SeriesFromReport("{}"));
  EXPECT_FALSE(SeriesFromReport("not json"));
}

std::vector<results::RepSample> Seconds(const std::vector<double>& rps) {
  std::vector<results::RepSample> samples;
  for (size_t i = 0; i < rps.size(); ++i) {
    samples.push_back({.t_sec = static_cast<double>(i + 1), .rps = rps[i], .p99_us = 10 * rps[i]});
  }
  return samples;
}

TEST(SplitAtSync, TheSecondTheSyncEndedInBelongsToTheSyncWindow) {
  // Sync over at 2.4 s: seconds (0,1], (1,2], (2,3] are the window; the sustained load starts
  // with (3,4], renumbered 1.
  const auto split = SplitAtSync(Seconds({100, 110, 150, 900, 910, 920, 930}), 2.4, 3);
  ASSERT_EQ(split.sync_window.size(), 3u);
  EXPECT_EQ(split.sync_window[2], (results::RepSample{.t_sec = 3, .rps = 150, .p99_us = 1500}));
  ASSERT_EQ(split.sustained.size(), 3u);  // cut at the test time: 930 ran past it
  EXPECT_EQ(split.sustained[0], (results::RepSample{.t_sec = 1, .rps = 900, .p99_us = 9000}));
  EXPECT_EQ(split.sustained[2].t_sec, 3);
  EXPECT_EQ(split.sustained[2].rps, 920);
}

TEST(SplitAtSync, AWholeSecondSyncLosesNoSecondAndAStartAfterTheSyncKeepsAll) {
  // Exactly at 2 s: (2,3] began after the sync.
  auto split = SplitAtSync(Seconds({1, 2, 3, 4}), 2.0, 10);
  EXPECT_EQ(split.sync_window.size(), 2u);
  ASSERT_EQ(split.sustained.size(), 2u);
  EXPECT_EQ(split.sustained[0].rps, 3);
  EXPECT_EQ(split.sustained[0].t_sec, 1);
  // Load started once the sync was over (dfly_bench): every second is sustained.
  split = SplitAtSync(Seconds({5, 6, 7}), 0, 60);
  EXPECT_TRUE(split.sync_window.empty());
  EXPECT_EQ(split.sustained, Seconds({5, 6, 7}));
  // A sync that never ended: nothing is sustained, so the case has no median.
  split = SplitAtSync(Seconds({5, 6}), std::numeric_limits<double>::infinity(), 60);
  EXPECT_EQ(split.sync_window.size(), 2u);
  EXPECT_TRUE(split.sustained.empty());
}

TEST(SplitAtSync, TheMedianIsTheSustainedLoadsAlone) {
  // Throughput collapses during the sync; the case's median is that of the seconds after it.
  results::ReplicationCase c;
  const auto split = SplitAtSync(Seconds({50, 60, 40, 70, 2000, 2010, 1990, 2005, 1995}), 3.8, 5);
  c.series = split.sustained;
  c.sync_series = split.sync_window;
  EXPECT_EQ(results::RpsStats(c).median, 2000);
  EXPECT_EQ(results::P99UsStats(c).median, 20000);
  EXPECT_EQ(c.sync_series.size(), 4u);
}

TEST(RenderReplicationTable, TotalsMediansSyncAndHowEachCaseEnded) {
  results::ReplicationRunResults r;
  results::ReplicationCase timed{.run_name = "qps=1000",
                                 .series = {{.t_sec = 1, .rps = 1990, .p99_us = 300},
                                            {.t_sec = 2, .rps = 2000, .p99_us = 500},
                                            {.t_sec = 3, .rps = 2010, .p99_us = 400}},
                                 .sync_duration_ms = 1234,
                                 .termination_reason = results::kTerminationTimeout};
  timed.engine = "redis";
  r.cases.push_back(timed);
  results::ReplicationCase failed{.run_name = "maxload",
                                  .termination_reason = results::kTerminationError};
  failed.engine = "redis";
  failed.error =
      "replica: redis failed to start; last log lines:\n*** FATAL CONFIG FILE ERROR ***\nBad "
      "directive or wrong number of arguments\n";
  r.cases.push_back(failed);
  EXPECT_EQ(RenderReplicationTable(r),
            "ENGINE  CASE      TARGET OPS/S  MEDIAN RPS  MEDIAN P99 µs  SYNC ms  SAMPLES  END\n"
            "redis   qps=1000         2,000       2,000            400    1,234        3  timeout\n"
            "redis   maxload            max           -              -        -        0  error "
            "(replica: redis failed to start; last log lines: … Bad directive or wrong number "
            "of arguments)\n");
}

}  // namespace
}  // namespace dfbench::scenarios
