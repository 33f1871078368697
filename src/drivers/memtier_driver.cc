#include "drivers/memtier_driver.h"

#include "drivers/memtier_args.h"

namespace dfbench::drivers {
namespace {

core::Result<std::vector<std::string>> MemtierArgs(const std::string& binary, const Target& target,
                                                   const core::Load& asked, const core::Pass& pass,
                                                   const std::string& report_path) {
  const core::Load load = InNamespace(target, asked, "memtier-");
  if (pass.rate_per_connection != 0) {
    return core::Fail(core::ErrorKind::kUsage, "memtier_benchmark takes no dfly_bench-style rate");
  }
  if (auto st = RefuseOpenLoop(pass, "memtier_benchmark"); !st) {
    return tl::unexpected(st.error());
  }
  if (!target.password.empty()) {
    // It would be on memtier's command line and in the report it writes ("authenticate").
    return core::Fail(core::ErrorKind::kUsage,
                      "memtier_benchmark writes the password into its report: drive an endpoint "
                      "that wants one with the built-in load generator");
  }
  const bool fill = pass.length == core::Pass::Length::kFill;
  if (fill && load.command.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "a memtier_benchmark fill needs a command");
  }
  int threads = load.threads, clients = load.clients;
  if (fill) {
    const Layout layout = ExactFillLayout(load.KeyCount(), threads, clients);
    threads = layout.threads;
    clients = layout.clients;
  }
  std::vector<std::string> args = {binary};
  AppendConnectionArgs(args, target, threads, clients, load.pipeline);
  // A fill: each connection sends exactly its slice of the range.
  const uint64_t connections = static_cast<uint64_t>(threads) * clients;
  AppendLengthArgs(args, pass, std::to_string(pass.test_time.count()),
                   std::to_string(load.KeyCount() / connections));
  AppendRequestArgs(args, load, pass);
  args.insert(args.end(), {"--print-percentiles", "50,99,99.9", "--json-out-file", report_path});
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
