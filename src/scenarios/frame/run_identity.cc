#include "scenarios/frame/run_identity.h"

#include "core/time_format.h"
#include "core/version.h"

namespace dfbench::scenarios {

namespace fs = std::filesystem;

std::string NewRunId(const fs::path& parent, const core::Clock& clock) {
  const std::string base = core::FormatTimestampId(clock.WallNow());
  std::string id = base;
  for (int n = 2; fs::exists(parent / id); ++n) id = base + "-" + std::to_string(n);
  return id;
}

results::Context MakeContext(const state::SetupState& setup, const drivers::Driver& driver) {
  results::Context c;
  c.tool_version = core::VersionLine();
  c.build_type = core::GetBuildInfo().build_type;
  c.provider = state::ToString(setup.provider);
  c.load_generator = driver.Kind();
  c.hosts = setup.hosts;
  return c;
}

}  // namespace dfbench::scenarios
