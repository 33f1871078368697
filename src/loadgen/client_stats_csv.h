// memtier's --client-stats files (run_stats::save_csv): one CSV per client, its per-second
// figures, then each command's whole-run latency table, then, in cluster mode, its
// redirections per second.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "loadgen/client_tally.h"
#include "loadgen/workload.h"

namespace dfbench::loadgen {

// What the files are laid out for: memtier's SET/GET/WAIT columns (SET/GET mode, `slots`
// folded by kind), or one group of columns per --command, named by its type.
struct ClientCsvLayout {
  std::vector<Slot::Kind> kinds;   // per slot
  std::vector<std::string> types;  // per slot: "SET", "LPUSH"
  bool commands = false;           // --command given: memtier's arbitrary-commands layout
  bool cluster = false;            // SET/GET mode only: the cluster section follows
};
ClientCsvLayout MakeClientCsvLayout(const Workload& workload, bool commands, bool cluster);

// One client's file.
std::string ClientStatsCsv(const ClientTally& tally, const ClientCsvLayout& layout);

// The files of one worker's clients: <prefix>-<run>-<thread>-<client>.csv, as memtier names them.
std::vector<ClientStatsFile> ClientStatsFiles(std::span<const ClientTally> tallies,
                                              const ClientCsvLayout& layout,
                                              const std::string& prefix, int run, int thread);

}  // namespace dfbench::loadgen
