// The README and the pages under docs/ are what users copy from: every dfbench command line in
// their code blocks must parse as the binary parses it (a line documented as refused, marked with
// a trailing "# refused" comment, must fail to), and every relative link must reach a file and,
// with an #anchor, one of that file's headings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/example_lines.h"

namespace dfbench::cli {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = DFBENCH_SOURCE_DIR;

// README.md and every docs/**/*.md, sorted so that failures read in a stable order.
std::vector<fs::path> DocFiles() {
  std::vector<fs::path> files{kSourceDir / "README.md"};
  for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / "docs")) {
    if (entry.is_regular_file() && entry.path().extension() == ".md") files.push_back(entry.path());
  }
  std::sort(files.begin() + 1, files.end());
  return files;
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Relative(const fs::path& path) {
  return path.lexically_relative(kSourceDir).string();
}

bool IsFence(const std::string& line) {
  return line.rfind("```", 0) == 0;
}

// A Markdown file split into the text of its fenced code blocks and the lines outside them.
struct MarkdownParts {
  std::string code;
  std::vector<std::string> prose;
};

MarkdownParts SplitFences(const std::string& text) {
  MarkdownParts parts;
  std::istringstream lines(text);
  bool in_code = false;
  for (std::string line; std::getline(lines, line);) {
    if (IsFence(line)) {
      in_code = !in_code;
      parts.code += "\n";  // a block never continues into the next one
    } else if (in_code) {
      parts.code += line + "\n";
    } else {
      parts.prose.push_back(line);
    }
  }
  return parts;
}

// GitHub's anchor of a heading: lower case, spaces to '-', every other character but letters,
// digits, '-' and '_' dropped (non-ASCII ones too: the headings' are symbols such as '→'); a
// repeated heading gets "-1", "-2", ...
std::set<std::string> Anchors(const std::vector<std::string>& prose) {
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  for (const std::string& line : prose) {
    const size_t hashes = line.find_first_not_of('#');
    if (hashes == 0 || hashes == std::string::npos || line[hashes] != ' ') continue;
    std::string slug;
    for (const char c : line.substr(hashes + 1)) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte >= 0x80) continue;
      if (std::isalnum(byte) != 0 || c == '-' || c == '_') {
        slug += static_cast<char>(std::tolower(byte));
      } else if (c == ' ') {
        slug += '-';
      }
    }
    const int repeats = seen[slug]++;
    anchors.insert(repeats == 0 ? slug : slug + "-" + std::to_string(repeats));
  }
  return anchors;
}

TEST(DocsExamples, CommandLinesParse) {
  size_t checked = 0;
  size_t refused = 0;
  for (const fs::path& file : DocFiles()) {
    for (const ExampleLine& line : ExampleCommandLines(SplitFences(ReadText(file)).code)) {
      const std::string where = Relative(file) + ": dfbench " + line.args;
      Action action;
      const auto app = MakeApp(&action);
      if (line.comment.rfind("refused", 0) == 0) {
        EXPECT_ANY_THROW(app->parse(line.args, /*program_name_included=*/false))
            << where << " is documented as refused but parses";
        ++refused;
      } else {
        EXPECT_NO_THROW(app->parse(line.args, /*program_name_included=*/false)) << where;
        EXPECT_TRUE(action) << where << " names no command";
      }
      ++checked;
    }
  }
  // The README's tour alone has more; fewer means the extraction broke, not the docs.
  EXPECT_GT(checked, 60U);
  EXPECT_LE(refused, 5U) << "keep the documented refusals few";
}

TEST(DocsExamples, RelativeLinksResolve) {
  const std::regex link(R"(\]\(([^)\s]+)\))");
  std::map<fs::path, std::set<std::string>> anchors_of;
  for (const fs::path& file : DocFiles()) {
    anchors_of[fs::weakly_canonical(file)] = Anchors(SplitFences(ReadText(file)).prose);
  }
  size_t checked = 0;
  for (const fs::path& file : DocFiles()) {
    for (const std::string& line : SplitFences(ReadText(file)).prose) {
      for (std::sregex_iterator it(line.begin(), line.end(), link), end; it != end; ++it) {
        const std::string target = (*it)[1];
        if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
        const size_t hash = target.find('#');
        const std::string path_part = target.substr(0, hash);
        const fs::path resolved =
            fs::weakly_canonical(path_part.empty() ? file : file.parent_path() / path_part);
        const std::string where = Relative(file) + ": (" + target + ")";
        ++checked;
        if (!fs::exists(resolved)) {
          ADD_FAILURE() << where << ": no file " << Relative(resolved);
          continue;
        }
        if (hash == std::string::npos) continue;
        const auto anchors = anchors_of.find(resolved);
        if (anchors == anchors_of.end()) {
          ADD_FAILURE() << where << ": an anchor into a file that is not a page";
        } else if (anchors->second.count(target.substr(hash + 1)) == 0) {
          ADD_FAILURE() << where << ": no heading with that anchor in " << Relative(resolved);
        }
      }
    }
  }
  EXPECT_GT(checked, 60U);
}

TEST(DocsExamples, AnchorsFollowGitHub) {
  const auto anchors =
      Anchors({"## Benchmark on AWS (`--provider aws`)", "### `dfbench ssh` and `info`",
               "## A tour: setup → run", "## A tour: setup → run", "not a heading"});
  EXPECT_EQ(anchors,
            (std::set<std::string>{"benchmark-on-aws---provider-aws", "dfbench-ssh-and-info",
                                   "a-tour-setup--run", "a-tour-setup--run-1"}));
}

}  // namespace
}  // namespace dfbench::cli
