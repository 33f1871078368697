// The command line's numbers as a property: thousands of generated values (edges of every range,
// one past them, negatives, numbers too large to hold, suffixes that overflow, malformed text)
// for every ranged flag of every command, parsed in-process by the real command line. A value
// inside its range must be accepted and reach the command (which stops at the missing setup,
// exit 3, or at a dry run, exit 0); any other must be refused while parsing, before the command
// runs, with one line naming the flag and its range. Ranges and flags come from the table the
// flags are registered from, so a flag added later is covered.
//
// DFBENCH_PROPERTY_SEED=<n> replays a run; every failure prints the seed and the argv.
#include "cli/flag_ranges.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cli/app.h"
#include "cli/command.h"
#include "cli/deprecated_flags.h"

namespace dfbench::cli {
namespace {

using int128 = __int128;

// How a command runs as far as it can without a setup, and what it then returns (-1: it is
// only parsed).
struct Base {
  std::vector<std::string> args;
  int accepted_code;
};

const std::map<std::string, Base>& Bases() {
  static const std::map<std::string, Base> bases = {
      {"setup", {{"--dry-run", "--engines", "redis"}, 0}},
      {"quickstart", {{"--dry-run", "--engines", "redis"}, 0}},
      {"run", {{"--id", "nosuch"}, 3}},
      {"sweep", {{"--id", "nosuch", "--slo", "p99<=1ms"}, 3}},
      {"run-commands", {{"--id", "nosuch", "--engines", "redis", "--command", "SET"}, 3}},
      {"run-commands-dfly", {{"--id", "nosuch", "--engines", "redis", "--command", "SET"}, 3}},
      {"run-memory", {{"--id", "nosuch", "--snapshot", "none"}, 3}},
      {"run-replication", {{"--id", "nosuch"}, 3}},
      {"template", {{}, -1}},  // parsed only: it renders a fleet
      {"loadgen", {{}, -1}},   // parsed only: it would send load to a server
  };
  return bases;
}

// Flags whose accepted values need other flags to run (a custom command, a remote provider,
// a thread per load generator process): for them, acceptance is checked as far as parsing.
const std::set<std::string> kParsedOnly = {"--preload-items", "--command-key-maximum",
                                           "--ssh-port",      "--ssh-wait",
                                           "--replicas",      "--loadgen-processes"};

// A generated value: its text and the number it stands for (none: not a number of the kind).
struct Sample {
  std::string text;
  std::optional<int128> value;
};

std::string ToText(int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string s;
  for (int128 x = negative ? -v : v; x > 0; x /= 10) s.insert(s.begin(), char('0' + int(x % 10)));
  return negative ? "-" + s : s;
}

std::string WithUnderscores(const std::string& digits) {
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += '_';
    out += digits[i];
  }
  return out;
}

// `v` (microseconds for a duration) written as `kind` takes it, in one of its spellings.
Sample Spell(NumberKind kind, int128 v, std::mt19937_64& rng) {
  if (v < 0) {  // only a plain integer may be negative; elsewhere "-5" is not a number at all
    return {ToText(v) + (kind == NumberKind::kDuration ? "s" : ""),
            kind == NumberKind::kInteger ? std::optional<int128>(v) : std::nullopt};
  }
  const int form = static_cast<int>(rng() % 4);
  switch (kind) {
    case NumberKind::kInteger:
      return {form == 0 ? "00" + ToText(v) : ToText(v), v};
    case NumberKind::kCount: {
      static const std::pair<int128, const char*> kSuffixes[] = {
          {1'000'000'000, "G"}, {1'000'000, "M"}, {1000, "k"}};
      if (form == 1) return {WithUnderscores(ToText(v)), v};
      for (const auto& [mult, suffix] : kSuffixes) {
        if (form >= 2 && v != 0 && v % mult == 0) return {ToText(v / mult) + suffix, v};
      }
      return {ToText(v), v};
    }
    case NumberKind::kDuration: {
      static const std::pair<int128, const char*> kUnits[] = {
          {3'600'000'000, "h"}, {60'000'000, "m"}, {1'000'000, "s"}, {1000, "ms"}, {1, "us"}};
      if (form == 0 && v % 1'000'000 == 0) return {ToText(v / 1'000'000), v};  // bare: seconds
      const auto& [mult, unit] = kUnits[rng() % std::size(kUnits)];
      if (v % mult == 0) return {ToText(v / mult) + unit, v};
      return {ToText(v) + "us", v};
    }
  }
  return {};
}

// Every edge of `r`, one past them, negatives, numbers past 64 bits, random values inside and
// outside, and text that is no number of the kind.
std::vector<Sample> Samples(const FlagRange& r, std::mt19937_64& rng, int random_count) {
  // Durations step by whole seconds: every duration range is whole seconds.
  const int128 step = r.kind == NumberKind::kDuration ? 1'000'000 : 1;
  const int128 lo = r.min, hi = r.max;
  std::vector<int128> values = {lo,
                                hi,
                                lo - step,
                                hi + step,
                                0,
                                -step,
                                step,
                                hi * 2,
                                int128{INT64_MAX},
                                int128{INT64_MAX} + 1,
                                int128{1} << 64,
                                -(int128{1} << 63) - 1};
  for (int i = 0; i < random_count; ++i) {
    const int128 span = (hi - lo) / step + 1;
    const int128 inside = lo + static_cast<int128>(rng() % static_cast<uint64_t>(span)) * step;
    const int128 above = hi + static_cast<int128>(1 + rng() % 1'000'000'000'000) * step;
    values.push_back(inside);
    values.push_back(rng() % 4 == 0 ? above : inside);
  }
  std::vector<Sample> samples;
  samples.reserve(values.size() + 32);
  for (const int128 v : values) samples.push_back(Spell(r.kind, v, rng));
  for (const char* bad : {"",
                          "abc",
                          "1.2.3",
                          "0x10",
                          "1e3",
                          " 5",
                          "5 ",
                          "+5",
                          "5x",
                          "k",
                          "nan",
                          "inf",
                          "_5",
                          "5_",
                          "1__0",
                          "99999999999999999999G",
                          "99999999999999999999h",
                          "18446744073709551616k",
                          "-",
                          "--5",
                          "5,0"}) {
    samples.push_back({bad, std::nullopt});
  }
  if (r.kind == NumberKind::kInteger) {
    for (const char* bad : {"1k", "1.0", "30s", "1_000"}) samples.push_back({bad, std::nullopt});
  } else if (r.kind == NumberKind::kCount) {
    for (const char* bad : {"1s", "1kk", "1K5"}) samples.push_back({bad, std::nullopt});
  } else {
    for (const char* bad : {"5sec", "5 s", "1k", "5S", "1_000s"}) {
      samples.push_back({bad, std::nullopt});
    }
  }
  return samples;
}

// What one command line did, run through the command line's entry point: its exit code and
// its stderr.
struct Outcome {
  int code = 0;
  std::string err;
};

// Only parses `args` (the flags' checks, and the deprecated spellings'), as Main does first.
Outcome ParseInProcess(const std::vector<std::string>& args) {
  // The one command's flags, as MakeApp adds them (all twenty would take ten times longer).
  Action action;
  CLI::App app;
  for (const auto& spec : Commands()) {
    if (args.front() == spec.name) spec.add(app.add_subcommand(spec.name, spec.summary), &action);
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
    for (const auto* sub : app.get_subcommands()) CheckDeprecatedFlags(*sub);
  } catch (const CLI::ParseError& e) {
    return {2, std::string(e.what()) + "\n"};
  } catch (const ExitError& e) {
    return {static_cast<int>(e.error.kind), e.error.message + "\n"};
  }
  return {};
}

Outcome RunInProcess(std::vector<std::string> args) {
  args.insert(args.begin(), "dfbench");
  std::vector<char*> argv;
  argv.reserve(args.size());
  for (auto& a : args) argv.push_back(a.data());
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  Outcome o;
  o.code = Main(static_cast<int>(argv.size()), argv.data());
  o.err = ::testing::internal::GetCapturedStderr();
  ::testing::internal::GetCapturedStdout();
  return o;
}

std::string Join(const std::vector<std::string>& argv) {
  std::string s = "dfbench";
  for (const auto& a : argv) s += " '" + a + "'";
  return s;
}

uint64_t Seed() {
  if (const char* text = std::getenv("DFBENCH_PROPERTY_SEED")) return std::stoull(text);
  return std::random_device{}();
}

class FlagRangesProperty : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = std::filesystem::temp_directory_path() /
            ("dfbench-flag-ranges-" + std::to_string(::getpid()));
    std::filesystem::create_directories(home_);
    ::setenv("DFBENCH_HOME", home_.c_str(), 1);
  }
  void TearDown() override { std::filesystem::remove_all(home_); }
  std::filesystem::path home_;
};

TEST_F(FlagRangesProperty, EveryValueInsideItsRangeRunsAndEveryOtherIsOneLineBeforeAnything) {
  const uint64_t seed = Seed();
  std::mt19937_64 rng(seed);
  std::printf("seed %llu (DFBENCH_PROPERTY_SEED replays it)\n",
              static_cast<unsigned long long>(seed));
  Action unused;
  auto app = MakeApp(&unused);
  size_t checked = 0;
  std::set<std::string> flags_seen;
  for (const auto& spec : Commands()) {
    CLI::App* sub = app->get_subcommand(spec.name);
    for (CLI::Option* opt : sub->get_options()) {
      const FlagRange* range = RangeOfOption(opt);
      if (range == nullptr) continue;
      flags_seen.insert(range->flag);
      const auto base = Bases().find(spec.name);
      ASSERT_NE(base, Bases().end())
          << spec.name << " takes " << range->flag << ": give it a base command line here";
      const std::string flag = range->flag;
      const bool parsed_only = kParsedOnly.count(flag) > 0 || base->second.accepted_code < 0;
      int runs_left = 3;
      for (Sample s : Samples(*range, rng, 20)) {
        if (flag == "--cases") s.text = "qps=" + s.text;  // its numbers are qps=<n> words
        std::vector<std::string> argv = {spec.name};
        argv.insert(argv.end(), base->second.args.begin(), base->second.args.end());
        argv.push_back(flag + "=" + s.text);
        const bool inside = s.value && *s.value >= range->min && *s.value <= range->max;
        if (flag == "--cases" && s.text.find(',') != std::string::npos) continue;  // 2 cases
        // Every value is parsed as Main parses; the first few inside their range run as far as
        // the command goes without a setup (a flag that needs a remote provider would plan
        // one, an AWS fleet: parsed only), and so do refusals Main words itself (CLI11 leaves
        // a hidden flag unnamed).
        const bool run = inside && !parsed_only && runs_left-- > 0;
        Outcome o = run ? RunInProcess(argv) : ParseInProcess(argv);
        if (o.err.rfind(": ", 0) == 0) o = RunInProcess(argv);
        const std::string context = "seed " + std::to_string(seed) + ": " + Join(argv) + " -> " +
                                    std::to_string(o.code) + " " + o.err;
        const bool refused_for_range = o.err.find(RangeText(*range)) != std::string::npos;
        ++checked;
        if (inside && run) {
          EXPECT_EQ(o.code, base->second.accepted_code) << context;
        } else if (inside && !parsed_only) {
          EXPECT_EQ(o.code, 0) << context;
        } else if (inside) {
          EXPECT_FALSE(refused_for_range) << context;
        } else {
          EXPECT_EQ(o.code, 2) << context;
          EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << "one line: " << context;
          EXPECT_NE(o.err.find(flag), std::string::npos) << context;
          EXPECT_TRUE(refused_for_range) << context;
        }
        if (::testing::Test::HasFailure()) return;  // the first failure says enough
      }
    }
  }
  std::printf("%zu command lines checked\n", checked);
  EXPECT_GT(checked, 1000u);
  // Every entry of the table is a flag some command takes.
  for (const auto& r : FlagRanges()) EXPECT_TRUE(flags_seen.count(r.flag)) << r.flag;
}

TEST(FlagRanges, RangeTextIsPlainNumbers) {
  EXPECT_EQ(RangeText(*FindFlagRange("--memtier-requests", NumberKind::kInteger)),
            "1 to 1000000000000");
  EXPECT_EQ(RangeText(*FindFlagRange("--cooldown", NumberKind::kDuration)), "0s to 24h");
  EXPECT_EQ(RangeText(*FindFlagRange("--dragonfly_num_shards", NumberKind::kInteger)),
            "-1 to 65536");
}

TEST(FlagRanges, RefusalsNameTheFlagTheTextAndTheRange) {
  const FlagRange& warmup = *FindFlagRange("--warmup-requests", NumberKind::kInteger);
  EXPECT_EQ(ParseInRange(warmup, "-1").error().message,
            "--warmup-requests \"-1\" is out of range: use 0 to 1000000000000");
  const FlagRange& keys = *FindFlagRange("--keys", NumberKind::kCount);
  EXPECT_EQ(ParseInRange(keys, "99999999999999999999G").error().message,
            "--keys \"99999999999999999999G\" is out of range: use 1 to 10000000000");
  EXPECT_EQ(ParseInRange(keys, "5x").error().message,
            "--keys \"5x\" is not a count (e.g. 500, 10k, 2.5M, 1G): use 1 to 10000000000");
  EXPECT_EQ(*ParseInRange(keys, "2.5M"), 2'500'000);
}

// A deprecated spelling beside its new flag: the same value is fine, another is one line
// naming both.
TEST(DeprecatedFlags, DisagreeingWithTheNewFlagIsRefused) {
  for (const auto& d : DeprecatedFlags()) {
    bool found = false;
    Action unused;
    auto app = MakeApp(&unused);
    for (const auto& spec : Commands()) {
      CLI::App* sub = app->get_subcommand(spec.name);
      if (sub->get_option_no_throw(d.alias) == nullptr) continue;
      found = true;
      const std::string flag = d.flags.front();
      const bool boolean = sub->get_option(d.alias)->get_expected_min() == 0;
      const std::string a = boolean ? "false" : (flag == "--dragonfly_version" ? "v1.2.0" : "2");
      const std::string b = boolean ? "true" : (flag == "--dragonfly_version" ? "v1.3.0" : "3");
      std::vector<std::string> argv = {spec.name};
      const auto& base = Bases().at(spec.name).args;
      argv.insert(argv.end(), base.begin(), base.end());
      argv.push_back(std::string(d.alias) + "=" + a);
      argv.push_back(flag + "=" + b);
      Outcome o = RunInProcess(argv);
      EXPECT_EQ(o.code, 2) << Join(argv);
      EXPECT_NE(o.err.find(std::string(d.alias) + " " + a + " and " + flag + " " + b),
                std::string::npos)
          << o.err;
      argv.back() = flag + "=" + a;
      o = RunInProcess(argv);
      EXPECT_EQ(o.err.find("disagree"), std::string::npos) << Join(argv) << ": " << o.err;
    }
    EXPECT_TRUE(found) << d.alias << " is no command's flag";
  }
}

// A flag given twice, under one name or two of its names, is one line naming every name.
TEST(RepeatedFlags, AreOneLineNamingEverySpelling) {
  const std::vector<std::string> base = {"run-memory", "--id", "nosuch", "--snapshot", "none"};
  for (const auto& twice :
       std::vector<std::vector<std::string>>{{"--threads", "2", "--memtier-threads", "4"},
                                             {"--memtier-threads", "2", "--threads", "2"}}) {
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), twice.begin(), twice.end());
    const Outcome o = RunInProcess(argv);
    EXPECT_EQ(o.code, 2) << Join(argv);
    EXPECT_EQ(o.err,
              "dfbench: --memtier-threads or --threads given more than once: give one value\n");
  }
}

}  // namespace
}  // namespace dfbench::cli
