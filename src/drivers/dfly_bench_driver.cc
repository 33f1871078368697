#include "drivers/dfly_bench_driver.h"

#include "drivers/dfly_bench_report.h"
#include "drivers/tool_flags.h"

namespace dfbench::drivers {
namespace {

core::Result<std::vector<std::string>> DflyBenchArgs(const std::string& binary,
                                                     const Target& target, const core::Load& asked,
                                                     const core::Pass& pass,
                                                     const std::string& report_path) {
  if (auto st = RefuseOpenLoop(pass, "dfly_bench"); !st) return tl::unexpected(st.error());
  if (auto st = CheckLiveMetrics(core::LoadGenerator::kDflyBench, pass.live_metrics); !st) {
    return tl::unexpected(st.error());
  }
  if (target.tls.enabled || !target.password.empty() || !target.user.empty()) {
    return core::Fail(core::ErrorKind::kUsage,
                      "dfbench does not drive dfly_bench over TLS or with credentials: use the "
                      "built-in load generator or memtier_benchmark");
  }
  if (target.db != 0) {
    return core::Fail(core::ErrorKind::kUsage,
                      "dfbench does not drive dfly_bench at a database other than 0: use the "
                      "built-in load generator or memtier_benchmark");
  }
  // dfly_bench's own prefix is "key:".
  const core::Load load = InNamespace(target, asked, "key:");
  if (target.cluster) {
    return core::Fail(core::ErrorKind::kUsage,
                      "dfly_bench cannot follow a cluster's slot map: drive a cluster topology "
                      "with the built-in load generator or memtier_benchmark");
  }
  const bool fill = pass.length == core::Pass::Length::kFill;
  if (fill && load.command.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "a dfly_bench fill needs a command");
  }
  auto dist = DflyBenchKeyDist(fill ? core::KeyPattern::kSequential : load.key_pattern);
  if (!dist) return tl::unexpected(dist.error());
  int threads = load.threads, clients = load.clients;
  if (fill) {
    // One connection per thread, each walking its thread's share of the range once.
    threads = ExactFillLayout(load.KeyCount(), threads, 1).threads;
    clients = 1;
  }
  std::vector<std::string> args = {binary};
  const auto flag = [&args](std::string_view name, const std::string& value) {
    AppendFlag(args, FlagSpelling::kDflyBench, name, value);
  };
  flag("h", target.address);
  flag("p", std::to_string(target.port));
  flag("proactor-threads", std::to_string(threads));
  flag("c", std::to_string(clients));
  flag("pipeline", std::to_string(load.pipeline));
  flag("d", std::to_string(load.data_size));
  if (target.protocol == core::Protocol::kMemcacheText) {
    flag("P", std::string(core::kProtocolNames.Name(target.protocol)));
  }
  AppendKeyRangeFlags(args, FlagSpelling::kDflyBench, load);
  flag("key-dist", *dist);
  flag("qps", std::to_string(fill ? 0 : pass.rate_per_connection));
  switch (pass.length) {
    case core::Pass::Length::kRequests:
      flag("n", std::to_string(pass.requests_per_client));
      break;
    case core::Pass::Length::kTestTime:
      flag("test-time", std::to_string(core::WholeSeconds(pass.test_time)));
      break;
    case core::Pass::Length::kFill:
      flag("n", std::to_string(load.KeyCount() / threads));
      break;
  }
  AppendSentFlag(args, FlagSpelling::kDflyBench, load);
  flag("json-out-file", report_path);
  return args;
}

}  // namespace

const ToolSpec& DflyBenchSpec() {
  static const ToolSpec spec{
      .kind = core::LoadGenerator::kDflyBench,
      .program = "dfly_bench",
      .how_to_provide =
          "build it from the Dragonfly sources, or pass --dfly-bench-binary PATH; setup builds "
          "it on an ssh or aws client that reaches github.com (at --dfly-bench-ref)",
      .build_args = &DflyBenchArgs,
      .parse_report = &ParseDflyBenchOutput};
  return spec;
}

}  // namespace dfbench::drivers
