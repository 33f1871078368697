// `setup --tune-network`: steer the server NIC's interrupts and RPS/XPS onto the top CPUs
// (engines::NetworkIoCpus), leaving the low CPUs to Dragonfly's shards.
#pragma once

#include <string>
#include <vector>

#include "hosts/host.h"
#include "results/schema.h"
#include "state/provider_data.h"

namespace dfbench::providers {

// A sysfs CPU mask ("rps_cpus" format): 32-bit hex groups, most significant first, comma
// separated ("ffff0000"; "00000001,00000000" for CPU 32).
std::string CpuMaskHex(const std::vector<int>& cpus);

// The POSIX sh script that does the steering. $1 interface, $2 I/O CPUs (space separated),
// $3 RPS mask, $4 one mask per I/O CPU (space separated, same order). Prints
// "irqs=N rps=N xps=N". Needs root.
const char* NetTuneScript();

// Steers `facts.nic` on `server` (run as root or through sudo, see `as_root`). Never fails:
// the result records what was done or why nothing was.
state::NetworkTuning TuneNetwork(hosts::Host& server, const results::HostFacts& facts,
                                 bool as_root);

}  // namespace dfbench::providers
