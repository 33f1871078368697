// The load a benchmark asks of a load generator, whichever tool sends it: a `Load` (what each
// connection sends and how hard) and a `Pass` (how long one run of the generator lasts and how
// it is paced). Scenario options hold a Load as cli set it from the flags; the drivers turn a
// Load and a Pass into a tool's command line, nothing in between. Result files record the load
// under the reference's "memtier" key (results::RunLoadRecord, CommandLoadRecord: RecordOf).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/live_metrics.h"
#include "core/units.h"

namespace dfbench::core {

// How keys are chosen, in memtier's letters. dfly_bench's U, S, N, Z are R, S, G, Z here.
enum class KeyPattern : char {
  kRandom = 'R',      // uniform over [key_minimum, key_maximum]
  kSequential = 'S',  // every connection walks the whole range, wrapping
  kParallel = 'P',    // each connection walks its own disjoint slice of the range
  kGaussian = 'G',    // normal around the key median with its standard deviation
  kZipf = 'Z',        // rank 1 (the key minimum) hottest, P(rank) ~ 1/rank^exponent
};

// Writes alone: a preload's, and the update traffic beside a snapshot.
inline constexpr Ratio kSetsOnly{.set = 1, .get = 0};

struct Load {
  int threads = 0;
  int clients = 0;                    // connections per thread
  int pipeline = 0;                   // requests in flight per connection
  int data_size = 0;                  // value bytes
  bool distinct_client_seed = false;  // each connection its own random seed
  Ratio ratio{.set = 1, .get = 10};   // memtier's default; unused when `command` is set
  // When set, only this request is sent (memtier's arbitrary-command mode), e.g.
  // "LPUSH __key__ __data__".
  std::string command;
  KeyPattern key_pattern = KeyPattern::kRandom;  // for `command`
  uint64_t key_minimum = 0;                      // both 0: the generator's default range
  uint64_t key_maximum = 0;
  // "" : the generator's own ("memtier-"); "key:" matches the keys DEBUG POPULATE makes.
  std::string key_prefix;
  // Latency percentiles the report holds; empty = the generator's default (50, 99, 99.9).
  std::vector<double> percentiles;
  // One of several generators' share: its connections seed as if numbered from here (with
  // distinct_client_seed), continuing the generators before it (built-in generator only).
  int seed_client_base = 0;

  uint64_t KeyCount() const { return key_maximum - key_minimum + 1; }
  bool operator==(const Load&) const = default;
};

// One engine's own connection shape, when a run is asked to drive the engines differently (as
// each vendor tuned the client for its engine): 0 keeps the run's value. Results record the
// shape it gave (results::EngineResult::client_profile) and tables mark it.
struct ClientProfile {
  int threads = 0;
  int clients = 0;   // connections per thread
  int pipeline = 0;  // requests in flight per connection

  // `load` with this profile's non-zero values in place of its own.
  Load AppliedTo(Load load) const {
    if (threads > 0) load.threads = threads;
    if (clients > 0) load.clients = clients;
    if (pipeline > 0) load.pipeline = pipeline;
    return load;
  }
  bool operator==(const ClientProfile&) const = default;
};

// `run`, `quickstart` and `sweep`: the reference's memtier defaults.
inline const Load kRunLoad{.threads = 4, .clients = 50, .pipeline = 30, .data_size = 256};
// `run`'s requests per connection per trial (memtier's --requests), the reference's default.
inline constexpr uint64_t kRunRequestsPerClient = 1000000;
// `run-commands` and `run-commands-dfly`, as the reference's: keys 1..100,000,000, trials of
// 300 s after a 10 s warmup.
inline const Load kCommandLoad{.threads = 32,
                               .clients = 5,
                               .pipeline = 20,
                               .data_size = 256,
                               .distinct_client_seed = true,
                               .key_maximum = 100000000};
inline constexpr std::chrono::seconds kCommandTestTime{300};
inline constexpr std::chrono::seconds kCommandWarmupTime{10};
// `run-memory`: a light update traffic beside the snapshot.
inline const Load kMemoryLoad{
    .threads = 2, .clients = 10, .pipeline = 1, .data_size = 1024, .ratio = kSetsOnly};

// `run-replication`, as the reference (and the upstream playground/replication-bench it
// mirrors) runs dfly_bench, whichever generator sends them: the preload's writes over 4 threads x
// 15 connections, pipeline 10; the load clients send meanwhile, 1 thread x 2 connections,
// pipeline 5. The value size, ratio and key range are the run's.
inline const Load kReplicationPreload{
    .threads = 4, .clients = 15, .pipeline = 10, .distinct_client_seed = true, .ratio = kSetsOnly};
inline const Load kReplicationLoad{.threads = 1, .clients = 2, .pipeline = 5};

// The settings a command line sets as numbers, in the order of each command's spellings
// (cli/load_flags); their ranges are load_limits.h's.
inline constexpr std::array<int Load::*, 4> kRangedLoadSettings = {
    &Load::threads, &Load::clients, &Load::pipeline, &Load::data_size};

struct Pass {
  enum class Length {
    kRequests,  // requests_per_client on every connection
    kTestTime,  // test_time
    kFill,      // every key of the load's range gets exactly one `command` (preload)
  };
  Length length = Length::kRequests;
  // kRequests: what each connection sends, as memtier's --requests (a pass sends
  // threads x clients x requests_per_client in all).
  uint64_t requests_per_client = 0;
  // kTestTime. To the microsecond, as the built-in generator reads --test-time (500ms); the
  // external tools take whole seconds, which is all a benchmark's flags ask.
  std::chrono::microseconds test_time{0};
  // The built-in generator's open loop: total operations per second over all connections,
  // latency measured from when each request was due; 0 = closed loop.
  double rate_per_sec = 0;
  // dfly_bench --qps: batches of `pipeline` requests per second per connection; 0 = closed loop.
  int64_t rate_per_connection = 0;
  // A discarded warm-up at the start of a time-boxed pass (built-in generator only).
  std::chrono::microseconds warmup_time{0};
  // Several generators: hold the measured part until this instant of the client host's clock,
  // microseconds since the epoch (0: at once; built-in generator only).
  int64_t start_at_us = 0;
  // Sent while the pass runs (built-in generator; memtier_benchmark has StatsD only).
  LiveMetrics live_metrics;

  static Pass Requests(uint64_t per_client) {
    return {.length = Length::kRequests, .requests_per_client = per_client};
  }
  static Pass Time(std::chrono::microseconds length) {
    return {.length = Length::kTestTime, .test_time = length};
  }
  static Pass Fill() { return {.length = Length::kFill}; }
  bool operator==(const Pass&) const = default;
};

// A pass's durations as the external tools and result files spell them: benchmarks ask whole
// seconds and milliseconds, so nothing is cut.
inline int64_t WholeSeconds(std::chrono::microseconds d) {
  return std::chrono::duration_cast<std::chrono::seconds>(d).count();
}
inline int64_t WholeMilliseconds(std::chrono::microseconds d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

namespace detail {
inline uint64_t Positive(int n) {
  return static_cast<uint64_t>(n > 0 ? n : 0);
}
}  // namespace detail

// Requests of one kRequests pass over all connections.
inline uint64_t TotalRequests(const Load& load, const Pass& pass) {
  return detail::Positive(load.threads) * detail::Positive(load.clients) * pass.requests_per_client;
}

// What a time-boxed pass may leave answered by the server but not counted by the generator:
// up to one pipeline per connection in flight when it stops.
inline uint64_t InFlightAtStop(const Load& load) {
  return detail::Positive(load.threads) * detail::Positive(load.clients) *
         detail::Positive(load.pipeline);
}

}  // namespace dfbench::core
