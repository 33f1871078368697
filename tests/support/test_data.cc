#include "support/test_data.h"

#include <gtest/gtest.h>

#include "core/files.h"

namespace dfbench::testing {

nlohmann::json ReadJson(const std::filesystem::path& path) {
  auto text = core::ReadFile(path);
  EXPECT_TRUE(text) << path;
  if (!text) return nullptr;
  auto json = nlohmann::json::parse(*text, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << path << " is not JSON";
  return json.is_discarded() ? nullptr : json;
}

nlohmann::json ReadJsonIfComplete(const std::filesystem::path& path) {
  auto text = core::ReadFile(path);
  if (!text) return nullptr;
  auto json = nlohmann::json::parse(*text, nullptr, false);
  return json.is_discarded() ? nullptr : json;
}

std::filesystem::path FixturePath(const std::string& relative) {
  return std::filesystem::path(DFBENCH_FIXTURES_DIR) / relative;
}

std::string FixtureText(const std::string& relative) {
  auto text = core::ReadFile(FixturePath(relative));
  EXPECT_TRUE(text) << relative;
  return text.value_or("");
}

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string JoinArgs(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + a;
  return out;
}

std::vector<std::string> SplitArgs(std::string_view line) {
  std::vector<std::string> args;
  std::string current;
  bool in_arg = false, quoted = false;
  for (char c : line) {
    if (c == '\'') {
      quoted = !quoted;
      in_arg = true;
    } else if (c == ' ' && !quoted) {
      if (in_arg) args.push_back(current);
      current.clear();
      in_arg = false;
    } else {
      current += c;
      in_arg = true;
    }
  }
  if (in_arg) args.push_back(current);
  return args;
}

std::vector<std::string> SplitNul(std::string_view text) {
  std::vector<std::string> out;
  for (size_t start = 0, end; (end = text.find('\0', start)) != std::string_view::npos;
       start = end + 1) {
    out.emplace_back(text.substr(start, end - start));
  }
  return out;
}

void WriteExecutable(const std::filesystem::path& path, const std::string& text) {
  ASSERT_TRUE(core::WriteFileAtomic(path, text, 0755)) << path;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t CountOccurrences(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + needle.size())) {
    ++n;
  }
  return n;
}

namespace {

// A text short enough to read in a failure message (a table, not a whole page).
std::string Shown(const std::string& text) {
  return text.size() <= 4000 ? "\n" + text : "";
}

}  // namespace

void ExpectContainsAll(const std::string& text, const std::vector<std::string>& parts) {
  for (const auto& part : parts) {
    EXPECT_NE(text.find(part), std::string::npos) << "missing: " << part << Shown(text);
  }
}

void ExpectContainsNone(const std::string& text, const std::vector<std::string>& parts) {
  for (const auto& part : parts) {
    EXPECT_EQ(text.find(part), std::string::npos) << "present: " << part << Shown(text);
  }
}

std::string Aarch64ElfHeader() {
  std::string header(64, '\0');
  header.replace(0, 4,
                 "\x7f"
                 "ELF");
  header[4] = 2;                        // 64-bit
  header[5] = 1;                        // little-endian
  header[18] = static_cast<char>(183);  // EM_AARCH64
  return header;
}

const std::vector<std::string> kSmallRun = {
    "--memtier-threads",  "2",  "--memtier-clients", "5",   "--memtier-requests", "2000",
    "--memtier-pipeline", "10", "--warmup-requests", "100", "--trials",           "2",
    "--cooldown",         "0"};

const std::vector<std::string> kSmallSweep = {"--slo",
                                              "p99<=1us",
                                              "--memtier-pipeline",
                                              "4",
                                              "--key-maximum",
                                              "2000",
                                              "--step-time",
                                              "1s",
                                              "--confirm",
                                              "0",
                                              "--cooldown",
                                              "0",
                                              "--memtier-threads",
                                              "1",
                                              "--memtier-clients",
                                              "2"};

const std::vector<std::string> kSmallCommandTrial = {"--key-maximum", "1000", "--test-time", "1",
                                                     "--warmup-time", "0",    "--trials",    "1",
                                                     "--cooldown",    "0"};

const std::vector<std::string> kSmallCommandRun =
    Concat(kSmallCommandTrial, {"--memtier-threads", "1", "--memtier-clients", "2"});

}  // namespace dfbench::testing
