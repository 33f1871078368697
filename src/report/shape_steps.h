// The steps of `compare` and `report` that differ by result kind, named by the kind's ShapeSpec
// entry (result_document.cc): how two files of the kind compare, and its section of the page.
#pragma once

#include <string>
#include <vector>

#include "report/result_document.h"

namespace dfbench::report {

// compare.cc: the groups of two files paired into `out` (groups, only_in_*), and the differences
// in what was run noted there.
void CompareRuns(const results::RunResults& b, const results::RunResults& c, Comparison* out);
void CompareCommandRuns(const CommandsResults& b, const CommandsResults& c, Comparison* out);
void CompareReplications(const results::ReplicationRunResults& b,
                         const results::ReplicationRunResults& c, Comparison* out);
void CompareSweeps(const results::SweepResults& b, const results::SweepResults& c, Comparison* out);
void CompareMemoryRuns(const results::MemoryRunResults& b, const results::MemoryRunResults& c,
                       Comparison* out);

namespace html {

// report_html.cc: a file's section, its heading at `anchor`; `engines` keep colours stable.
std::string RunSection(const ResultDocument& d, const std::string& anchor,
                       const std::vector<std::string>& engines);
std::string CommandsSection(const ResultDocument& d, const std::string& anchor,
                            const std::vector<std::string>& engines);
std::string ReplicationSection(const ResultDocument& d, const std::string& anchor,
                               const std::vector<std::string>& engines);
std::string SweepSection(const ResultDocument& d, const std::string& anchor,
                         const std::vector<std::string>& engines);
std::string MemorySection(const ResultDocument& d, const std::string& anchor,
                          const std::vector<std::string>& engines);

}  // namespace html
}  // namespace dfbench::report
