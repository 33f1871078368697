#include "results/command_schema.h"

#include "core/format.h"
#include "results/key_order.h"
#include "results/writers.h"

namespace dfbench::results {
namespace {

std::string Header(const CommandRunResults& r) {
  const CommandLoadRecord& m = r.memtier;
  std::string line;
  if (!r.run_id.empty()) line += "commands " + r.run_id + " · ";
  for (const auto& c : r.commands) line += c.command + " · ";
  line += core::Format("{} trial{} × {} s · {} threads × {} clients · pipeline {} · {} B", r.trials,
                       r.trials == 1 ? "" : "s", m.test_time_sec, m.threads, m.clients, m.pipeline,
                       m.data_size);
  if (!r.commands.empty() && r.commands.front().key_maximum > 0) {
    line += core::Format(" · {} keys", r.commands.front().key_maximum);
  }
  if (!r.tool.empty()) line += " · " + r.tool;
  if (r.status && *r.status != RunStatus::kCompleted) line += " · " + ToString(r.status);
  return line + "\n";
}

}  // namespace

CommandLoadRecord RecordOf(const core::Load& load, std::chrono::seconds test_time,
                           std::chrono::seconds warmup_time, int64_t rate_per_connection) {
  return {.threads = load.threads,
          .clients = load.clients,
          .pipeline = load.pipeline,
          .data_size = load.data_size,
          .key_maximum = load.key_maximum,
          .test_time_sec = static_cast<int>(test_time.count()),
          .warmup_time_sec = static_cast<int>(warmup_time.count()),
          .distinct_client_seed = load.distinct_client_seed,
          .key_pattern = std::string(1, static_cast<char>(load.key_pattern)),
          .qps = static_cast<int>(rate_per_connection)};
}

// The reference's order for the fields it has; ours follow their neighbours. An engine's own
// fields keep their place before the shared ones here.
std::string RenderCommandRunJson(const CommandRunResults& r) {
  return RenderDocument(
      r, {{"engines",
           {"engine", "version", "origin", "sha256", "trials", "throughput", "p50", "p99", "p999",
            "avg_latency", "approximate", "error", "tuning", "preloads", "keyspace"}}});
}

std::string RenderCommandRunCsv(const CommandRunResults& r) {
  std::string out =
      CsvRow({"command", "engine", "version", "trial", "throughput", "p50", "p99", "p999",
              "avg_latency", "ops", "errors", "duration_sec", "approximate", "failed"});
  for (const auto& c : r.commands) {
    for (const auto& row : c.engines) {
      const EngineResult& e = row.result;
      for (const auto& t : e.trials) {
        out +=
            CsvRow({c.command, e.engine, e.version, std::to_string(t.trial),
                    CsvNumber(t.throughput), CsvNumber(t.p50), CsvNumber(t.p99), CsvNumber(t.p999),
                    CsvNumber(t.avg_latency), std::to_string(t.ops), std::to_string(t.errors),
                    CsvNumber(t.duration_sec), e.approximate ? "true" : "false", t.failed});
      }
    }
  }
  for (const auto& c : r.commands) {
    for (const auto& row : c.engines) {
      const EngineResult& e = row.result;
      if (e.trials.empty()) continue;
      out += CsvRow({c.command, e.engine, e.version, "median", CsvNumber(e.throughput.median),
                     CsvNumber(e.p50.median), CsvNumber(e.p99.median), CsvNumber(e.p999.median),
                     CsvNumber(e.avg_latency.median), "", "", "", e.approximate ? "true" : "false",
                     ""});
    }
  }
  return out;
}

std::vector<EngineResult> EngineRows(const CommandRunResults& r) {
  std::vector<EngineResult> engines;
  for (const auto& c : r.commands) {
    for (const auto& row : c.engines) engines.push_back(row.result);
  }
  return engines;
}

std::string RenderCommandRunTable(const CommandRunResults& r) {
  return Header(r) + RenderEngineTable(EngineRows(r));
}

}  // namespace dfbench::results
