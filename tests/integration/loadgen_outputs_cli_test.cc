// loadgen's outputs as memtier_benchmark 2.3.0 writes them, through the binary against a real
// redis-server: -o, the table's rows, stderr's lines, --show-config, -v and -D.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/files.h"
#include "core/subprocess.h"
#include "loadgen_run.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"
#include "support/test_server.h"

namespace dfbench {
namespace {

using testing::ReadJson;
using testing::RunLoadgen;
using testing::ScopedTempDir;
using testing::TestServer;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The table's row of `type`, split into its columns ("Gets", "123.00", "---", ...).
std::vector<std::string> Row(const std::string& table, const std::string& type) {
  std::istringstream lines(table);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(type + " ", 0) != 0) continue;
    std::istringstream words(line);
    std::vector<std::string> row;
    for (std::string w; words >> w;) row.push_back(w);
    return row;
  }
  return {};
}

size_t Rows(const std::string& table, const std::string& type) {
  size_t n = 0;
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) n += line.rfind(type + " ", 0) == 0;
  return n;
}

// -o: the report goes to the file and nothing to stdout; stderr says where, announces the run,
// and writes the progress line ending in "\r", then the run's closing blank lines.
TEST(LoadgenOutputs, OutFileTakesTheReportAndStderrHasMemtiersLines) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-out");
  const auto report = dir / "report.txt";
  auto out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "1", "-c", "2", "-n", "100",
                         "-o", report.string()});
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_TRUE(out.out.empty()) << out.out;
  const auto text = core::ReadFile(report);
  ASSERT_TRUE(text);
  EXPECT_EQ(text->rfind("1         Threads\n", 0), 0u) << *text;
  EXPECT_TRUE(Has(*text, "\n\nALL STATS\n")) << *text;
  EXPECT_EQ(Row(*text, "Totals").size(), 9u) << *text;
  const std::string head = "Writing results to " + report.string() +
                           "...\n[RUN #1] Preparing benchmark client...\n[RUN #1] Launching "
                           "threads now...\n[RUN #1 100%,   0 secs]  0 threads  2 conns:";
  EXPECT_EQ(out.err.rfind(head, 0), 0u) << out.err;
  EXPECT_TRUE(out.err.ends_with(" msec latency\r\n\n")) << out.err;

  out = RunLoadgen(
      {"-p", std::to_string(server->port()), "-t", "1", "-c", "1", "-n", "10", "-o", "-"});
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_TRUE(Has(out.out, "ALL STATS")) << out.out;
  EXPECT_EQ(out.err.rfind("Writing results to stdout\n", 0), 0u) << out.err;

  out = RunLoadgen({"-p", std::to_string(server->port()), "-n", "10", "-o",
                    (dir / "no-such-dir" / "r.txt").string()});
  EXPECT_NE(out.status.code, 0);
}

// A SET/GET run's rows: GETs of keys never written are all misses, SETs show no hits column,
// and memtier's idle Waits row is there.
TEST(LoadgenOutputs, SetGetTableHasHitsMissesAndWaits) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  auto out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "1", "-c", "2", "-n", "50",
                         "--ratio", "0:1", "--progress", "never"});
  ASSERT_EQ(out.status.code, 0) << out.err;
  const auto header = Row(out.out, "Type");
  ASSERT_GE(header.size(), 4u) << out.out;
  EXPECT_EQ(header[2], "Hits/sec");
  EXPECT_EQ(header[3], "Misses/sec");
  const auto gets = Row(out.out, "Gets");
  ASSERT_EQ(gets.size(), 9u) << out.out;
  EXPECT_EQ(gets[2], "0.00");
  EXPECT_EQ(gets[3], gets[1]);  // every GET a miss
  const auto sets = Row(out.out, "Sets");
  ASSERT_EQ(sets.size(), 9u) << out.out;
  EXPECT_EQ(sets[2], "---");
  EXPECT_EQ(Row(out.out, "Waits"), (std::vector<std::string>{"Waits", "0.00", "---", "---", "---",
                                                             "---", "---", "---", "---"}));
}

// Two --commands of one name are one row by default (memtier's --command-stats-breakdown
// command), two with "line"; a --command mix has no hits columns.
TEST(LoadgenOutputs, CommandStatsBreakdownGroupsByName) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-rows");
  const auto json_path = dir / "r.json";
  const std::vector<std::string> mix = {"-p",         std::to_string(server->port()),
                                        "-t",         "1",
                                        "-c",         "1",
                                        "-n",         "30",
                                        "--command",  "LPUSH __key__ __data__",
                                        "--command",  "LPUSH biglist __data__",
                                        "--command",  "LLEN __key__",
                                        "--progress", "never"};
  auto args = mix;
  args.insert(args.end(), {"--json-out-file", json_path.string()});
  auto out = RunLoadgen(args);
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(Rows(out.out, "Lpushs"), 1u) << out.out;
  EXPECT_EQ(Rows(out.out, "Llens"), 1u) << out.out;
  EXPECT_FALSE(Has(out.out, "Hits/sec")) << out.out;
  const auto j = ReadJson(json_path);
  EXPECT_EQ(j["ALL STATS"]["Lpushs"]["Count"], 20);
  EXPECT_EQ(j["ALL STATS"]["Llens"]["Count"], 10);

  args = mix;
  args.insert(args.end(), {"--command-stats-breakdown", "line"});
  out = RunLoadgen(args);
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(Rows(out.out, "Lpushs"), 2u) << out.out;

  args = mix;
  args.insert(args.end(), {"--command-stats-breakdown", "word"});
  out = RunLoadgen(args);
  EXPECT_EQ(out.status.code, 2);
  EXPECT_EQ(out.err, "dfbench: invalid --command-stats-breakdown 'word' (use command or line)\n");
}

// memtier counts an error reply as an operation (its Ops/sec is not 0.00) and as an error;
// --error-replies apart counts it only as an error.
TEST(LoadgenOutputs, ErrorRepliesAreOpsAsMemtierCountsThem) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-errors");
  const auto json_path = dir / "r.json";
  const std::vector<std::string> run = {"-p",
                                        std::to_string(server->port()),
                                        "-t",
                                        "1",
                                        "-c",
                                        "1",
                                        "-n",
                                        "20",
                                        "--command",
                                        "NOSUCHCMD __key__",
                                        "--progress",
                                        "never",
                                        "--json-out-file",
                                        json_path.string()};
  auto out = RunLoadgen(run);
  ASSERT_EQ(out.status.code, 0) << out.err;
  const auto row = Row(out.out, "Nosuchcmds");
  ASSERT_GE(row.size(), 2u) << out.out;
  EXPECT_NE(row[1], "0.00") << out.out;
  auto j = ReadJson(json_path);
  EXPECT_EQ(j["ALL STATS"]["Nosuchcmds"]["Count"], 20);
  EXPECT_EQ(j["dfbench"]["section_errors"]["Nosuchcmds"], 20);

  auto apart = run;
  apart.insert(apart.end(), {"--error-replies", "apart"});
  out = RunLoadgen(apart);
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(Row(out.out, "Nosuchcmds").at(1), "0.00") << out.out;
  j = ReadJson(json_path);
  EXPECT_EQ(j["ALL STATS"]["Nosuchcmds"]["Count"], 0);
  EXPECT_EQ(j["dfbench"]["section_errors"]["Nosuchcmds"], 20);
}

// --show-config: memtier's field names in its order on stdout, between rules on stderr; the
// password never shown.
TEST(LoadgenOutputs, ShowConfigListsMemtiersFields) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  ASSERT_TRUE(server->Client().Command({"CONFIG", "SET", "requirepass", "sekret"}));
  auto out = RunLoadgen({"-p", std::to_string(server->port()), "-a", "sekret", "-t", "1", "-c", "1",
                         "-n", "10", "--show-config", "--progress", "never"});
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(out.out.rfind("server = 127.0.0.1\nport = " + std::to_string(server->port()) + "\n", 0),
            0u)
      << out.out;
  size_t at = 0;
  for (const char* field :
       {"\nunix socket = (null)\n", "\nprotocol = redis\n", "\ntls = no\n", "\nout_file = (null)\n",
        "\nrequests = 10\n", "\nclients = 1\n", "\nthreads = 1\n", "\nratio = 1:10\n",
        "\nkey_pattern = R:R\n", "\nreconnect_interval = 0\n", "\nconnection_timeout = 10\n",
        "\nauthenticate = (set)\n", "\nselect-db = 0\n", "\njson-out-file = (null)\n"}) {
    const size_t found = out.out.find(field, at);
    ASSERT_NE(found, std::string::npos) << field << " after " << at << ":\n" << out.out;
    at = found;
  }
  EXPECT_FALSE(Has(out.out, "sekret"));
  EXPECT_EQ(out.err,
            "============== Configuration values: ==============\n"
            "===================================================\n");
}

TEST(LoadgenOutputs, VersionIsMemtiersShapeAndSaysWhatItIs) {
  for (const char* flag : {"-v", "--version"}) {
    auto out = RunLoadgen({flag});
    EXPECT_EQ(out.status.code, 0) << out.err;
    EXPECT_EQ(out.out.rfind("dfbench-loadgen v=", 0), 0u) << out.out;
    const std::string first = out.out.substr(0, out.out.find('\n'));
    EXPECT_TRUE(Has(first, " sha=") && Has(first, " bits=")) << first;
    EXPECT_TRUE(Has(out.out, "\ndfbench's load generator (dfbench loadgen)")) << out.out;
  }
}

// -D: each connection's connect and setup commands (names, never the password), and the error
// replies, on stderr.
TEST(LoadgenOutputs, DebugShowsConnectionsSetupAndErrors) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  ASSERT_TRUE(server->Client().Command({"CONFIG", "SET", "requirepass", "sekret"}));
  const std::string where = "127.0.0.1:" + std::to_string(server->port());
  auto out = RunLoadgen({"-p", std::to_string(server->port()), "-a", "sekret", "--select-db", "2",
                         "-t", "1", "-c", "2", "-n", "5", "--command", "NOSUCHCMD __key__", "-D",
                         "--progress", "never"});
  ASSERT_EQ(out.status.code, 0) << out.err;
  for (const std::string& line :
       {"[loadgen thread 0] connection 1: connecting to " + where + " (node 0)\n",
        std::string("[loadgen thread 0] connection 0: connected\n"),
        std::string("[loadgen thread 0] connection 0: sending AUTH command.\n"),
        std::string("[loadgen thread 0] connection 0: sending SELECT command.\n"),
        std::string("[loadgen thread 0] connection 1: setup successful.\n"),
        "[loadgen thread 0] server " + where + " handle error response: -ERR unknown command"}) {
    EXPECT_TRUE(Has(out.err, line)) << line << "\nin:\n" << out.err;
  }
  EXPECT_FALSE(Has(out.err, "sekret")) << out.err;

  out = RunLoadgen({"-p", std::to_string(server->port()), "-a", "sekret", "-t", "1", "-c", "1",
                    "-n", "5", "--progress", "never"});
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_TRUE(out.err.empty()) << out.err;
}

}  // namespace
}  // namespace dfbench
