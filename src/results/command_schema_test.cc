#include "results/command_schema.h"

#include <gtest/gtest.h>

#include "results/test_fixtures.h"

namespace dfbench::results {
namespace {

CommandRunResults SampleCommandRun() {
  CommandRunResults r = testing::CompletedRun<CommandRunResults>("percmd");
  r.tool = "memtier";
  r.trials = 2;
  CommandResult c{.command = "LPOP", .tmpl = "LPOP __key__", .approximate = true};
  c.preload_template = "RPUSH __key__ __data__ __data__";
  c.preload_items = 100;
  c.key_maximum = 1000000;
  c.mutates = true;
  CommandEngineResult e;
  e.result.engine = "dragonfly";
  e.result.version = "dragonfly v1.27.0";
  e.result.approximate = true;
  e.result.trials = {testing::Trial(1, 2646502, 4.6, 7.1, 9.8, 4.72),
                     testing::Trial(2, 2601000, 4.5, 7.0, 9.9, 4.7)};
  e.result.trials[0].ops = 10;
  e.result.trials[0].raw_file = "memtier/dragonfly-LPOP-t1.json";
  e.result.Aggregate();
  e.preloads = {
      {.before = "trial 1", .passes = 10, .ops = 10000000, .keys = 1000000, .duration_sec = 12.5},
      {.before = "trial 2", .passes = 10, .ops = 10000000, .keys = 1000000}};
  e.keyspace = {{.trial = 1, .keys_before = 1000000, .keys_after = 7},
                {.trial = 2, .keys_before = 1000000, .keys_after = 0}};
  c.engines.push_back(e);
  r.commands.push_back(c);
  return r;
}

TEST(CommandSchema, WritesTheReferenceFieldNames) {
  auto j = nlohmann::json::parse(RenderCommandRunJson(SampleCommandRun()));
  EXPECT_EQ(j["scenario"], "commands");
  for (const char* k : {"run_id", "setup_id", "created_at", "completed_at", "status", "region",
                        "server_instance", "client_instance"}) {
    EXPECT_TRUE(j[k].is_string()) << k;
  }
  for (const char* k : {"threads", "clients", "pipeline", "data_size", "key_maximum",
                        "test_time_sec", "warmup_time_sec"}) {
    EXPECT_TRUE(j["memtier"][k].is_number_integer()) << k;
  }
  EXPECT_EQ(j["memtier"]["distinct_client_seed"], true);
  EXPECT_EQ(j["trials"], 2);
  const auto& c = j["commands"][0];
  EXPECT_EQ(c["command"], "LPOP");
  EXPECT_EQ(c["template"], "LPOP __key__");
  EXPECT_EQ(c["approximate"], true);
  const auto& e = c["engines"][0];
  EXPECT_EQ(e["engine"], "dragonfly");
  EXPECT_EQ(e["approximate"], true);
  EXPECT_EQ(e["trials"][0]["throughput"], 2646502);  // whole numbers stay integers
  EXPECT_EQ(e["throughput"]["median"], 2623751);
  for (const char* k : {"p50", "p99", "p999", "avg_latency"}) {
    EXPECT_TRUE(e[k]["median"].is_number()) << k;
  }
  EXPECT_EQ(e["preloads"][0]["passes"], 10);
  EXPECT_EQ(e["keyspace"][1]["keys_before"], 1000000);
  // The reference's order: the scenario tag comes first.
  EXPECT_EQ(RenderCommandRunJson(SampleCommandRun()).find("\"scenario\""), 4u);
}

TEST(CommandSchema, RoundTrips) {
  const CommandRunResults in = SampleCommandRun();
  CommandRunResults out;
  ASSERT_TRUE(testing::RoundTrips(in, RenderCommandRunJson, &out));
  EXPECT_EQ(out.commands[0].engines[0].preloads[0].duration_sec, 12.5);
  EXPECT_EQ(out.commands[0].engines[0].result.trials[0].raw_file, "memtier/dragonfly-LPOP-t1.json");
}

TEST(CommandSchema, ReadsTheReferenceExample) {
  // The README's example, with the "{...}" placeholders as empty objects.
  const char* reference = R"({
    "scenario": "commands", "run_id": "20260706-120000", "setup_id": "percmd",
    "created_at": "...", "completed_at": "...", "status": "completed", "region": "us-east-1",
    "server_instance": "m7g.8xlarge", "client_instance": "c6gn.8xlarge",
    "memtier": {"threads": 32, "clients": 5, "pipeline": 20, "data_size": 256,
                "key_maximum": 100000000, "test_time_sec": 300, "warmup_time_sec": 10,
                "distinct_client_seed": true},
    "trials": 3,
    "commands": [{"command": "SET", "template": "SET __key__ __data__", "engines": [{
      "engine": "dragonfly", "version": "dragonfly v1.27.0",
      "trials": [{"trial": 1, "throughput": 2646502, "p50": 4.6, "p99": 7.1, "p999": 9.8,
                  "avg_latency": 4.72}],
      "throughput": {"median": 2646502, "min": 2601000, "max": 2672000, "stddev": 35400},
      "p50": {}, "p99": {}, "p999": {}, "avg_latency": {}}]}]})";
  CommandRunResults r;
  ASSERT_TRUE(testing::Reads(reference, &r));
  EXPECT_EQ(r.memtier.key_maximum, 100000000u);
  EXPECT_EQ(r.commands[0].tmpl, "SET __key__ __data__");
  EXPECT_EQ(r.commands[0].engines[0].result.throughput.max, 2672000);
}

TEST(CommandSchema, ErrorsNameTheFieldPath) {
  auto j = nlohmann::json::parse(RenderCommandRunJson(SampleCommandRun()));
  j["commands"][0]["engines"][0]["trials"][1]["p99"] = "slow";
  CommandRunResults r;
  std::string error;
  EXPECT_FALSE(FromJson(j, &r, &error));
  EXPECT_EQ(error, "commands[0].engines[0].trials[1].p99: expected a number");
  j = nlohmann::json::parse(RenderCommandRunJson(SampleCommandRun()));
  j["scenario"] = "replication";
  EXPECT_FALSE(FromJson(j, &r, &error));
  EXPECT_NE(error.find("scenario"), std::string::npos);
  EXPECT_FALSE(FromJson(nlohmann::json::array(), &r, &error));
}

TEST(CommandSchema, CsvHasOneRowPerTrialThenMedians) {
  const std::string csv = RenderCommandRunCsv(SampleCommandRun());
  EXPECT_EQ(csv,
            "command,engine,version,trial,throughput,p50,p99,p999,avg_latency,ops,errors,"
            "duration_sec,approximate,failed\n"
            "LPOP,dragonfly,dragonfly v1.27.0,1,2646502,4.6,7.1,9.8,4.72,10,0,0,true,\n"
            "LPOP,dragonfly,dragonfly v1.27.0,2,2601000,4.5,7,9.9,4.7,0,0,0,true,\n"
            "LPOP,dragonfly,dragonfly v1.27.0,median,2623751,4.55,7.05,9.850000000000001,4.71,,,,"
            "true,\n");
  // A failed trial says why in its last column.
  CommandRunResults failed = SampleCommandRun();
  failed.commands[0].engines[0].result.trials[1].failed = "no request answered successfully";
  EXPECT_NE(RenderCommandRunCsv(failed).find(",0,0,0,true,no request answered successfully\n"),
            std::string::npos)
      << RenderCommandRunCsv(failed);
}

TEST(CommandSchema, TableNamesTheCommandAndTheEngines) {
  const std::string table = RenderCommandRunTable(SampleCommandRun());
  EXPECT_EQ(table.rfind("commands 20260408-143217 · LPOP · 2 trials", 0), 0u) << table;
  EXPECT_NE(table.find("dragonfly v1.27.0"), std::string::npos);
  EXPECT_NE(table.find("2,623,751"), std::string::npos) << table;
  EXPECT_NE(table.find("approximate"), std::string::npos) << table;
}

}  // namespace
}  // namespace dfbench::results
