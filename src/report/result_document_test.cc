#include "report/result_document.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/files.h"
#include "support/test_data.h"

namespace dfbench::report {
namespace {

using nlohmann::json;

std::filesystem::path Fixture(const std::string& name) {
  return testing::FixturePath("results/" + name);
}

std::filesystem::path TempFile(const std::string& name, const std::string& content) {
  auto path = std::filesystem::path(::testing::TempDir()) / ("result_document_" + name);
  std::ofstream(path) << content;
  return path;
}

TEST(DetectShape, FollowsTheScenarioTagThenTheTopLevelKeys) {
  EXPECT_EQ(*DetectShape(json::parse(R"({"engines": []})")), Shape::kRun);
  EXPECT_EQ(*DetectShape(json::parse(R"({"cases": []})")), Shape::kReplication);
  EXPECT_EQ(*DetectShape(json::parse(R"({"commands": []})")), Shape::kCommands);
  EXPECT_EQ(*DetectShape(json::parse(R"({"scenario": "replication"})")), Shape::kReplication);
  EXPECT_EQ(*DetectShape(json::parse(R"({"scenario": "commands"})")), Shape::kCommands);
  // A memory file has top-level engines too: its tag tells it from a run.
  EXPECT_EQ(*DetectShape(json::parse(R"({"scenario": "memory", "engines": []})")), Shape::kMemory);
  // The tag decides when several keys are present.
  EXPECT_EQ(*DetectShape(json::parse(R"({"scenario": "commands", "commands": [], "engines": []})")),
            Shape::kCommands);

  auto bad = DetectShape(json::parse(R"({"engines": [], "cases": []})"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(bad.error().message.find("ambiguous"), std::string::npos);
  bad = DetectShape(json::parse(R"({"run_id": "x"})"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "not a dfbench result file (no engines, commands or cases)");
  bad = DetectShape(json::parse("[1, 2]"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, core::ErrorKind::kUsage);
}

TEST(LoadResultDocument, ReadsTheReferenceExamples) {
  auto run = LoadResultDocument(Fixture("reference_run.json"));
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->shape, Shape::kRun);
  ASSERT_EQ(run->run.engines.size(), 1u);
  EXPECT_EQ(run->run.engines[0].throughput.median, 2646502);

  auto commands = LoadResultDocument(Fixture("reference_commands.json"));
  ASSERT_TRUE(commands) << commands.error().message;
  EXPECT_EQ(commands->shape, Shape::kCommands);
  EXPECT_EQ(commands->commands.run_id, "20260706-120000");
  EXPECT_EQ(commands->commands.trials, 3);
  EXPECT_EQ(commands->commands.memtier["key_maximum"], 100000000);
  ASSERT_EQ(commands->commands.commands.size(), 1u);
  const CommandEntry& set = commands->commands.commands[0];
  EXPECT_EQ(set.Name(), "SET");
  EXPECT_EQ(set.template_text, "SET __key__ __data__");
  ASSERT_EQ(set.engines.size(), 1u);
  EXPECT_EQ(set.engines[0].engine, "dragonfly");
  EXPECT_EQ(set.engines[0].p99.max, 7.3);

  auto rep = LoadResultDocument(Fixture("reference_replication.json"));
  ASSERT_TRUE(rep) << rep.error().message;
  EXPECT_EQ(rep->shape, Shape::kReplication);
  ASSERT_EQ(rep->replication.cases.size(), 1u);
  EXPECT_EQ(rep->replication.cases[0].series.size(), 2u);
  EXPECT_EQ(rep->source, Fixture("reference_replication.json").string());
}

// A server count that could not be read is null in the file; compare and report read it as
// unknown, as they read a trial that ended early: failed, its reason kept.
TEST(LoadResultDocument, NullServerCountsAndEarlyEndsRead) {
  auto text = core::ReadFile(Fixture("reference_run.json"));
  ASSERT_TRUE(text) << text.error().message;
  json j = json::parse(*text);
  j["engines"][0]["server_ops"] = nullptr;
  j["engines"][0]["trials"][0]["server_ops"] = nullptr;
  j["engines"][0]["trials"][0]["ended_early"] = "the server stopped answering at 1.48 s of 4.00 s";
  j["engines"][0]["trials"][0]["failed"] =
      "the measured window ended early: the server stopped answering at 1.48 s of 4.00 s";
  auto run = LoadResultDocument(TempFile("null_server_ops.json", j.dump()));
  ASSERT_TRUE(run) << run.error().message;
  const results::EngineResult& e = run->run.engines[0];
  EXPECT_FALSE(e.server_ops.has_value());
  EXPECT_FALSE(e.trials[0].server_ops.has_value());
  EXPECT_EQ(e.trials[0].ended_early, "the server stopped answering at 1.48 s of 4.00 s");
  EXPECT_FALSE(e.trials[0].failed.empty());
}

TEST(LoadResultDocument, EveryFailureIsAnInputError) {
  auto missing = LoadResultDocument("/nonexistent/results.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(missing.error().message, "/nonexistent/results.json: no such file");

  auto text = *core::ReadFile(Fixture("reference_run.json"));
  auto truncated = LoadResultDocument(TempFile("truncated.json", text.substr(0, text.size() / 2)));
  ASSERT_FALSE(truncated);
  EXPECT_EQ(truncated.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(truncated.error().message.find("malformed JSON"), std::string::npos)
      << truncated.error().message;

  auto empty = LoadResultDocument(TempFile("empty.json", ""));
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("empty file"), std::string::npos);

  auto wrong = LoadResultDocument(
      TempFile("wrong.json", R"({"scenario": "commands", "commands": [{"command": "SET",
                        "engines": [{"engine": "redis", "throughput": 5}]}]})"));
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(wrong.error().message.find("commands[0].engines[0].throughput: expected an object"),
            std::string::npos)
      << wrong.error().message;

  auto wrong_case = LoadResultDocument(
      TempFile("wrong_case.json", R"({"cases": [{"series": [{"rps": "fast"}]}]})"));
  ASSERT_FALSE(wrong_case);
  EXPECT_NE(wrong_case.error().message.find("cases[0].series[0].rps: expected a number"),
            std::string::npos)
      << wrong_case.error().message;
}

TEST(LoadResultDocument, ADirectoryMeansItsResultsJson) {
  auto dir = std::filesystem::path(::testing::TempDir()) / "result_document_dir";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(Fixture("reference_run.json"), dir / "results.json",
                             std::filesystem::copy_options::overwrite_existing);
  auto doc = LoadResultDocument(dir);
  ASSERT_TRUE(doc) << doc.error().message;
  EXPECT_EQ(doc->shape, Shape::kRun);
  EXPECT_EQ(doc->source, (dir / "results.json").string());
}

}  // namespace
}  // namespace dfbench::report
