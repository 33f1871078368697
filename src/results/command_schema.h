// results.json of `dfbench run-commands` / `run-commands-dfly` (the reference's
// CommandRunResults and CommandResult). Field names follow the reference README; the per-engine
// rows reuse EngineResult and Stats, so files compare like those of `run`.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/load.h"
#include "results/run_status.h"
#include "results/schema.h"

namespace dfbench::results {

// The load of a per-command run as its result files record it. The reference calls the object
// "memtier" whatever the tool; for dfly_bench, threads are its --proactor_threads and clients
// its -c. A file without a field reads the per-command default.
struct CommandLoadRecord {
  int threads = core::kCommandLoad.threads;
  int clients = core::kCommandLoad.clients;
  int pipeline = core::kCommandLoad.pipeline;
  int data_size = core::kCommandLoad.data_size;
  uint64_t key_maximum = core::kCommandLoad.key_maximum;
  int test_time_sec = static_cast<int>(core::kCommandTestTime.count());
  int warmup_time_sec = static_cast<int>(core::kCommandWarmupTime.count());
  bool distinct_client_seed = core::kCommandLoad.distinct_client_seed;
  // Beyond the reference schema:
  std::string key_pattern = "R";  // measured pass: memtier letter, or dfly_bench --key_dist
  int qps = 0;                    // dfly_bench --qps per connection (0: closed loop)
};
// What a per-command run of `load` records: its measured passes of `test_time` (paced at
// `rate_per_connection`, dfly_bench's --qps), after a warmup of `warmup_time`.
CommandLoadRecord RecordOf(const core::Load& load, std::chrono::seconds test_time,
                           std::chrono::seconds warmup_time, int64_t rate_per_connection);

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
  CommandLoadRecord memtier;
  int trials = 3;
  std::vector<CommandResult> commands;  // the one command the run measured
  // Beyond the reference schema:
  std::string tool;            // builtin | memtier | dfly_bench
  std::string dfly_bench_ref;  // run-commands-dfly only
  Context context;
};

// The field lists (json_fields.h): ToJson writes these structs and FromJson reads them, lenient
// as in schema.h, with errors naming the field path ("commands[0].engines[1].trials[0].p99:
// expected a number"); a `scenario` other than "commands" is an error.
void Fields(auto& v, FieldsOf<CommandLoadRecord> auto& x) {
  DFBENCH_FIELDS(threads, clients, pipeline, data_size, key_maximum, test_time_sec, warmup_time_sec,
                 distinct_client_seed, key_pattern, qps)
}

void Fields(auto& v, FieldsOf<PreloadRecord> auto& x) {
  DFBENCH_FIELDS(before, passes, ops, keys, duration_sec)
}

void Fields(auto& v, FieldsOf<TrialKeyspace> auto& x) {
  DFBENCH_FIELDS(trial, keys_before, keys_after)
}

// The shared engine row, with the keyspace's history beside its fields.
void Fields(auto& v, FieldsOf<CommandEngineResult> auto& x) {
  Fields(v, x.result);
  DFBENCH_FIELDS(preloads, keyspace)
}

void Fields(auto& v, FieldsOf<CommandResult> auto& x) {
  DFBENCH_FIELDS(command)
  v.Field("template", &x.tmpl);
  DFBENCH_OPTIONAL_FIELDS(approximate)
  DFBENCH_FIELDS(preload_template, preload_items, key_maximum, mutates, engines)
}

void Fields(auto& v, FieldsOf<CommandRunResults> auto& x) {
  DFBENCH_FIELDS(scenario)
  VisitRunFields(v, x);
  DFBENCH_FIELDS(server_instance, client_instance, tool)
  DFBENCH_OPTIONAL_FIELDS(dfly_bench_ref)
  DFBENCH_FIELDS(memtier, trials, commands, context)
}

// results.json: the reference's key order, two-space indented, trailing newline.
std::string RenderCommandRunJson(const CommandRunResults& r);
// results.csv: one row per (command, engine, trial), then one "median" row per (command,
// engine). Columns: command,engine,version,trial,throughput,p50,p99,p999,avg_latency,ops,
// errors,duration_sec,approximate
std::string RenderCommandRunCsv(const CommandRunResults& r);
// A header line naming the command and the load, then the engine table of `run`.
std::string RenderCommandRunTable(const CommandRunResults& r);

// Every engine row of the run, command by command (what its tables list).
std::vector<EngineResult> EngineRows(const CommandRunResults& r);

}  // namespace dfbench::results
