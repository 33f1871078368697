#include "cli/flags.h"

#include <gtest/gtest.h>

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

TEST(OrExitNamingFlags, OptionNamesBecomeTheirFlagsWholeWordsOnly) {
  const core::Status st = core::Fail(core::ErrorKind::kUsage,
                                     "snapshot_delay (5s) must be shorter than test_time (5s)");
  EXPECT_EQ(ExitMessage([&] {
              OrExitNamingFlags(st, {{"test_time", "--test-time"},
                                     {"snapshot_delay", "--snapshot-delay"},
                                     {"delay", "--never"}});
            }),
            "--snapshot-delay (5s) must be shorter than --test-time (5s)");
  EXPECT_EQ(ExitMessage([] { OrExitNamingFlags(core::Ok(), {{"keys", "--keys"}}); }), "");
}

TEST(OrExitFor, TheFlagIsSaidBeforeTheValuesMessage) {
  const core::Result<int> bad = core::Fail(core::ErrorKind::kUsage, "\"p99\": expected more");
  EXPECT_EQ(ExitMessage([&] { (void)OrExitFor("--slo", bad); }), "--slo \"p99\": expected more");
  EXPECT_EQ(OrExitFor("--slo", core::Result<int>(7)), 7);
}

TEST(ToOutputFormat, EachNameAndOneLineForAnyOther) {
  EXPECT_EQ(ToOutputFormat("table"), scenarios::OutputFormat::kTable);
  EXPECT_EQ(ToOutputFormat("json"), scenarios::OutputFormat::kJson);
  EXPECT_EQ(ToOutputFormat("csv"), scenarios::OutputFormat::kCsv);
  EXPECT_EQ(ExitMessage([] { ToOutputFormat("xml"); }), "--output \"xml\": use table, json or csv");
}

}  // namespace
}  // namespace dfbench::cli
