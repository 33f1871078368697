// Plain-text tables whose columns line up, for every human-readable listing.
#pragma once

#include <string>
#include <vector>

namespace dfbench::core {

class Table {
 public:
  enum class Align { kLeft, kRight };

  explicit Table(std::vector<std::string> header, std::vector<Align> align = {});
  void AddRow(std::vector<std::string> cells);
  // Columns separated by two spaces, no trailing spaces, one '\n' per row.
  std::string Render() const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::string> header_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace dfbench::core
