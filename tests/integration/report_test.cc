// `dfbench report` end to end: a report of result files made by running the real quickstart
// (twice) plus replication and per-command fixtures, opened in headless Chromium.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// Runs the quickstart and returns the path of its results.json.
std::string QuickstartResults(const DfbenchRunner& dfb, const std::string& id) {
  auto r = dfb.Run(Concat(
      {"quickstart", "--id", id, "--engines", "redis,memcached", "--output", "json"}, kSmallRun));
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code != 0) return "";
  const json out = json::parse(r.out);
  return (dfb.SetupDir(id) / "benchmarks" / out["run_id"].get<std::string>() / "results.json")
      .string();
}

std::optional<std::string> FindChromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    if (auto path = core::FindOnPath(name)) return path;
  }
  return std::nullopt;
}

// Headless Chromium with a fresh profile and no network side traffic, on a local file.
core::Result<core::CapturedOutput> Chromium(const std::string& binary,
                                            const std::filesystem::path& profile,
                                            const std::vector<std::string>& action,
                                            const std::filesystem::path& page) {
  std::vector<std::string> argv = {binary,
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-quic",
                                   "--no-first-run",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--hide-scrollbars",
                                   "--enable-logging=stderr",
                                   "--v=0",
                                   "--user-data-dir=" + profile.string()};
  argv.insert(argv.end(), action.begin(), action.end());
  argv.push_back("file://" + page.string());
  return core::RunCapture(argv, std::chrono::seconds(120));
}

constexpr const char* kNoChromium =
    "chromium is not installed (apt-get install chromium): the report was written but not "
    "checked in a browser";

// Console messages of the page: script errors, and resources the page's policy blocked.
std::vector<std::string> ConsoleLines(const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos)
      lines.push_back(line);
  }
  return lines;
}

// The page's DOM as headless Chromium renders it, with a clean exit, no console messages and no
// script; "" (with the failure recorded) when Chromium could not render it.
std::string RenderedDom(const std::string& chromium, const std::filesystem::path& profile,
                        const std::filesystem::path& page) {
  auto dom = Chromium(chromium, profile, {"--dump-dom"}, page);
  EXPECT_TRUE(dom) << (dom ? "" : dom.error().message);
  if (!dom) return "";
  EXPECT_EQ(dom->status.code, 0) << dom->err;
  EXPECT_TRUE(ConsoleLines(dom->err).empty()) << "console messages:\n"
                                              << ::testing::PrintToString(ConsoleLines(dom->err));
  EXPECT_FALSE(dom->out.empty());
  EXPECT_EQ(dom->out.find("<script"), std::string::npos);
  return dom->out;
}

TEST(Report, RendersInAHeadlessBrowser) {
  DfbenchRunner dfb("report-" + std::to_string(getpid()));
  const std::string first = QuickstartResults(dfb, "report-a");
  const std::string second = QuickstartResults(dfb, "report-b");
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  const auto page = dfb.home() / "report.html";
  auto r = dfb.Run({"report", first, second, FixturePath("results/replication.json").string(),
                    FixturePath("results/reference_commands.json").string(), "-o", page.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("report: " + page.string()), std::string::npos) << r.err;
  ASSERT_TRUE(std::filesystem::exists(page));

  // Without -o the page is report.html in the current directory.
  const auto cwd = dfb.home() / "cwd";
  std::filesystem::create_directories(cwd);
  auto plain = core::RunCapture({"env", "-C", cwd.string(), "DFBENCH_HOME=" + dfb.home().string(),
                                 DFBENCH_BINARY, "report", first});
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(plain->status.code, 0) << plain->err;
  EXPECT_TRUE(std::filesystem::exists(cwd / "report.html"));
  EXPECT_NE(plain->err.find("report: " + (cwd / "report.html").string()), std::string::npos)
      << plain->err;

  const auto chromium = FindChromium();
  if (!chromium) GTEST_SKIP() << kNoChromium;
  const auto profile = dfb.home() / "chromium-profile";
  const std::string html = RenderedDom(*chromium, profile, page);

  // Two run sections, one replication and one per-command section, one run comparison.
  EXPECT_EQ(CountOccurrences(html, "<section class=\"file\">"), 4u);
  EXPECT_EQ(CountOccurrences(html, "<section class=\"comparison\""), 1u);
  // Per run: throughput and latency charts; per command: the same; the comparison: two.
  EXPECT_EQ(CountOccurrences(html, "<svg class=\"chart bar-chart\""), 2u * 2 + 2 + 2);
  // Per replication case: rps and p99 over time, each with the sync point marked.
  EXPECT_EQ(CountOccurrences(html, "<svg class=\"chart line-chart\""), 4u);
  EXPECT_EQ(CountOccurrences(html, "class=\"marker-line\""), 4u);
  EXPECT_NE(html.find("stable sync after 6.4 s"), std::string::npos);
  // Bars: per run 2 throughput + 6 latency; per command 1 + 3; the comparison 2 × 2 × 2.
  EXPECT_EQ(CountOccurrences(html, "<rect class=\"bar\""), 2u * 8 + 4 + 8);
  EXPECT_GE(CountOccurrences(html, "class=\"whisker\""), 2u * 8);
  for (const char* text :
       {"Throughput per engine", "Latency percentiles", "Throughput, baseline vs candidate",
        "qps=100000 · throughput over time", "maxload · p99 latency over time",
        "SET __key__ __data__", ">redis<", ">memcached<", "ops/s", "load settings (memtier)",
        "c7g.4xlarge", "--replication_stream_compression=zstd", "Verdicts", "badge verdict-"}) {
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }

  const auto shot = dfb.home() / "report.png";
  auto png = Chromium(*chromium, profile,
                      {"--screenshot=" + shot.string(), "--window-size=1280,2000"}, page);
  ASSERT_TRUE(png) << png.error().message;
  EXPECT_EQ(png->status.code, 0) << png->err;
  auto bytes = core::ReadFile(shot);
  ASSERT_TRUE(bytes) << "no screenshot at " << shot;
  EXPECT_EQ(bytes->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(bytes->size(), 20000u);
  std::cerr << "report: " << page.string() << "\nscreenshot: " << shot.string() << "\n";
}

// A sweep file and a copy whose memcached found a lower rate: per engine the latency curve
// against the offered rate on a log axis, with the objectives and the found rate drawn.
TEST(Report, SweepChartsInAHeadlessBrowser) {
  DfbenchRunner dfb("report-sweep-" + std::to_string(getpid()));
  json lower = ReadJson(FixturePath("results/sweep.json"));
  lower["run_id"] = "20261201-110000";
  lower["engines"][1]["found_rate"] = 9000;
  const auto second = dfb.home() / "lower.json";
  std::ofstream(second) << lower.dump(2);
  const auto page = dfb.home() / "sweep.html";
  auto r = dfb.Run(
      {"report", FixturePath("results/sweep.json").string(), second.string(), "-o", page.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto chromium = FindChromium();
  if (!chromium) GTEST_SKIP() << kNoChromium;
  const auto profile = dfb.home() / "chromium-profile";
  const std::string html = RenderedDom(*chromium, profile, page);
  EXPECT_EQ(CountOccurrences(html, "<section class=\"file\">"), 2u);
  EXPECT_EQ(CountOccurrences(html, "<section class=\"comparison\""), 1u);
  // Per file a chart per engine; each with both objectives as levels.
  EXPECT_EQ(CountOccurrences(html, "<svg class=\"chart line-chart\""), 4u);
  EXPECT_EQ(CountOccurrences(html, "class=\"level-line\""), 8u);
  // The capacity of each engine, and memcached's found rate, marked on every chart.
  EXPECT_EQ(CountOccurrences(html, "class=\"marker-line\""), 2u * 3);
  EXPECT_NE(html.find(">max in SLO 10.1k ops/s<"), std::string::npos);
  EXPECT_NE(html.find(">max in SLO 9.00k ops/s<"), std::string::npos);
  // Five percentile curves per chart, a point per distinct rate (memcached ran 8, redis 1).
  EXPECT_EQ(CountOccurrences(html, "class=\"series-line\""), 4u * 5);
  EXPECT_EQ(CountOccurrences(html, "class=\"point\""), 2u * 5 * (8 + 1));
  for (const char* text :
       {"memcached · latency against offered load", "ms (log)", "target ops/s", "p99&lt;=20ms",
        "p99.9&lt;=50ms", "Highest rate within the objectives", "memcached steps",
        "Max rate within the objectives, baseline vs candidate", "max rate in SLO (ops/s)",
        "badge verdict-regression"}) {
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }
  const auto shot = dfb.home() / "sweep.png";
  auto png = Chromium(*chromium, profile,
                      {"--screenshot=" + shot.string(), "--window-size=1280,2400"}, page);
  ASSERT_TRUE(png) << png.error().message;
  auto bytes = core::ReadFile(shot);
  ASSERT_TRUE(bytes) << "no screenshot at " << shot;
  EXPECT_EQ(bytes->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  std::cerr << "report: " << page.string() << "\nscreenshot: " << shot.string() << "\n";
}

// Two memory runs: each draws memory over time with its snapshot window marked; the
// comparison draws idle and peak memory side by side.
TEST(Report, MemoryRunsDrawMemoryOverTime) {
  DfbenchRunner dfb("report-memory-" + std::to_string(getpid()));
  ASSERT_EQ(dfb.Run({"setup", "--id", "rm", "--engines", "redis"}).code, 0);
  std::vector<std::string> files;
  for (int i = 0; i < 2; ++i) {
    auto r =
        dfb.Run({"run-memory", "--id", "rm", "--engines", "redis", "--keys", "20000", "--test-time",
                 "3s", "--snapshot-delay", "1s", "--update-rate", "1000", "--output", "json"});
    ASSERT_EQ(r.code, 0) << r.err;
    files.push_back((dfb.SetupDir("rm") / "memory" /
                     json::parse(r.out)["run_id"].get<std::string>() / "results.json")
                        .string());
  }
  const auto page = dfb.home() / "memory.html";
  ASSERT_EQ(dfb.Run({"report", files[0], files[1], "-o", page.string()}).code, 0);
  const auto chromium = FindChromium();
  if (!chromium) GTEST_SKIP() << "chromium is not installed: the report was not checked";
  auto dom = Chromium(*chromium, dfb.home() / "chromium-profile", {"--dump-dom"}, page);
  ASSERT_TRUE(dom) << dom.error().message;
  ASSERT_EQ(dom->status.code, 0) << dom->err;
  const std::string& html = dom->out;
  EXPECT_TRUE(ConsoleLines(dom->err).empty()) << ::testing::PrintToString(ConsoleLines(dom->err));
  EXPECT_EQ(CountOccurrences(html, "<section class=\"file\">"), 2u);
  EXPECT_EQ(CountOccurrences(html, "<section class=\"comparison\""), 1u);
  EXPECT_EQ(CountOccurrences(html, "<svg class=\"chart line-chart\""), 2u);
  // The snapshot window: where BGSAVE started and where the engine said it was saved.
  EXPECT_EQ(CountOccurrences(html, "class=\"marker-line\""), 4u);
  for (const char* text : {"Memory over time (PSS of the process tree)", "redis BGSAVE",
                           "redis saved", "Idle memory, baseline vs candidate",
                           "Peak memory, baseline vs candidate", "bytes/key", "20,000 × 1024 B"}) {
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }
}

TEST(Report, InputErrorsExitTwo) {
  DfbenchRunner dfb("report-errors-" + std::to_string(getpid()));
  auto r = dfb.Run({"report", (dfb.home() / "missing.json").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("missing.json: no such file"), std::string::npos) << r.err;
  EXPECT_EQ(dfb.Run({"report"}).code, 2);
  EXPECT_FALSE(std::filesystem::exists(dfb.home() / "report.html"));
}

}  // namespace
}  // namespace dfbench::testing
