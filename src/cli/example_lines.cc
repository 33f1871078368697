#include "cli/example_lines.h"

namespace dfbench::cli {
namespace {

constexpr std::string_view kProgram = "dfbench ";
constexpr std::string_view kPrompt = "$ ";

// Where the line's arguments start, or npos when it is not a dfbench command line.
size_t ArgumentsStart(const std::string& line) {
  size_t at = line.find_first_not_of(' ');
  if (at == std::string::npos) return at;
  if (line.compare(at, kPrompt.size(), kPrompt) == 0) at += kPrompt.size();
  if (line.compare(at, kProgram.size(), kProgram) != 0) return std::string::npos;
  return at + kProgram.size();
}

std::string Trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return "";
  const size_t last = text.find_last_not_of(' ');
  return std::string(text.substr(first, last - first + 1));
}

ExampleLine CutWhereTheShellTakesOver(const std::string& line, size_t start) {
  char quote = 0;
  size_t cut = start;
  for (; cut < line.size(); ++cut) {
    const char c = line[cut];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '|' || c == '>' || c == '#' || c == ';') {
      break;
    }
  }
  ExampleLine example{Trimmed(std::string_view(line).substr(start, cut - start)), ""};
  const size_t hash = line.find('#', cut);
  if (hash != std::string::npos) example.comment = Trimmed(std::string_view(line).substr(hash + 1));
  return example;
}

}  // namespace

std::vector<ExampleLine> ExampleCommandLines(std::string_view text) {
  std::string joined;  // continuations ("\\" then a newline) become one space
  for (size_t at = 0; at < text.size(); ++at) {
    const bool continuation = text[at] == '\\' && at + 1 < text.size() && text[at + 1] == '\n';
    joined += continuation ? ' ' : text[at];
    if (continuation) ++at;
  }
  std::vector<ExampleLine> lines;
  size_t start = 0;
  while (start < joined.size()) {
    size_t end = joined.find('\n', start);
    if (end == std::string::npos) end = joined.size();
    const std::string line = joined.substr(start, end - start);
    start = end + 1;
    const size_t args = ArgumentsStart(line);
    if (args != std::string::npos) lines.push_back(CutWhereTheShellTakesOver(line, args));
  }
  return lines;
}

}  // namespace dfbench::cli
