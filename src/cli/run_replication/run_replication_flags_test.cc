#include "cli/run_replication/run_replication_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"
#include "core/files.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::cli {
namespace {

const BenchLine<RunReplicationFlags, &AddRunReplicationFlags, &ToRunReplicationOptions>
    kRunReplication("run-replication");

std::vector<std::string> CaseNames(const scenarios::ReplicationOptions& o) {
  std::vector<std::string> names;
  for (const auto& c : o.cases) names.push_back(c.name);
  return names;
}

TEST(RunReplicationFlags, DefaultsAreTheReferences) {
  const auto o = kRunReplication.OptionsOf({});
  ASSERT_EQ(o.engines.size(), 1U);
  EXPECT_EQ(o.engines[0]->name, "dragonfly");
  ASSERT_EQ(o.cases.size(), 5U);
  EXPECT_EQ(o.cases[0].qps_per_connection, 100000);
  EXPECT_EQ(o.cases[4].qps_per_connection, 0);  // maxload
  using R = scenarios::ReplicationOptions;
  ExpectSameFields(o, R{}, &R::test_time, &R::preload_keys, &R::preload_time, &R::value_size,
                   &R::ratio, &R::dfly_ref, &R::max_error_pct);
  EXPECT_EQ(o.load_generator, core::LoadGenerator::kBuiltin);
  EXPECT_TRUE(o.master_flags.empty());
  EXPECT_TRUE(o.output_dir.empty());
}

TEST(RunReplicationFlags, CasesTakeSuffixesAndAnEmptyListIsTheDefault) {
  const auto o = kRunReplication.OptionsOf({"--cases", "qps=50k,maxload"});
  ASSERT_EQ(o.cases.size(), 2U);
  EXPECT_EQ(o.cases[0].qps_per_connection, 50000);
  EXPECT_EQ(o.cases[1].qps_per_connection, 0);
  EXPECT_EQ(CaseNames(kRunReplication.OptionsOf({"--cases", ""})),
            CaseNames(kRunReplication.OptionsOf({})));
}

TEST(RunReplicationFlags, ABadCaseIsNamedWithCases) {
  ExpectUsageErrorStartingWith("--cases \"fast\"", [] {
    return kRunReplication.OptionsOf({"--cases", "qps=10,fast"});
  });
  // A rate outside the table's range is refused while parsing.
  const std::string parse = kRunReplication.ParseErrorOf({"--cases", "qps=0"});
  EXPECT_NE(parse.find("--cases \"qps=0\": use qps=N, N from 1 to"), std::string::npos) << parse;
}

TEST(RunReplicationFlags, PreloadKeysTakeUnderscoresAndSuffixes) {
  EXPECT_EQ(kRunReplication.OptionsOf({"--preload-keys", "2_000_000"}).preload_keys, 2000000U);
  EXPECT_EQ(kRunReplication.OptionsOf({"--preload-keys", "500k"}).preload_keys, 500000U);
  const std::string zero = kRunReplication.ParseErrorOf({"--preload-keys", "0"});
  EXPECT_NE(zero.find("--preload-keys \"0\""), std::string::npos) << zero;
}

TEST(RunReplicationFlags, PreloadTimeIsWholeSeconds) {
  EXPECT_EQ(kRunReplication.OptionsOf({"--preload-time", "2m"}).preload_time,
            std::chrono::seconds(120));
  ExpectUsageError("--preload-time: \"1500ms\" is not a whole number of seconds", [] {
    return kRunReplication.OptionsOf({"--preload-time", "1500ms"});
  });
}

TEST(RunReplicationFlags, EachFlagLandsInItsOption) {
  const auto o = kRunReplication.OptionsOf({"--engines",
                                            "redis,valkey",
                                            "--test-time",
                                            "5",
                                            "--value-size",
                                            "64",
                                            "--ratio",
                                            "1:3",
                                            "--master-flags",
                                            "--proactor_threads 2  --maxmemory 1G",
                                            "--replica-flags",
                                            "--x 1",
                                            "--dfly-ref",
                                            "v1.30.0",
                                            "--load-generator",
                                            "dfly_bench",
                                            "--dfly-bench-binary",
                                            "/opt/dfly_bench",
                                            "--max-error-pct",
                                            "3"});
  ASSERT_EQ(o.engines.size(), 2U);
  EXPECT_EQ(o.engines[1]->name, "valkey");
  EXPECT_EQ(o.test_time, std::chrono::seconds(5));
  EXPECT_EQ(o.value_size, 64);
  EXPECT_EQ(o.ratio.ToString(), "1:3");
  EXPECT_EQ(o.master_flags,
            (std::vector<std::string>{"--proactor_threads", "2", "--maxmemory", "1G"}));
  EXPECT_EQ(o.replica_flags, (std::vector<std::string>{"--x", "1"}));
  EXPECT_EQ(o.dfly_ref, "v1.30.0");
  EXPECT_EQ(o.load_generator, core::LoadGenerator::kDflyBench);
  EXPECT_EQ(o.dfly_bench_binary, "/opt/dfly_bench");
  EXPECT_EQ(o.max_error_pct, 3);
}

TEST(RunReplicationFlags, RatioAndOutputDirAreCheckedBeforeAnythingStarts) {
  ExpectUsageErrorNaming("one", [] { return kRunReplication.OptionsOf({"--ratio", "one"}); });
  testing::ScopedTempDir dir("replication-flags");
  const std::string output_dir = (dir.path() / "out").string();
  EXPECT_EQ(kRunReplication.OptionsOf({"--output-dir", output_dir}).output_dir, output_dir);
  const std::string file = (dir.path() / "file").string();
  ASSERT_TRUE(core::WriteFileAtomic(file, "x"));
  ExpectUsageErrorNaming(file, [&] { return kRunReplication.OptionsOf({"--output-dir", file}); });
}

}  // namespace
}  // namespace dfbench::cli
