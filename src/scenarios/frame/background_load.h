// Load that runs while the caller does other things (starts a replica, watches it): the
// built-in generator as a background program on the client host, stopped when the caller is
// done, its per-second series read from the report it writes on the way out.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "drivers/driver.h"
#include "hosts/host.h"
#include "results/replication_schema.h"

namespace dfbench::scenarios {

// What a background load did, read from its report.
struct LoadOutcome {
  std::vector<results::RepSample> series;  // one sample per finished second (SeriesFromReport)
  uint64_t ops = 0;                        // requests answered
  uint64_t errors = 0;  // error replies (the built-in generator's count; dfly_bench's has none)
};

class BackgroundLoad {
 public:
  // Starts `dfbench loadgen` sending `load` for `pass` (its test_time bounds the run should
  // nobody stop it; its rate_per_sec makes it an open loop) on `client`, pinned to `cpus`.
  static core::Result<BackgroundLoad> Start(hosts::Host& client, const drivers::Target& target,
                                            const core::Load& load, const core::Pass& pass,
                                            const std::vector<int>& cpus);
  // Starts any generator that writes a memtier-layout JSON report with a "Time-Serie" at
  // `report` on the client host (dfly_bench's --json_out_file).
  static core::Result<BackgroundLoad> StartProgram(hosts::Host& client,
                                                   const std::vector<std::string>& argv,
                                                   std::string report,
                                                   const std::vector<int>& cpus);
  BackgroundLoad(BackgroundLoad&& other) noexcept;
  BackgroundLoad& operator=(BackgroundLoad&&) = delete;
  ~BackgroundLoad();

  // The generator's command line, as recorded in results (load_args).
  const std::string& args() const { return args_; }
  bool Alive() { return client_->DaemonAlive(daemon_); }
  // Stops the generator if still running (SIGTERM: the built-in one ends the current second
  // and writes its report), copies the report to `raw_report` on this machine and returns its
  // totals and one sample per finished second (t_sec 1, 2, ...: seconds since the load started).
  core::Result<LoadOutcome> Finish(const std::filesystem::path& raw_report);

 private:
  BackgroundLoad(hosts::Host* client, hosts::DaemonHandle daemon, std::string report,
                 std::string args)
      : client_(client),
        daemon_(std::move(daemon)),
        report_(std::move(report)),
        args_(std::move(args)) {}
  hosts::Host* client_;
  hosts::DaemonHandle daemon_;
  std::string report_;  // on the client host
  std::string args_;
};

// The per-second samples of a `dfbench loadgen` / memtier JSON report ("ALL STATS" > "Totals" >
// "Time-Serie"): rps is the second's count of replies, p99_us its p99 ("p99.00", ms) in µs.
core::Result<std::vector<results::RepSample>> SeriesFromReport(const std::string& report_json);

}  // namespace dfbench::scenarios
