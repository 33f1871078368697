#include "drivers/dfly_bench_replication.h"

namespace dfbench::drivers {
namespace {

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
  args.insert(args.end(), {"--proactor_threads=4", "-c=15", "--pipeline=10", "--qps=0",
                           "--test_time=" + std::to_string(preload_time.count()), "--ratio=1:0"});
  AppendData(shape, &args);
  return args;
}

std::vector<std::string> DflyBenchLoadArgs(const DflyBenchShape& shape, int64_t qps_per_connection,
                                           const std::string& ratio,
                                           std::chrono::seconds test_time) {
  std::vector<std::string> args = Common(shape);
  args.insert(args.end(), {"--proactor_threads=1", "-c=2", "--pipeline=5",
                           "--qps=" + std::to_string(qps_per_connection),
                           "--test_time=" + std::to_string(test_time.count()), "--ratio=" + ratio});
  AppendData(shape, &args);
  return args;
}

}  // namespace dfbench::drivers
