#include "cli/compare/compare_flags.h"

#include <gtest/gtest.h>

#include <limits>

#include "cli/flags_test_support.h"
#include "core/version.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::cli {
namespace {

const CommandLine<CompareFlags, &AddCompareFlags, &ToCompareOptions> kCompare{"compare",
                                                                              {"a.json", "b.json"}};
const CommandLine<ReportFlags, &AddReportFlags, &ToReportOptions> kReport{"report"};

TEST(CompareFlags, DefaultsAndEachFlag) {
  const auto d = kCompare.Parse({});
  EXPECT_EQ(d->baseline, "a.json");
  EXPECT_EQ(d->candidate, "b.json");
  EXPECT_EQ(d->format, "table");
  const report::CompareOptions o = ToCompareOptions(*d);
  EXPECT_EQ(o.regression_pct, 5.0);
  EXPECT_EQ(o.significance, report::Significance::kThresholdOnly);
  const auto f =
      kCompare.Parse({"--regression-pct", "2.5", "--format", "json", "--require-significance"});
  EXPECT_EQ(f->format, "json");
  const report::CompareOptions given = ToCompareOptions(*f);
  EXPECT_EQ(given.regression_pct, 2.5);
  EXPECT_EQ(given.significance, report::Significance::kOutsideNoise);
  EXPECT_EQ(kCompare.OptionsOf({"--regression-pct", "0"}).regression_pct, 0);
}

TEST(CompareFlags, ANegativeOrEndlessThresholdIsRefused) {
  ExpectUsageError("--regression-pct must be a non-negative number", [] {
    return kCompare.OptionsOf({"--regression-pct", "-1"});
  });
  CompareFlags endless;
  endless.regression_pct = std::numeric_limits<double>::infinity();
  ExpectUsageError("--regression-pct must be a non-negative number",
                   [&] { return ToCompareOptions(endless); });
  CompareFlags nan;
  nan.regression_pct = std::numeric_limits<double>::quiet_NaN();
  ExpectUsageError("--regression-pct must be a non-negative number",
                   [&] { return ToCompareOptions(nan); });
}

TEST(CompareFlags, FormatAndFilesAreCheckedWhileParsing) {
  EXPECT_NE(ParseErrorOf("compare", &AddCompareFlags, {"a", "b", "--format", "xml"}).find("xml"),
            std::string::npos);
  EXPECT_NE(ParseErrorOf("compare", &AddCompareFlags, {"a"}).find("candidate"), std::string::npos);
  EXPECT_NE(ParseErrorOf("compare", &AddCompareFlags, {"a", "b", "--regression-pct", "x"}), "");
}

TEST(ReportFlags, DefaultsAndEachFlag) {
  testing::ScopedTempDir dir("report-flags");
  const std::string page = (dir.path() / "page.html").string();
  const auto d = kReport.Parse({"a.json", "b.json", "c"});
  EXPECT_EQ(d->files, (std::vector<std::string>{"a.json", "b.json", "c"}));
  EXPECT_EQ(d->output, "report.html");
  const auto f =
      kReport.Parse({"a.json", "-o", page, "--regression-pct", "10", "--require-significance"});
  EXPECT_EQ(f->output, page);
  const report::ReportOptions o = ToReportOptions(*f);
  EXPECT_EQ(o.compare.regression_pct, 10);
  EXPECT_EQ(o.compare.significance, report::Significance::kOutsideNoise);
  EXPECT_EQ(o.tool_version, core::VersionLine());
  EXPECT_FALSE(o.generated_at.empty());
  EXPECT_EQ(kReport.Parse({"a", "--output", page})->output, page);
}

TEST(ReportFlags, BadValuesAreRefusedBeforeAnyFileIsRead) {
  testing::ScopedTempDir dir("report-flags");
  ExpectUsageError("--regression-pct must be a non-negative number", [&] {
    return kReport.OptionsOf(
        {"a.json", "-o", (dir.path() / "r.html").string(), "--regression-pct", "-5"});
  });
  // A missing parent directory: the page could not be written.
  const std::string nowhere = (dir.path() / "no" / "such" / "r.html").string();
  const auto error = ExpectUsageErrorOf([&] { return kReport.OptionsOf({"a", "-o", nowhere}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message.find('\n'), std::string::npos);
  EXPECT_NE(error->message.find(nowhere), std::string::npos) << error->message;
  EXPECT_NE(kReport.ParseErrorOf({}).find("files"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::cli
