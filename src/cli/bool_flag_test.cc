#include "cli/bool_flag.h"

#include <gtest/gtest.h>

#include <vector>

namespace dfbench::cli {
namespace {

struct Parsed {
  bool flag = true;
  int trials = 0;
  std::vector<std::string> rest;
};

// Parses `args` with one boolean (default `initial`) and one integer option after it.
Parsed Parse(std::vector<std::string> args, bool initial) {
  CLI::App app{"test"};
  Parsed p;
  p.flag = initial;
  AddBoolFlag(&app, "--flag,-f", &p.flag, "a boolean");
  app.add_option("--trials", p.trials);
  app.add_option("rest", p.rest);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  app.parse(reversed);
  return p;
}

TEST(ParseGoBool, AcceptsWhatGoAcceptsOnly) {
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"}) EXPECT_EQ(ParseGoBool(t), true);
  for (const char* f : {"0", "f", "F", "FALSE", "false", "False"}) {
    EXPECT_EQ(ParseGoBool(f), false);
  }
  for (const char* bad : {"", "yes", "no", "on", "maybe", "tRUE", "2", "-1"}) {
    EXPECT_EQ(ParseGoBool(bad), std::nullopt) << bad;
  }
}

TEST(AddBoolFlag, BareMeansTrueAndNeverTakesTheNextArgument) {
  Parsed p = Parse({"--flag", "--trials", "1"}, false);
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.trials, 1);
  p = Parse({"--flag", "word"}, false);
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.rest, std::vector<std::string>{"word"});
  p = Parse({"-f", "--trials", "2"}, false);
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.trials, 2);
}

TEST(AddBoolFlag, ValuesAfterAnEqualsSign) {
  EXPECT_FALSE(Parse({"--flag=false", "--trials", "1"}, true).flag);
  EXPECT_TRUE(Parse({"--flag=true", "--trials", "1"}, false).flag);
  EXPECT_FALSE(Parse({"--flag=0"}, true).flag);
  EXPECT_TRUE(Parse({"--flag=1"}, false).flag);
  EXPECT_FALSE(Parse({"--flag=F"}, true).flag);
  EXPECT_TRUE(Parse({}, true).flag);  // absent: the default stays
  EXPECT_FALSE(Parse({}, false).flag);
}

TEST(AddBoolFlag, LastOccurrenceWins) {
  EXPECT_TRUE(Parse({"--flag=false", "--flag"}, false).flag);
  EXPECT_FALSE(Parse({"--flag", "--flag=false"}, true).flag);
}

TEST(AddBoolFlag, BadValueNamesTheFlag) {
  try {
    Parse({"--flag=maybe"}, false);
    FAIL() << "accepted maybe";
  } catch (const CLI::ParseError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--flag"), std::string::npos) << what;
    EXPECT_NE(what.find("\"maybe\""), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(AddBoolFlag, SetterForSeveralFields) {
  CLI::App app{"test"};
  bool a = true, b = true;
  AddBoolFlag(
      &app, "--both", [&](bool on) { a = b = on; }, "sets both");
  app.parse(std::vector<std::string>{"--both=false"});
  EXPECT_FALSE(a);
  EXPECT_FALSE(b);
}

}  // namespace
}  // namespace dfbench::cli
