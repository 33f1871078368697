#include "results/engine_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "results/memory_schema.h"
#include "results/replication_schema.h"
#include "results/schema.h"
#include "results/sweep_schema.h"

namespace dfbench::results {
namespace {

const EngineRecord kRecord{.engine = "redis",
                           .version = "Redis server v=7.0.15",
                           .origin = "release",
                           .sha256 = "ab12",
                           .tuning = {{"io_threads", 4}},
                           .error = "before trial 2: connection refused"};

// The record's keys as `Row`'s field list writes them, and the record its reader takes back.
template <class Row>
void ExpectRecordRoundTrips(const char* kind, bool writes_tuning) {
  Row row;
  static_cast<EngineRecord&>(row) = kRecord;
  const nlohmann::json j = ToJson(row);
  for (const char* key : {"engine", "version", "origin", "sha256", "error"}) {
    EXPECT_TRUE(j.contains(key)) << kind << " has no " << key << ": " << j.dump();
  }
  EXPECT_EQ(j.contains("tuning"), writes_tuning) << kind;
  Row back;
  std::string error;
  ASSERT_TRUE(FromJson(j, &back, &error)) << kind << ": " << error;
  const EngineRecord& got = back;
  EXPECT_EQ(got.engine, kRecord.engine) << kind;
  EXPECT_EQ(got.version, kRecord.version) << kind;
  EXPECT_EQ(got.origin, kRecord.origin) << kind;
  EXPECT_EQ(got.sha256, kRecord.sha256) << kind;
  EXPECT_EQ(got.error, kRecord.error) << kind;
  if (writes_tuning) {
    EXPECT_EQ(got.tuning, kRecord.tuning) << kind;
  }
}

// One record, the same keys in every kind of row (a replication case records its master's
// flags instead of a tuning).
TEST(EngineRecord, EveryKindOfRowWritesAndReadsIt) {
  ExpectRecordRoundTrips<EngineResult>("run", true);
  ExpectRecordRoundTrips<SweepEngine>("sweep", true);
  ExpectRecordRoundTrips<MemoryEngineResult>("memory", true);
  ExpectRecordRoundTrips<ReplicationCase>("replication", false);
}

// A table names a cluster by its shards, Dragonfly's emulated cluster as such, and one
// process by the engine alone.
TEST(EngineRecord, LabelNamesTheTopologyItsTuningRecords) {
  EngineRecord r{.engine = "redis", .tuning = {{"shards", 3}, {"shard_ports", {1, 2, 3}}}};
  EXPECT_EQ(r.Topology(), "3 shards");
  EXPECT_EQ(r.Label(), "redis (3 shards)");
  r.tuning["shards"] = 1;
  EXPECT_EQ(r.Label(), "redis (1 shard)");
  r = {.engine = "dragonfly", .tuning = {{"cluster_mode", "emulated"}, {"num_shards", 2}}};
  EXPECT_EQ(r.Label(), "dragonfly (emulated cluster)");
  r = {.engine = "valkey", .tuning = {{"io_threads", 4}}};
  EXPECT_EQ(r.Label(), "valkey");
  r = {.engine = "memcached"};  // no tuning at all (a reference file's row)
  EXPECT_EQ(r.Label(), "memcached");
}

// A client profile is written with every value it ran with and read back; a row without one
// writes no key, so files of runs with the same load for every engine stay as they were.
TEST(EngineRecord, ClientProfileIsWrittenOnlyWhenGiven) {
  EngineResult row;
  row.engine = "redis";
  EXPECT_FALSE(ToJson(row).contains("client_profile"));
  row.client_profile = core::ClientProfile{.threads = 24, .clients = 1, .pipeline = 30};
  const nlohmann::json j = ToJson(row);
  EXPECT_EQ(j.at("client_profile"),
            (nlohmann::json{{"threads", 24}, {"clients", 1}, {"pipeline", 30}}));
  EngineResult back;
  std::string error;
  ASSERT_TRUE(FromJson(j, &back, &error)) << error;
  EXPECT_EQ(back.client_profile, row.client_profile);
}

}  // namespace
}  // namespace dfbench::results
