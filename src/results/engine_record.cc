#include "results/engine_record.h"

#include <utility>

namespace dfbench::results {

void EngineRecord::SetBuild(EngineBuild build) {
  version = std::move(build.version);
  origin = std::move(build.origin);
  sha256 = std::move(build.sha256);
}

std::string EngineRecord::Topology() const {
  if (!tuning.is_object()) return "";
  if (const auto shards = tuning.find("shards");
      shards != tuning.end() && shards->is_number_integer() && shards->get<int>() > 0) {
    const int n = shards->get<int>();
    return std::to_string(n) + (n == 1 ? " shard" : " shards");
  }
  if (tuning.value("cluster_mode", "") == "emulated") return "emulated cluster";
  return "";
}

std::string EngineRecord::Label() const {
  const std::string topology = Topology();
  return topology.empty() ? engine : engine + " (" + topology + ")";
}

}  // namespace dfbench::results
