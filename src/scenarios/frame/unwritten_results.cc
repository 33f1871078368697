#include "scenarios/frame/unwritten_results.h"

#include "core/files.h"
#include "state/state.h"

namespace dfbench::scenarios {

core::Result<std::filesystem::path> KeepUnwrittenResults(const std::string& setup_id,
                                                         const std::string& run_id,
                                                         std::string_view json) {
  const std::filesystem::path beside_state =
      state::SetupDir(setup_id) / ("unwritten-" + run_id + ".json");
  auto first = core::WriteFileAtomic(beside_state, json);
  if (first) return beside_state;
  std::error_code ec;
  std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  const std::filesystem::path in_tmp = tmp / ("dfbench-" + setup_id + "-" + run_id + ".json");
  auto second = core::WriteFileAtomic(in_tmp, json);
  if (second) return in_tmp;
  return core::Fail(core::ErrorKind::kEnvironment,
                    first.error().message + "; " + second.error().message);
}

}  // namespace dfbench::scenarios
