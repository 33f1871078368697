// `dfbench report` end to end: a report of result files made by running the real quickstart
// (twice) plus replication and per-command fixtures, opened in headless Chromium.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <functional>
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

// Headless Chromium with a fresh profile and no network side traffic, on local pages.
class Browser {
 public:
  // Chromium on PATH, its profile under `home`; nullopt when it is not installed.
  static std::optional<Browser> Find(const std::filesystem::path& home) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      if (auto path = core::FindOnPath(name)) return Browser(*path, home / "chromium-profile");
    }
    return std::nullopt;
  }

  // The page's DOM as rendered, with a clean exit, no console messages and no script; "" (with
  // the failure recorded) when Chromium could not render it.
  std::string Dom(const std::filesystem::path& page) const {
    auto dom = Run({"--dump-dom"}, page);
    EXPECT_TRUE(dom) << (dom ? "" : dom.error().message);
    if (!dom) return "";
    EXPECT_EQ(dom->status.code, 0) << dom->err;
    EXPECT_TRUE(ConsoleLines(dom->err).empty()) << "console messages:\n"
                                                << ::testing::PrintToString(ConsoleLines(dom->err));
    EXPECT_FALSE(dom->out.empty());
    EXPECT_EQ(dom->out.find("<script"), std::string::npos);
    return dom->out;
  }

  // A screenshot of the page in a `window` ("1280,2000") beside it, named on stderr and checked
  // to be a PNG; its size in bytes (0, with the failure recorded, when there is none).
  size_t Screenshot(const std::filesystem::path& page, const std::string& window) const {
    const auto shot = std::filesystem::path(page).replace_extension(".png");
    auto png = Run({"--screenshot=" + shot.string(), "--window-size=" + window}, page);
    EXPECT_TRUE(png) << (png ? "" : png.error().message);
    if (png) {
      EXPECT_EQ(png->status.code, 0) << png->err;
    }
    auto bytes = core::ReadFile(shot);
    EXPECT_TRUE(bytes) << "no screenshot at " << shot;
    if (!bytes) return 0;
    EXPECT_EQ(bytes->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    std::cerr << "report: " << page.string() << "\nscreenshot: " << shot.string() << "\n";
    return bytes->size();
  }

 private:
  Browser(std::string binary, std::filesystem::path profile)
      : binary_(std::move(binary)), profile_(std::move(profile)) {}

  core::Result<core::CapturedOutput> Run(const std::vector<std::string>& action,
                                         const std::filesystem::path& page) const {
    std::vector<std::string> argv = {binary_,
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
                                     "--user-data-dir=" + profile_.string()};
    argv.insert(argv.end(), action.begin(), action.end());
    argv.push_back("file://" + page.string());
    return core::RunCapture(argv, std::chrono::seconds(120));
  }

  std::string binary_;
  std::filesystem::path profile_;
};

// Markup the counts below look for.
constexpr const char* kFileSection = "<section class=\"file\">";
constexpr const char* kComparisonSection = "<section class=\"comparison\"";
constexpr const char* kBarChart = "<svg class=\"chart bar-chart\"";
constexpr const char* kLineChart = "<svg class=\"chart line-chart\"";
constexpr const char* kMarkerLine = "class=\"marker-line\"";

// How often each piece of markup occurs on the page.
void ExpectCounts(const std::string& html,
                  const std::vector<std::pair<std::string, size_t>>& counts) {
  for (const auto& [markup, n] : counts) EXPECT_EQ(CountOccurrences(html, markup), n) << markup;
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

  const auto browser = Browser::Find(dfb.home());
  if (!browser) GTEST_SKIP() << kNoChromium;
  const std::string html = browser->Dom(page);

  ExpectCounts(html, {// Two run sections, one replication and one per-command section, one
                      // run comparison.
                      {kFileSection, 4},
                      {kComparisonSection, 1},
                      // Per run: throughput and latency charts; per command: the same; the
                      // comparison: two.
                      {kBarChart, 2 * 2 + 2 + 2},
                      // Per replication case: rps and p99 over time, each with the sync point
                      // marked.
                      {kLineChart, 4},
                      {kMarkerLine, 4},
                      // Bars: per run 2 throughput + 6 latency; per command 1 + 3; the
                      // comparison 2 × 2 × 2.
                      {"<rect class=\"bar\"", 2 * 8 + 4 + 8}});
  EXPECT_NE(html.find("stable sync after 6.4 s"), std::string::npos);
  EXPECT_GE(CountOccurrences(html, "class=\"whisker\""), 2u * 8);
  ExpectContainsAll(
      html, {"Throughput per engine", "Latency percentiles", "Throughput, baseline vs candidate",
             "qps=100000 · throughput over time", "maxload · p99 latency over time",
             "SET __key__ __data__", ">redis<", ">memcached<", "ops/s", "load settings (memtier)",
             "c7g.4xlarge", "--replication_stream_compression=zstd", "Verdicts", "badge verdict-"});
  EXPECT_GT(browser->Screenshot(page, "1280,2000"), 20000u);
}

// Two files of one shape, reported on one page: its counts of markup and texts, and whether a
// screenshot is taken (the window's size, or none).
struct TwoFilePage {
  const char* name;
  std::function<std::vector<std::string>(const DfbenchRunner&)> files;
  std::vector<std::pair<std::string, size_t>> counts;
  std::vector<std::string> texts;
  const char* screenshot_window;
};

void PrintTo(const TwoFilePage& p, std::ostream* os) {
  *os << p.name;
}

// A sweep file and a copy whose memcached found a lower rate: per engine the latency curve
// against the offered rate on a log axis, with the objectives and the found rate drawn.
const TwoFilePage kSweepPage{
    "sweep",
    [](const DfbenchRunner& dfb) {
      json lower = ReadJson(FixturePath("results/sweep.json"));
      lower["run_id"] = "20261201-110000";
      lower["engines"][1]["found_rate"] = 9000;
      const auto second = dfb.home() / "lower.json";
      std::ofstream(second) << lower.dump(2);
      return std::vector<std::string>{FixturePath("results/sweep.json").string(), second.string()};
    },
    {{kFileSection, 2},
     {kComparisonSection, 1},
     // Per file a chart per engine; each with both objectives as levels.
     {kLineChart, 4},
     {"class=\"level-line\"", 8},
     // The capacity of each engine, and memcached's found rate, marked on every chart.
     {kMarkerLine, 2 * 3},
     // Five percentile curves per chart, a point per distinct rate (memcached ran 8, redis 1).
     {"class=\"series-line\"", 4 * 5},
     {"class=\"point\"", 2 * 5 * (8 + 1)}},
    {">max in SLO 10.1k ops/s<", ">max in SLO 9.00k ops/s<",
     "memcached · latency against offered load", "ms (log)", "target ops/s", "p99&lt;=20ms",
     "p99.9&lt;=50ms", "Highest rate within the objectives", "memcached steps",
     "Max rate within the objectives, baseline vs candidate", "max rate in SLO (ops/s)",
     "badge verdict-regression"},
    "1280,2400"};

// Two memory runs: each draws memory over time with its snapshot window marked; the
// comparison draws idle and peak memory side by side.
const TwoFilePage kMemoryPage{
    "memory",
    [](const DfbenchRunner& dfb) {
      std::vector<std::string> files;
      EXPECT_EQ(dfb.Run({"setup", "--id", "rm", "--engines", "redis"}).code, 0);
      for (int i = 0; i < 2; ++i) {
        auto r = dfb.Run({"run-memory", "--id", "rm", "--engines", "redis", "--keys", "20000",
                          "--test-time", "3s", "--snapshot-delay", "1s", "--update-rate", "1000",
                          "--output", "json"});
        EXPECT_EQ(r.code, 0) << r.err;
        if (r.code != 0) break;
        files.push_back((dfb.SetupDir("rm") / "memory" /
                         json::parse(r.out)["run_id"].get<std::string>() / "results.json")
                            .string());
      }
      return files;
    },
    {{kFileSection, 2},
     {kComparisonSection, 1},
     {kLineChart, 2},
     // The snapshot window: where BGSAVE started and where the engine said it was saved.
     {kMarkerLine, 4}},
    {"Memory over time (PSS of the process tree)", "redis BGSAVE", "redis saved",
     "Idle memory, baseline vs candidate", "Peak memory, baseline vs candidate", "bytes/key",
     "20,000 × 1024 B"},
    nullptr};

class ReportOfTwoFiles : public ::testing::TestWithParam<TwoFilePage> {};

TEST_P(ReportOfTwoFiles, DrawsItsChartsInAHeadlessBrowser) {
  const TwoFilePage& p = GetParam();
  DfbenchRunner dfb(std::string("report-") + p.name + "-" + std::to_string(getpid()));
  const std::vector<std::string> files = p.files(dfb);
  ASSERT_EQ(files.size(), 2u);
  const auto page = dfb.home() / (std::string(p.name) + ".html");
  auto r = dfb.Run({"report", files[0], files[1], "-o", page.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto browser = Browser::Find(dfb.home());
  if (!browser) GTEST_SKIP() << kNoChromium;
  const std::string html = browser->Dom(page);
  ExpectCounts(html, p.counts);
  ExpectContainsAll(html, p.texts);
  if (p.screenshot_window != nullptr) browser->Screenshot(page, p.screenshot_window);
}

INSTANTIATE_TEST_SUITE_P(Shapes, ReportOfTwoFiles, ::testing::Values(kSweepPage, kMemoryPage),
                         [](const auto& info) { return std::string(info.param.name); });

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
