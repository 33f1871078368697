#include "cli/flags.h"

#include <gtest/gtest.h>

#include "core/format.h"

namespace dfbench::cli {
namespace {

// The message ExitError carries when `f` throws it; "" when it returns.
template <class F>
std::string ExitMessage(F f) {
  try {
    f();
  } catch (const ExitError& e) {
    return e.error.message;
  }
  return "";
}

TEST(OrExitNamingFlags, TheOptionsAnErrorIsAboutAreNamedByTheirFlags) {
  const core::Status st = core::FailAbout(core::ErrorKind::kUsage, {"snapshot_delay", "test_time"},
                                          "{0} (5s) must be shorter than {1} (5s)");
  constexpr FlagOfOption kFlags[] = {{"test_time", "--test-time"},
                                     {"snapshot_delay", "--snapshot-delay"}};
  EXPECT_EQ(ExitMessage([&] { OrExitNamingFlags(st, kFlags); }),
            "--snapshot-delay (5s) must be shorter than --test-time (5s)");
  // An option the table lacks keeps its field's name.
  EXPECT_EQ(ExitMessage([&] { OrExitNamingFlags(st, std::span(kFlags, 1)); }),
            "snapshot_delay (5s) must be shorter than --test-time (5s)");
  // An error about no option is left as it is, whatever words it holds.
  const core::Status plain = core::Fail(core::ErrorKind::kUsage, "test_time is a word here");
  EXPECT_EQ(ExitMessage([&] { OrExitNamingFlags(plain, kFlags); }), "test_time is a word here");
  EXPECT_EQ(ExitMessage([&] { OrExitNamingFlags(core::Ok(), kFlags); }), "");
}

TEST(OrExitFor, TheFlagIsSaidBeforeTheValuesMessage) {
  const core::Result<int> bad = core::Fail(core::ErrorKind::kUsage, "\"p99\": expected more");
  EXPECT_EQ(ExitMessage([&] { (void)OrExitFor("--slo", bad); }), "--slo \"p99\": expected more");
  EXPECT_EQ(OrExitFor("--slo", core::Result<int>(7)), 7);
}

TEST(ToOutputFormat, EachNameAndOneLineForAnyOther) {
  EXPECT_EQ(ToOutputFormat("table"), OutputFormat::kTable);
  EXPECT_EQ(ToOutputFormat("json"), OutputFormat::kJson);
  EXPECT_EQ(ToOutputFormat("csv"), OutputFormat::kCsv);
  EXPECT_EQ(ExitMessage([] { ToOutputFormat("xml"); }), "--output \"xml\": use table, json or csv");
}

}  // namespace
}  // namespace dfbench::cli
