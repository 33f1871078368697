#include "drivers/dfly_bench_driver.h"

#include "drivers/dfly_bench_report.h"

namespace dfbench::drivers {
namespace {

core::Result<std::string> KeyDist(core::KeyPattern pattern) {
  switch (pattern) {
    case core::KeyPattern::kRandom:
      return std::string("U");
    case core::KeyPattern::kSequential:
      return std::string("S");
    case core::KeyPattern::kGaussian:
      return std::string("N");
    case core::KeyPattern::kZipf:
      return std::string("Z");
    case core::KeyPattern::kParallel:
      break;
  }
  return core::Fail(core::ErrorKind::kUsage, "dfly_bench has no parallel (P) key distribution");
}

std::string Flag(const std::string& name, const std::string& value) {
  return "--" + name + "=" + value;
}

core::Result<std::vector<std::string>> DflyBenchArgs(const std::string& binary,
                                                     const Target& target, const core::Load& asked,
                                                     const core::Pass& pass,
                                                     const std::string& report_path) {
  if (auto st = RefuseOpenLoop(pass, "dfly_bench"); !st) return tl::unexpected(st.error());
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
  auto dist = KeyDist(fill ? core::KeyPattern::kSequential : load.key_pattern);
  if (!dist) return tl::unexpected(dist.error());
  int threads = load.threads, clients = load.clients;
  if (fill) {
    // One connection per thread, each walking its thread's share of the range once.
    threads = ExactFillLayout(load.KeyCount(), threads, 1).threads;
    clients = 1;
  }
  std::vector<std::string> args = {binary,
                                   Flag("h", target.address),
                                   Flag("p", std::to_string(target.port)),
                                   Flag("proactor_threads", std::to_string(threads)),
                                   Flag("c", std::to_string(clients)),
                                   Flag("pipeline", std::to_string(load.pipeline)),
                                   Flag("d", std::to_string(load.data_size))};
  if (target.protocol == core::Protocol::kMemcacheText) {
    args.push_back(Flag("P", std::string(core::kProtocolNames.Name(target.protocol))));
  }
  if (load.key_maximum > 0) {
    args.push_back(Flag("key_minimum", std::to_string(load.key_minimum)));
    args.push_back(Flag("key_maximum", std::to_string(load.key_maximum)));
  }
  if (!load.key_prefix.empty()) args.push_back(Flag("key_prefix", load.key_prefix));
  args.push_back(Flag("key_dist", *dist));
  args.push_back(Flag("qps", std::to_string(fill ? 0 : pass.rate_per_connection)));
  switch (pass.length) {
    case core::Pass::Length::kRequests:
      args.push_back(Flag("n", std::to_string(pass.requests_per_client)));
      break;
    case core::Pass::Length::kTestTime:
      args.push_back(Flag("test_time", std::to_string(pass.test_time.count())));
      break;
    case core::Pass::Length::kFill:
      args.push_back(Flag("n", std::to_string(load.KeyCount() / threads)));
      break;
  }
  if (!load.command.empty()) {
    args.push_back(Flag("command", load.command));
  } else {
    args.push_back(Flag("ratio", load.ratio));
  }
  args.push_back(Flag("json_out_file", report_path));
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
