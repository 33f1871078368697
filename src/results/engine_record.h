// What every kind of result row says of the engine it measured: which one, which build, how it
// was started and why it failed. The engine's turn (scenarios/frame/engine_turn) writes it; each
// row kind embeds it and places its keys in its own field list, where its file has them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace dfbench::results {

// Which build of an engine ran: its version as the running engine reported it, how it came to
// the host and its binary's digest; taken together from the install (state::BuildOf), so that
// no row records a version of one build with the digest of another.
struct EngineBuild {
  std::string version;
  std::string origin;
  std::string sha256;
};

// clang-tidy sees a throw inside nlohmann::json's special members (`tuning`), which the
// implicit ones of this struct and the rows embedding it call; there is none in our code.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct EngineRecord {
  std::string engine;   // dragonfly | redis | valkey | memcached ("": a reference file's case)
  std::string version;  // as the engine reports it: "Redis server v=7.0.15"
  std::string origin;   // how it came to the host: release | build | local | system ("": unknown)
  std::string sha256;   // of its binary, when dfbench installed it ("": unknown)
  nlohmann::json tuning = nullptr;  // the flags that shaped it (io_threads, num_shards ...)
  std::string error;                // non-empty when it failed; what was measured may be partial

  // Records `build`: version, origin and sha256 in one step.
  void SetBuild(EngineBuild build);

  // The topology its tuning records: "3 shards" (a cluster of that many processes), "emulated
  // cluster" (Dragonfly's --cluster_mode=emulated), "" for one process.
  std::string Topology() const;
  // The engine with its topology, as tables name it: "redis (3 shards)", "valkey".
  std::string Label() const;
};

}  // namespace dfbench::results
