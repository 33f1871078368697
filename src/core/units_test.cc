#include "core/units.h"

#include <gtest/gtest.h>

namespace dfbench::core {
namespace {

TEST(ParseDuration, AcceptsUnits) {
  EXPECT_EQ(ParseDuration("30s")->count(), 30'000'000);
  EXPECT_EQ(ParseDuration("30")->count(), 30'000'000);
  EXPECT_EQ(ParseDuration("500ms")->count(), 500'000);
  EXPECT_EQ(ParseDuration("250us")->count(), 250);
  EXPECT_EQ(ParseDuration("2m")->count(), 120'000'000);
  EXPECT_EQ(ParseDuration("0.5s")->count(), 500'000);
}

TEST(ParseDuration, RefusesGarbage) {
  EXPECT_FALSE(ParseDuration(""));
  EXPECT_FALSE(ParseDuration("-1s"));
  EXPECT_FALSE(ParseDuration("10x"));
  EXPECT_EQ(ParseDuration("abc").error().kind, ErrorKind::kUsage);
}

TEST(ParseCount, AcceptsSuffixes) {
  EXPECT_EQ(*ParseCount("1000"), 1000u);
  EXPECT_EQ(*ParseCount("10k"), 10000u);
  EXPECT_EQ(*ParseCount("2.5M"), 2500000u);
  EXPECT_FALSE(ParseCount("1q"));
}

TEST(ParseCount, RefusesWhatDoesNotFitInsteadOfCapping) {
  EXPECT_EQ(*ParseCount("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(*ParseCount("4611686018427387905"), 4611686018427387905u);  // exact past 2^53
  EXPECT_EQ(*ParseCount("18446744073709551k"), 18446744073709551000u);
  for (const char* text : {"18446744073709551616", "99999999999999999999G", "20000000000G"}) {
    auto n = ParseCount(text);
    ASSERT_FALSE(n) << text << " -> " << *n;
    EXPECT_EQ(n.error().kind, ErrorKind::kUsage);
    EXPECT_NE(n.error().message.find("too large"), std::string::npos) << n.error().message;
  }
  for (const char* text : {"-1", "1e21", "", "k", "1.2.3", "+5"})
    EXPECT_FALSE(ParseCount(text)) << text;
}

TEST(ParseCount, TakesUnderscoresBetweenDigitsOnly) {
  EXPECT_EQ(*ParseCount("1_000_000"), 1000000u);
  EXPECT_EQ(*ParseCount("2_500k"), 2500000u);
  for (const char* text : {"_1", "1_", "1__0", "1_k", "_"}) EXPECT_FALSE(ParseCount(text)) << text;
}

TEST(ParseDuration, RefusesWhatDoesNotFitInsteadOfWrapping) {
  EXPECT_EQ(ParseDuration("2562047h")->count(), int64_t{2562047} * 3600 * 1'000'000);
  for (const char* text : {"9999999999999999h", "99999999999999999999", "1e30s"}) {
    EXPECT_FALSE(ParseDuration(text)) << text;
  }
}

TEST(ParseRatio, Valid) {
  auto r = ParseRatio("1:10");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->set, 1u);
  EXPECT_EQ(r->get, 10u);
  EXPECT_EQ(r->ToString(), "1:10");
  EXPECT_TRUE(ParseRatio("0:1"));
}

TEST(ParseRatio, Invalid) {
  for (const char* text : {"1", "a:b", "0:0", "1:-2", ":3"}) EXPECT_FALSE(ParseRatio(text)) << text;
}

TEST(ParseRange, Valid) {
  auto r = ParseRange("10-20");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->min, 10u);
  EXPECT_EQ(r->max, 20u);
  EXPECT_TRUE(ParseRange("5:5"));
  for (const char* text : {"20-10", "x"}) EXPECT_FALSE(ParseRange(text)) << text;
}

TEST(FormatBytes, PowersOf1024NeverShowing1024OfAUnit) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(1024), "1.0 KiB");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatBytes(1024 * 1024 - 1), "1.0 MiB");  // never "1024.0 KiB"
  EXPECT_EQ(FormatBytes(17ull * 1024 * 1024 + 200 * 1024), "17.2 MiB");
  EXPECT_EQ(FormatBytes(3ull << 30), "3.0 GiB");
}

}  // namespace
}  // namespace dfbench::core
