#include "drivers/memtier_driver.h"

#include "drivers/memtier_args.h"

namespace dfbench::drivers {
namespace {

core::Result<std::vector<std::string>> MemtierArgs(const std::string& binary, const Target& target,
                                                   const core::Load& load, const core::Pass& pass,
                                                   const std::string& report_path) {
  if (pass.rate_per_connection != 0) {
    return core::Fail(core::ErrorKind::kUsage, "memtier_benchmark takes no dfly_bench-style rate");
  }
  if (auto st = RefuseOpenLoop(pass, "memtier_benchmark"); !st) {
    return tl::unexpected(st.error());
  }
  if (auto st = CheckLiveMetrics(core::LoadGenerator::kMemtier, pass.live_metrics); !st) {
    return tl::unexpected(st.error());
  }
  if (!target.password.empty()) {
    // It would be on memtier's command line and in the report it writes ("authenticate").
    return core::Fail(core::ErrorKind::kUsage,
                      "memtier_benchmark writes the password into its report: drive an endpoint "
                      "that wants one with the built-in load generator");
  }
  if (pass.length == core::Pass::Length::kFill && load.command.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "a memtier_benchmark fill needs a command");
  }
  std::vector<std::string> args = {binary};
  for (std::string& arg :
       MemtierStyleArgs(target, load, pass, MemtierDialect::kMemtier, report_path)) {
    args.push_back(std::move(arg));
  }
  return args;
}

}  // namespace

const ToolSpec& MemtierSpec() {
  static const ToolSpec spec{.kind = core::LoadGenerator::kMemtier,
                             .program = "memtier_benchmark",
                             .how_to_provide =
                                 "install it, or pass --memtier-binary PATH; setup builds it on "
                                 "an ssh or aws client that reaches github.com",
                             .build_args = &MemtierArgs};
  return spec;
}

}  // namespace dfbench::drivers
