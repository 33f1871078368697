#include "providers/provider.h"

#include "providers/local_provider.h"

namespace dfbench::providers {

core::Result<std::unique_ptr<Provider>> MakeProvider(const std::string& name) {
  if (name == "local") return std::make_unique<LocalProvider>();
  return core::Fail(core::ErrorKind::kUsage,
                    "unknown provider \"" + name + "\" (available: local)");
}

}  // namespace dfbench::providers
