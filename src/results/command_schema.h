// results.json of `dfbench run-commands` / `run-commands-dfly` (the reference's
// CommandRunResults and CommandResult). Field names follow the reference README; the per-engine
// rows reuse EngineResult and Stats, so files compare like those of `run`.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "results/run_status.h"
#include "results/schema.h"

namespace dfbench::results {

// The load settings of a per-command run. The reference calls the object "memtier" whatever
// the tool; for dfly_bench, threads are its --proactor_threads and clients its -c.
struct CommandLoadConfig : LoadSettings {
  CommandLoadConfig() : LoadSettings(kCommandLoad) {}
  uint64_t key_maximum = 100000000;
  int test_time_sec = 300;
  int warmup_time_sec = 10;
  // Beyond the reference schema:
  std::string key_pattern = "R";  // measured pass: memtier letter, or dfly_bench --key_dist
  int qps = 0;                    // dfly_bench --qps per connection (0: closed loop)
};

// One preload of an engine's keyspace (after a flush).
struct PreloadRecord {
  std::string before;  // what it prepared: "warmup", "trial 1", "trial 2" ...
  int passes = 0;      // load-generator passes over the whole key range
  uint64_t ops = 0;    // requests answered
  uint64_t keys = 0;   // DBSIZE afterwards
  double duration_sec = 0;
};

// The keyspace size (DBSIZE) when a trial started and ended.
struct TrialKeyspace {
  int trial = 0;
  uint64_t keys_before = 0;
  uint64_t keys_after = 0;
};

// One engine's row: the shared aggregate plus what shaped its keyspace.
// NOLINTNEXTLINE(bugprone-exception-escape): EngineResult's nlohmann::json member, as there.
struct CommandEngineResult {
  EngineResult result;  // engine, version, trials, Stats, approximate, error, tuning ...
  std::vector<PreloadRecord> preloads;
  std::vector<TrialKeyspace> keyspace;
};

// The command a run measured, with its engines.
struct CommandResult {
  std::string command;       // "SET", or --command-name
  std::string tmpl;          // written as "template": "SET __key__ __data__"
  bool approximate = false;  // draining: the keyspace can empty mid-trial (also per engine)
  // Beyond the reference schema:
  std::string preload_template;  // one request per pass ("" when nothing is preloaded)
  int preload_items = 0;         // items each key holds after a preload
  uint64_t key_maximum = 0;      // keys 1..key_maximum were measured (and preloaded)
  bool mutates = false;          // flushed and preloaded again before every trial
  std::vector<CommandEngineResult> engines;
};

struct CommandRunResults : RunFields {
  std::string scenario = "commands";
  std::string server_instance;
  std::string client_instance;
  CommandLoadConfig memtier;
  int trials = 3;
  std::vector<CommandResult> commands;  // the one command the run measured
  // Beyond the reference schema:
  std::string tool;            // builtin | memtier | dfly_bench
  std::string dfly_bench_ref;  // run-commands-dfly only
  Context context;
};

nlohmann::json ToJson(const CommandLoadConfig& c);
nlohmann::json ToJson(const CommandEngineResult& e);
nlohmann::json ToJson(const CommandResult& c);
nlohmann::json ToJson(const CommandRunResults& r);

// Lenient readers as in schema.h; errors name the field path ("commands[0].engines[1].trials[0].
// p99: expected a number"). A `scenario` other than "commands" is an error.
bool FromJson(const nlohmann::json& j, CommandRunResults* out, std::string* error);

// results.json: the reference's key order, two-space indented, trailing newline.
std::string RenderCommandRunJson(const CommandRunResults& r);
// results.csv: one row per (command, engine, trial), then one "median" row per (command,
// engine). Columns: command,engine,version,trial,throughput,p50,p99,p999,avg_latency,ops,
// errors,duration_sec,approximate
std::string RenderCommandRunCsv(const CommandRunResults& r);
// A header line naming the command and the load, then the engine table of `run`.
std::string RenderCommandRunTable(const CommandRunResults& r);

}  // namespace dfbench::results
