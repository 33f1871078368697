// The one place a Load and a Pass become memtier_benchmark's flags, which `dfbench loadgen`
// takes too: the memtier driver and the built-in driver both write their command lines here.
#pragma once

#include <string>
#include <vector>

#include "drivers/driver.h"

namespace dfbench::drivers {

// Where the two generators that take memtier's flags part ways.
enum class MemtierDialect {
  // memtier_benchmark: a fill runs ExactFillLayout's connections, each sending its slice's count
  // of requests (its "-n allkeys" ignores P with --command and rounds slices up); the test time
  // in bare seconds; the percentiles its report is read at, 50, 99 and 99.9.
  kMemtier,
  // `dfbench loadgen`: a fill is "--requests allkeys" over at most one connection per key; the
  // test time with its unit; then what only it takes: the open loop (--rate, --warmup-time),
  // --start-at, --seed-client-base, the load's own percentiles and error replies kept apart
  // from the operations.
  kLoadgen,
};

// The arguments after the program (and loadgen's subcommand) that send `load` to `target` for
// `pass`, its keys in the target's namespace ("memtier-" the default prefix), the report written
// to `report_path`: the connections ("--server A --port P --protocol X --threads T --clients C
// --pipeline N", cluster mode, TLS, user, database), the length ("--requests" or "--test-time"),
// what is sent ("--command C --command-key-pattern K", P in a fill; or "--ratio R", a fill without
// a command "--ratio 1:0 --key-pattern P:P"), "--data-size", the key range and prefix when set,
// "--distinct-client-seed" when asked, the dialect's own flags, the pass's live metrics
// ("--statsd-host H --statsd-port P", loadgen's
// "--prometheus-port N", "--statsd-run-label L"), "--json-out-file". What a tool
// cannot express is its driver's to refuse first; the password never goes here.
std::vector<std::string> MemtierStyleArgs(const Target& target, const core::Load& load,
                                          const core::Pass& pass, MemtierDialect dialect,
                                          const std::string& report_path);

}  // namespace dfbench::drivers
