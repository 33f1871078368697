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

}  // namespace
}  // namespace dfbench::results
