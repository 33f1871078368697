// Scripts written for the reference dfbench spell flags out at their documented defaults: each
// such flag must behave as if it were omitted. The defaults come from the reference README's
// flag tables (tests/fixtures/reference/flag_tables.txt, extracted from the seed), so a row
// added there is covered without touching this file.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

// One table row: its flags (a row may name several) and its default column as written.
struct FlagRow {
  std::vector<std::string> flags;
  std::string default_column;
};
using FlagTables = std::map<std::string, std::vector<FlagRow>>;

// The tables of the reference README, in the fixture's form: "[section]" lines, each followed
// by its rows verbatim. A heading is a line holding one backticked command (`run-commands`) or
// "Custom commands"; a row starts with "`--" and has tab-separated columns.
std::string ExtractTables(const std::string& readme) {
  static const std::regex heading("`[a-z-]+`|Custom commands");
  std::map<std::string, std::string> rows;
  std::vector<std::string> order;
  std::string section;
  std::istringstream in(readme);
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, heading)) {
      section = line[0] == '`' ? line.substr(1, line.size() - 2) : line;
    } else if (line.rfind("`--", 0) == 0 && line.find('\t') != std::string::npos &&
               !section.empty()) {
      if (!rows.contains(section)) order.push_back(section);
      rows[section] += line + "\n";
    }
  }
  std::string out;
  for (const auto& s : order) out += "[" + s + "]\n" + rows[s];
  return out;
}

// The fixture without its comment lines.
std::string FixtureTables() {
  auto text = core::ReadFile(FixturePath("reference/flag_tables.txt"));
  EXPECT_TRUE(text) << "tests/fixtures/reference/flag_tables.txt is missing";
  std::string out;
  std::istringstream in(text ? *text : "");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') out += line + "\n";
  }
  return out;
}

// The backticked words of `text`, e.g. "`--a`, `--b`" -> {"--a", "--b"}.
std::vector<std::string> Backticked(const std::string& text) {
  std::vector<std::string> words;
  for (size_t open = text.find('`'); open != std::string::npos;) {
    const size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    words.push_back(text.substr(open + 1, close - open - 1));
    open = text.find('`', close + 1);
  }
  return words;
}

FlagTables ParseTables(const std::string& tables) {
  FlagTables out;
  std::string section;
  std::istringstream in(tables);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > 2 && line.front() == '[' && line.back() == ']') {
      section = line.substr(1, line.size() - 2);
      continue;
    }
    const size_t tab1 = line.find('\t'), tab2 = line.find('\t', tab1 + 1);
    FlagRow row;
    for (const auto& w : Backticked(line.substr(0, tab1))) {
      if (w.rfind("--", 0) == 0) row.flags.push_back(w);
    }
    row.default_column = line.substr(tab1 + 1, tab2 - tab1 - 1);
    out[section].push_back(row);
  }
  return out;
}

// The concrete default of `flag` in `section`: the first backticked value of its default column,
// `""` meaning the empty string; another section's when the column says "(as in `run-commands`)"
// or "(see Custom commands)". nullopt for words (timestamp, required, another flag's value) and
// placeholders (`~/.dfbench/runs/<id>/...`).
std::optional<std::string> ConcreteDefault(const FlagTables& tables, const std::string& section,
                                           const std::string& flag) {
  for (const FlagRow& row : tables.at(section)) {
    if (std::find(row.flags.begin(), row.flags.end(), flag) == row.flags.end()) continue;
    const std::string& d = row.default_column;
    if (d.rfind("(see Custom commands)", 0) == 0) {
      return ConcreteDefault(tables, "Custom commands", flag);
    }
    if (d.rfind("(as in `", 0) == 0) return ConcreteDefault(tables, Backticked(d).at(0), flag);
    if (d.empty() || d[0] != '`') return std::nullopt;
    const std::string value = Backticked(d).at(0);
    if (value.rfind("--", 0) == 0 || value.find('<') != std::string::npos) return std::nullopt;
    return value == "\"\"" ? "" : value;
  }
  return std::nullopt;
}

// How a reference script gives `flag` its `value`: a boolean as --flag=value (Go's flag package
// reads "--flag false" as --flag and a stray argument), anything else as two arguments.
std::vector<std::string> Spelled(const std::string& flag, const std::string& value) {
  if (value == "true" || value == "false") return {flag + "=" + value};
  return {flag, value};
}

// A command and the sections of the reference README that document its flags; `base` is the
// command line the flags are added to, chosen to stop right after the flags are checked:
// a missing setup (exit 3), --dry-run (the plan), or two result files to compare.
struct Subject {
  std::vector<std::string> sections;
  std::vector<std::string> base;
};

std::vector<Subject> Subjects() {
  const std::string run = FixturePath("results/reference_run.json").string();
  return {
      // The reference's setup always makes an AWS fleet: here that is --provider aws.
      {{"setup"}, {"setup", "--provider", "aws", "--id", "ref", "--dry-run"}},
      // "Accepts the union of setup and run flags".
      {{"setup", "run"}, {"quickstart", "--provider", "aws", "--id", "ref", "--dry-run"}},
      {{"run"}, {"run", "--id", "nope"}},
      // Custom commands is a part of run-commands' section.
      {{"run-commands", "Custom commands"},
       {"run-commands", "--id", "nope", "--command", "SET", "--dragonfly_num_shards", "-1"}},
      {{"run-commands-dfly"},
       {"run-commands-dfly", "--id", "nope", "--command", "SET", "--dragonfly_num_shards", "-1"}},
      {{"run-replication"}, {"run-replication", "--id", "nope"}},
      {{"compare"}, {"compare", run, run}},
  };
}

// Defaults the reference states in a flag's notes rather than its default column: an empty
// --cases is its five levels ("Empty = ..."), an empty --command-name the template's first word.
const std::vector<std::pair<std::string, std::string>> kDefaultsInNotes = {{"--cases", ""},
                                                                           {"--command-name", ""}};

TEST(ReferenceDefaults, FixtureMatchesTheSeed) {
  const std::filesystem::path seeds = DFBENCH_SEEDS_DIR;
  std::filesystem::path readme;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(seeds, ec)) {
    if (e.path().filename().string().rfind("000_", 0) == 0) readme = e.path();
  }
  if (readme.empty()) GTEST_SKIP() << "the reference README (" << seeds << "/000_*) is absent";
  auto text = core::ReadFile(readme);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(FixtureTables(), ExtractTables(*text))
      << "the reference README's flag tables changed: regenerate "
         "tests/fixtures/reference/flag_tables.txt from "
      << readme;
}

TEST(ReferenceDefaults, EveryDocumentedDefaultBehavesAsOmitted) {
  const FlagTables tables = ParseTables(FixtureTables());
  ASSERT_TRUE(tables.contains("run-commands")) << "no tables in the fixture";
  DfbenchRunner dfb("reference-defaults");
  // The region's default is the reference's us-east-1 only when nothing in the environment names
  // another (the AWS CLI's chain).
  for (const char* var : {"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_CONFIG_FILE"}) {
    ::unsetenv(var);
  }
  size_t checked = 0;
  for (const Subject& s : Subjects()) {
    // The first dry run makes the setup's key; the second, the reference output.
    (void)dfb.Run(s.base);
    const CliResult omitted = dfb.Run(s.base);
    ASSERT_NE(omitted.code, -1) << omitted.err;
    auto check = [&](const std::vector<std::string>& given) {
      const CliResult r = dfb.Run(Concat(s.base, given));
      const std::string what = JoinArgs(Concat(s.base, given));
      EXPECT_EQ(r.code, omitted.code) << what << "\n" << r.err;
      EXPECT_EQ(r.err, omitted.err) << what;
      EXPECT_EQ(r.out, omitted.out) << what;
      ++checked;
    };
    for (const std::string& section : s.sections) {
      for (const FlagRow& row : tables.at(section)) {
        for (const std::string& flag : row.flags) {
          // The comparison's own means: given in the base command line already.
          if (flag == "--dry-run") continue;
          if (auto value = ConcreteDefault(tables, section, flag)) check(Spelled(flag, *value));
        }
      }
      for (const auto& [flag, value] : kDefaultsInNotes) {
        for (const FlagRow& row : tables.at(section)) {
          if (std::find(row.flags.begin(), row.flags.end(), flag) != row.flags.end()) {
            check({flag, value});
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 60u);  // the tables hold more than 60 concrete defaults
}

}  // namespace
}  // namespace dfbench::testing
