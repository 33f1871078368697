// `dfbench loadgen` beside memtier_benchmark 2.3.0 (the test beds' build), one command line at a
// time against one redis-server: the same JSON key paths (dfbench's own "dfbench" block aside),
// the same text report's headings, columns and row labels, the same stderr lines but for their
// numbers, the same exit code; and our counts are the server's.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/files.h"
#include "core/subprocess.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"

namespace dfbench {
namespace {

using nlohmann::json;

// One command line, given to both; `counted` maps our JSON's sections to the server's commands.
struct SideBySideCase {
  std::string name;
  std::vector<std::string> args;
  std::map<std::string, std::string> counted = {{"Sets", "set"}, {"Gets", "get"}};
  int runs = 1;
  bool to_file = false;  // -o FILE instead of stdout
};

// gtest names a failing case by its name, not its bytes.
void PrintTo(const SideBySideCase& c, std::ostream* os) {
  *os << c.name;
}

std::vector<SideBySideCase> Cases() {
  const std::string cmd = "--command";
  return {
      {"plain_by_requests", {"-n", "50"}},
      {"hide_histogram", {"-n", "20", "--hide-histogram"}},
      {"test_time", {"--test-time", "1", "-c", "1"}},
      {"ratio_sets_only", {"-n", "30", "--ratio", "1:0"}, {{"Sets", "set"}}},
      {"ratio_gets_only", {"-n", "30", "--ratio", "0:1"}, {{"Gets", "get"}}},
      {"pipeline", {"-n", "40", "--pipeline", "8"}},
      {"data_size", {"-n", "20", "-d", "64", "-R"}},
      {"data_size_range", {"-n", "20", "--data-size-range", "16-64", "--data-size-pattern", "S"}},
      {"data_size_list", {"-n", "20", "--data-size-list", "16:1,32:2"}},
      {"data_offset",
       {"-n", "20", "--data-offset", "4"},
       {{"Sets", "setrange"}, {"Gets", "getrange"}}},
      {"key_pattern_sequential", {"-n", "20", "--key-pattern", "S:S", "--key-maximum", "100"}},
      {"key_pattern_gaussian", {"-n", "20", "--key-pattern", "G:G", "--key-maximum", "100"}},
      {"commands_by_line",
       {"-n", "20", cmd, "LPUSH __key__ __data__", "--command-ratio", "2", cmd,
        "LRANGE __key__ 0 10", "--command-stats-breakdown", "line"},
       {{"Lpushs", "lpush"}, {"Lranges", "lrange"}}},
      {"run_count",
       {"-n", "10", "-x", "3", "--print-all-runs"},
       {{"Sets", "set"}, {"Gets", "get"}},
       3},
      {"rate_limiting", {"-n", "10", "--rate-limiting", "100"}},
      {"reconnect_interval", {"-n", "20", "--reconnect-interval", "5"}},
      {"print_percentiles", {"-n", "20", "--print-percentiles", "0,50,100"}},
      {"select_db", {"-n", "20", "--select-db", "3"}},
      {"out_file", {"-n", "20"}, {{"Sets", "set"}, {"Gets", "get"}}, 1, true},
      {"expiry_range",
       {"-n", "20", "--expiry-range", "10-20"},
       {{"Sets", "setex"}, {"Gets", "get"}}},
      {"threads_clients_seeds",
       {"-n", "10", "-t", "2", "-c", "3", "--distinct-client-seed", "--randomize"}},
  };
}

// Every key path of `j`: numeric keys (a Time-Serie's seconds) and array indices folded to "#".
void KeyPaths(const json& j, const std::string& at, std::set<std::string>* out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      const bool number = !key.empty() && std::ranges::all_of(key, ::isdigit);
      const std::string path = at + "/" + (number ? "#" : key);
      out->insert(path);
      KeyPaths(value, path, out);
    }
  } else if (j.is_array()) {
    for (const auto& value : j) KeyPaths(value, at + "/#", out);
  }
}

std::string OnlyIn(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::string out;
  for (const auto& path : a) {
    if (!b.contains(path)) out += "  " + path + "\n";
  }
  return out;
}

// A report's shape: headings with their numbers blanked, the table's column headers, each row's
// label; consecutive equal lines once (the distribution's rows differ by run).
std::string TextSkeleton(const std::string& text) {
  static const std::regex kRow(R"(^(\S+)((\s+(-?[0-9.]+|---))+)\s*$)");
  static const std::regex kDigits("[0-9]+");
  static const std::regex kGap(R"(\s{2,})");
  std::string out, last;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    line = std::regex_replace(line, std::regex(R"(\s+$)"), "");
    if (line.empty()) continue;
    std::smatch m;
    std::string shape;
    if (line.find_first_not_of("=-") == std::string::npos) {
      shape = "rule";
    } else if (line.starts_with("Type")) {
      shape = "columns: " + std::regex_replace(line, kGap, " | ");
    } else if (std::regex_match(line, m, kRow)) {
      shape = "row: " + m[1].str();
    } else {
      shape = "line: " + std::regex_replace(std::regex_replace(line, kDigits, "#"), kGap, " ");
    }
    if (shape != last) out += shape + "\n";
    last = shape;
  }
  return out;
}

// stderr's lines (split at \r too) but the progress updates, numbers blanked.
std::string StderrSkeleton(const std::string& err) {
  std::string flat = err;
  std::ranges::replace(flat, '\r', '\n');
  std::string out;
  std::istringstream lines(flat);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || (line.starts_with("[RUN #") && line.find("%,") != std::string::npos)) {
      continue;
    }
    out += std::regex_replace(line, std::regex("[0-9]+"), "#") + "\n";
  }
  return out;
}

struct Outcome {
  int exit_code = -1;
  std::string text;
  std::string err;
  json report;
};

class MemtierSideBySide : public ::testing::TestWithParam<SideBySideCase> {
 protected:
  static void SetUpTestSuite() {
    if (!testing::MemtierSkipReason().empty()) return;
    auto server = testing::TestServer::StartRedis();
    ASSERT_TRUE(server) << server.error().message;
    server_ = new testing::TestServer(std::move(*server));
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    if (const std::string why = testing::MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
    ASSERT_NE(server_, nullptr);
  }

  // A fresh server: no keys, no command counts.
  static void Reset() {
    auto client = server_->Client();
    ASSERT_TRUE(client.Command({"FLUSHALL"}));
    ASSERT_TRUE(client.Command({"CONFIG", "RESETSTAT"}));
  }

  // `program` (memtier, or dfbench with "loadgen") with the case's command line.
  Outcome Run(std::vector<std::string> argv, const SideBySideCase& c) const {
    Reset();
    argv.insert(argv.end(), {"-s", "127.0.0.1", "-p", std::to_string(server_->port()), "-t", "1",
                             "-c", "2", "--json-out-file", json_.string()});
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    if (c.to_file) argv.insert(argv.end(), {"-o", text_.string()});
    std::filesystem::remove(json_);
    auto r = core::RunCapture(argv, std::chrono::seconds(120));
    EXPECT_TRUE(r) << r.error().message;
    if (!r) return {};
    Outcome o{.exit_code = r->status.code, .text = r->out, .err = r->err};
    if (c.to_file) o.text = core::ReadFile(text_).value_or("");
    if (auto text = core::ReadFile(json_)) o.report = json::parse(*text, nullptr, false);
    return o;
  }

  static testing::TestServer* server_;
  testing::ScopedTempDir dir_{"memtier-side-by-side"};
  std::filesystem::path json_ = dir_.path() / "report.json";
  std::filesystem::path text_ = dir_.path() / "report.txt";
};

testing::TestServer* MemtierSideBySide::server_ = nullptr;

TEST_P(MemtierSideBySide, SameShapesAndExitCodesAndCountsAreTheServers) {
  const SideBySideCase& c = GetParam();
  const Outcome memtier = Run({testing::MemtierBinary().string()}, c);
  const Outcome ours = Run({LOADGEN_BINARY, "loadgen"}, c);
  std::map<std::string, uint64_t> calls;
  for (const auto& [section, command] : c.counted) calls[section] = server_->Calls(command);

  ASSERT_EQ(ours.exit_code, memtier.exit_code) << ours.err;
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  json ours_report = ours.report;
  ASSERT_TRUE(ours_report.is_object()) << ours.err;
  ASSERT_TRUE(memtier.report.is_object()) << memtier.err;
  EXPECT_TRUE(ours_report.contains("dfbench"));
  ours_report.erase("dfbench");
  std::set<std::string> want, got;
  KeyPaths(memtier.report, "", &want);
  KeyPaths(ours_report, "", &got);
  EXPECT_TRUE(want == got) << "only memtier's JSON has:\n"
                           << OnlyIn(want, got) << "only ours has:\n"
                           << OnlyIn(got, want);

  EXPECT_EQ(TextSkeleton(ours.text), TextSkeleton(memtier.text));
  EXPECT_EQ(StderrSkeleton(ours.err), StderrSkeleton(memtier.err));

  const std::string title = c.runs == 1 ? "ALL STATS" : "BEST RUN RESULTS";
  for (const auto& [section, server_calls] : calls) {
    const uint64_t count = ours.report[title][section]["Count"].get<uint64_t>();
    EXPECT_EQ(count * static_cast<uint64_t>(c.runs), server_calls) << section;
  }
}

INSTANTIATE_TEST_SUITE_P(CommandLines, MemtierSideBySide, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

// An option both refuse: the same usage exit code, and neither runs a request.
TEST(MemtierSideBySideRefused, SameExitCode) {
  if (const std::string why = testing::MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
  const int port = testing::FreePort();
  const std::vector<std::vector<std::string>> refused = {{"--ratio", "x"}, {"--no-such-option"}};
  for (const auto& bad : refused) {
    std::vector<std::string> memtier = {testing::MemtierBinary().string(), "-p",
                                        std::to_string(port)};
    std::vector<std::string> ours = {LOADGEN_BINARY, "loadgen", "-p", std::to_string(port)};
    memtier.insert(memtier.end(), bad.begin(), bad.end());
    ours.insert(ours.end(), bad.begin(), bad.end());
    auto m = core::RunCapture(memtier, std::chrono::seconds(30));
    auto d = core::RunCapture(ours, std::chrono::seconds(30));
    ASSERT_TRUE(m && d);
    EXPECT_EQ(d->status.code, m->status.code) << bad.front();
    EXPECT_EQ(d->status.code, 2) << bad.front();
  }
}

}  // namespace
}  // namespace dfbench
