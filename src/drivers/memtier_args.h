// memtier_benchmark's flag vocabulary, shared by the memtier driver and the built-in driver
// (`dfbench loadgen` takes the same flags).
#pragma once

#include <string>
#include <vector>

#include "drivers/driver.h"

namespace dfbench::drivers {

// Appends "--server A --port P --protocol X --threads T --clients C --pipeline N".
void AppendConnectionArgs(std::vector<std::string>& args, const Target& target, int threads,
                          int clients, int pipeline);

// Appends how long a pass lasts: "--requests <per client>", "--test-time <test_time>" or, in
// a fill, "--requests <fill_requests>".
void AppendLengthArgs(std::vector<std::string>& args, const core::Pass& pass,
                      const std::string& test_time, const std::string& fill_requests);

// Appends what is sent: "--command C --command-key-pattern K" (P in a fill) or "--ratio R"
// (a fill without a command: "--ratio 1:0 --key-pattern P:P"), then "--data-size", the key
// range when set, and "--distinct-client-seed" when asked.
void AppendRequestArgs(std::vector<std::string>& args, const core::Load& load,
                       const core::Pass& pass);

}  // namespace dfbench::drivers
