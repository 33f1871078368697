#include "core/table.h"

#include <algorithm>

#include "core/text.h"

namespace dfbench::core {
namespace {

// Display width: counts UTF-8 code points, not bytes, so "…" or "µs" do not skew columns.
size_t Width(const std::string& s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

Table::Table(std::vector<std::string> header, std::vector<Align> align)
    : header_(std::move(header)), align_(std::move(align)) {
  align_.resize(header_.size(), Align::kLeft);
  for (auto& cell : header_) cell = Printable(cell);
}

void Table::AddRow(std::vector<std::string> cells) {
  cells.resize(header_.size());
  // Cells hold servers' versions and error replies; a cell is one line.
  for (auto& cell : cells) cell = Printable(cell);
  rows_.push_back(std::move(cells));
}

std::string Table::Render() const {
  std::vector<size_t> width(header_.size(), 0);
  for (size_t i = 0; i < header_.size(); ++i) width[i] = Width(header_[i]);
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], Width(row[i]));
  }
  std::string out;
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      const size_t pad = width[i] - Width(cells[i]);
      if (i > 0) line += "  ";
      if (align_[i] == Align::kRight) {
        line.append(pad, ' ');
        line += cells[i];
      } else {
        line += cells[i];
        if (i + 1 < cells.size()) line.append(pad, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  emit(header_);
  for (const auto& row : rows_) emit(row);
  return out;
}

}  // namespace dfbench::core
