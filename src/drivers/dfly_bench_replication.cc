#include "drivers/dfly_bench_replication.h"

namespace dfbench::drivers {
namespace {

// "--proactor_threads=T -c=C --pipeline=P" of one of the run's two loads.
std::vector<std::string> Connections(const core::Load& load) {
  return {"--proactor_threads=" + std::to_string(load.threads),
          "-c=" + std::to_string(load.clients), "--pipeline=" + std::to_string(load.pipeline)};
}

std::vector<std::string> Common(const DflyBenchShape& s) {
  return {s.binary, "--h=" + s.target.address, "--p=" + std::to_string(s.target.port)};
}

void AppendData(const DflyBenchShape& s, std::vector<std::string>* args) {
  args->push_back("-d=" + std::to_string(s.value_size));
  args->push_back("--key_maximum=" + std::to_string(s.key_maximum));
  args->push_back("--json_out_file=" + s.report_path);
}

}  // namespace

std::vector<std::string> DflyBenchPreloadArgs(const DflyBenchShape& shape,
                                              std::chrono::seconds preload_time) {
  std::vector<std::string> args = Common(shape);
  const core::Load& preload = core::kReplicationPreload;
  for (std::string& a : Connections(preload)) args.push_back(std::move(a));
  args.insert(args.end(), {"--qps=0", "--test_time=" + std::to_string(preload_time.count()),
                           "--ratio=" + preload.ratio.ToString()});
  AppendData(shape, &args);
  return args;
}

std::vector<std::string> DflyBenchLoadArgs(const DflyBenchShape& shape, int64_t qps_per_connection,
                                           const core::Ratio& ratio,
                                           std::chrono::seconds test_time) {
  std::vector<std::string> args = Common(shape);
  for (std::string& a : Connections(core::kReplicationLoad)) args.push_back(std::move(a));
  args.insert(args.end(),
              {"--qps=" + std::to_string(qps_per_connection),
               "--test_time=" + std::to_string(test_time.count()), "--ratio=" + ratio.ToString()});
  AppendData(shape, &args);
  return args;
}

}  // namespace dfbench::drivers
