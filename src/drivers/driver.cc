#include "drivers/driver.h"

#include <algorithm>

namespace dfbench::drivers {

Layout ExactFillLayout(uint64_t keys, int threads, int clients) {
  Layout best;
  uint64_t best_product = 1;
  if (keys == 0) return best;
  for (int t = std::max(threads, 1); t >= 1; --t) {
    const auto ut = static_cast<uint64_t>(t);
    if (keys % ut != 0) continue;
    const uint64_t per_thread = keys / ut;
    const uint64_t most =
        std::min<uint64_t>(static_cast<uint64_t>(std::max(clients, 1)), per_thread);
    if (ut * most <= best_product) continue;  // cannot beat what we have
    for (uint64_t c = most; c >= 1 && ut * c > best_product; --c) {
      if (per_thread % c == 0) {
        best = {t, static_cast<int>(c)};
        best_product = ut * c;
        break;
      }
    }
  }
  return best;
}

core::Status RefuseOpenLoop(const core::Pass& pass, const std::string& tool) {
  if (pass.rate_per_sec == 0 && pass.warmup_time.count() == 0) return core::Ok();
  return core::Fail(core::ErrorKind::kUsage,
                    tool +
                        " has no open loop measured from the due time: use the built-in "
                        "load generator");
}

core::Status CheckLiveMetrics(core::LoadGenerator generator, const core::LiveMetrics& metrics) {
  switch (generator) {
    case core::LoadGenerator::kBuiltin:
      return core::Ok();
    case core::LoadGenerator::kMemtier:
      if (metrics.prometheus_port == 0) return core::Ok();
      return core::Fail(core::ErrorKind::kUsage,
                        "memtier_benchmark serves no Prometheus endpoint: send StatsD metrics, "
                        "or use the built-in load generator");
    case core::LoadGenerator::kDflyBench:
      if (!metrics.Enabled()) return core::Ok();
      return core::Fail(core::ErrorKind::kUsage,
                        "dfly_bench sends no live metrics: use the built-in load generator or "
                        "memtier_benchmark");
  }
  return core::Ok();
}

core::Load InNamespace(const Target& target, core::Load load, const std::string& default_prefix) {
  if (target.key_namespace.empty()) return load;
  load.key_prefix =
      target.key_namespace + (load.key_prefix.empty() ? default_prefix : load.key_prefix);
  return load;
}

}  // namespace dfbench::drivers
