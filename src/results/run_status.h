// How a benchmark run ended (or that it still runs): in results files, the setup's history
// and the exit code.
#pragma once

#include <optional>
#include <string>

#include "core/enum_names.h"

namespace dfbench::results {

enum class RunStatus { kRunning, kCompleted, kFailed, kInterrupted };

inline constexpr core::EnumNames<RunStatus, 4> kRunStatusNames{
    {{{RunStatus::kRunning, "running"},
      {RunStatus::kCompleted, "completed"},
      {RunStatus::kFailed, "failed"},
      {RunStatus::kInterrupted, "interrupted"}}}};

inline std::string ToString(RunStatus s) {
  return std::string(kRunStatusNames.Name(s));
}

// "" when absent (result files of the reference may not say).
inline std::string ToString(const std::optional<RunStatus>& s) {
  return s ? ToString(*s) : std::string();
}

}  // namespace dfbench::results
