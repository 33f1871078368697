#include "results/command_schema.h"

#include <fmt/format.h>

#include "results/json_util.h"
#include "results/run_fields.h"
#include "results/schema_fields.h"
#include "results/writers.h"

namespace dfbench::results {
void Fields(auto& v, FieldsOf<CommandLoadConfig> auto& x) {
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

namespace {

// The reference's order for the fields it has; ours follow their neighbours.
const KeyOrder& CommandRunKeyOrder() {
  static const KeyOrder order = [] {
    KeyOrder order = SharedKeyOrder();
    order.insert({
        {"", FieldKeys::Of<CommandRunResults>()},
        {"memtier", FieldKeys::Of<CommandLoadConfig>()},
        {"commands", FieldKeys::Of<CommandResult>()},
        // An engine's own fields keep their place before the shared ones here.
        {"engines",
         {"engine", "version", "origin", "sha256", "trials", "throughput", "p50", "p99", "p999",
          "avg_latency", "approximate", "error", "tuning", "preloads", "keyspace"}},
        {"preloads", FieldKeys::Of<PreloadRecord>()},
        {"keyspace", FieldKeys::Of<TrialKeyspace>()},
    });
    return order;
  }();
  return order;
}

std::string Header(const CommandRunResults& r) {
  const CommandLoadConfig& m = r.memtier;
  std::string line;
  if (!r.run_id.empty()) line += "commands " + r.run_id + " · ";
  for (const auto& c : r.commands) line += c.command + " · ";
  line += fmt::format("{} trial{} × {} s · {} threads × {} clients · pipeline {} · {} B", r.trials,
                      r.trials == 1 ? "" : "s", m.test_time_sec, m.threads, m.clients, m.pipeline,
                      m.data_size);
  if (!r.commands.empty() && r.commands.front().key_maximum > 0) {
    line += fmt::format(" · {} keys", r.commands.front().key_maximum);
  }
  if (!r.tool.empty()) line += " · " + r.tool;
  if (r.status && *r.status != RunStatus::kCompleted) line += " · " + ToString(r.status);
  return line + "\n";
}

}  // namespace

nlohmann::json ToJson(const CommandLoadConfig& c) {
  return FieldsToJson(c);
}
nlohmann::json ToJson(const CommandEngineResult& e) {
  return FieldsToJson(e);
}
nlohmann::json ToJson(const CommandResult& c) {
  return FieldsToJson(c);
}
nlohmann::json ToJson(const CommandRunResults& r) {
  return FieldsToJson(r);
}

bool FromJson(const nlohmann::json& j, CommandRunResults* out, std::string* error) {
  return ReadScenarioDocument(j, "commands", out, error);
}

std::string RenderCommandRunJson(const CommandRunResults& r) {
  return DumpPretty(Ordered(ToJson(r), CommandRunKeyOrder()));
}

std::string RenderCommandRunCsv(const CommandRunResults& r) {
  std::string out = CsvRow({"command", "engine", "version", "trial", "throughput", "p50", "p99",
                            "p999", "avg_latency", "ops", "errors", "duration_sec", "approximate"});
  for (const auto& c : r.commands) {
    for (const auto& row : c.engines) {
      const EngineResult& e = row.result;
      for (const auto& t : e.trials) {
        out +=
            CsvRow({c.command, e.engine, e.version, std::to_string(t.trial),
                    CsvNumber(t.throughput), CsvNumber(t.p50), CsvNumber(t.p99), CsvNumber(t.p999),
                    CsvNumber(t.avg_latency), std::to_string(t.ops), std::to_string(t.errors),
                    CsvNumber(t.duration_sec), e.approximate ? "true" : "false"});
      }
    }
  }
  for (const auto& c : r.commands) {
    for (const auto& row : c.engines) {
      const EngineResult& e = row.result;
      if (e.trials.empty()) continue;
      out +=
          CsvRow({c.command, e.engine, e.version, "median", CsvNumber(e.throughput.median),
                  CsvNumber(e.p50.median), CsvNumber(e.p99.median), CsvNumber(e.p999.median),
                  CsvNumber(e.avg_latency.median), "", "", "", e.approximate ? "true" : "false"});
    }
  }
  return out;
}

std::string RenderCommandRunTable(const CommandRunResults& r) {
  std::vector<EngineResult> engines;
  for (const auto& c : r.commands) {
    for (const auto& row : c.engines) engines.push_back(row.result);
  }
  return Header(r) + RenderEngineTable(engines);
}

}  // namespace dfbench::results
