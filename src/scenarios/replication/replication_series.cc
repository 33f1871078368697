#include "scenarios/replication/replication_series.h"

namespace dfbench::scenarios {

SplitSeries SplitAtSync(const std::vector<results::RepSample>& samples, double sync_end_sec,
                        size_t max_sustained) {
  SplitSeries out;
  double first_sustained_end = 0;
  for (const results::RepSample& s : samples) {
    if (s.t_sec - 1 < sync_end_sec) {
      out.sync_window.push_back(s);
      continue;
    }
    if (out.sustained.size() == max_sustained) break;
    if (out.sustained.empty()) first_sustained_end = s.t_sec;
    results::RepSample renumbered = s;
    renumbered.t_sec = s.t_sec - first_sustained_end + 1;
    out.sustained.push_back(renumbered);
  }
  return out;
}

}  // namespace dfbench::scenarios
