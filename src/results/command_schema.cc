#include "results/command_schema.h"

#include <fmt/format.h>

#include "results/json_util.h"
#include "results/run_fields.h"
#include "results/writers.h"

namespace dfbench::results {
namespace {

// The reference's order for the fields it has; ours follow their neighbours.
const KeyOrder& CommandRunKeyOrder() {
  static const KeyOrder order = [] {
    KeyOrder order = SharedKeyOrder();
    order.insert({
        {"",
         {"scenario", "run_id", "setup_id", "created_at", "completed_at", "status", "region",
          "server_instance", "client_instance", "tool", "dfly_bench_ref", "memtier", "trials",
          "commands", "context"}},
        {"memtier",
         {"threads", "clients", "pipeline", "data_size", "key_maximum", "test_time_sec",
          "warmup_time_sec", "distinct_client_seed", "key_pattern", "qps"}},
        {"commands",
         {"command", "template", "approximate", "preload_template", "preload_items", "key_maximum",
          "mutates", "engines"}},
        {"engines",
         {"engine", "version", "origin", "sha256", "trials", "throughput", "p50", "p99", "p999",
          "avg_latency", "approximate", "error", "tuning", "preloads", "keyspace"}},
        {"preloads", {"before", "passes", "ops", "keys", "duration_sec"}},
        {"keyspace", {"trial", "keys_before", "keys_after"}},
    });
    return order;
  }();
  return order;
}

bool Read(const nlohmann::json& j, const std::string& path, CommandLoadConfig* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("threads", &out->threads);
  r.Field("clients", &out->clients);
  r.Field("pipeline", &out->pipeline);
  r.Field("data_size", &out->data_size);
  r.Field("key_maximum", &out->key_maximum);
  r.Field("test_time_sec", &out->test_time_sec);
  r.Field("warmup_time_sec", &out->warmup_time_sec);
  r.Field("distinct_client_seed", &out->distinct_client_seed);
  r.Field("key_pattern", &out->key_pattern);
  r.Field("qps", &out->qps);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, PreloadRecord* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("before", &out->before);
  r.Field("passes", &out->passes);
  r.Field("ops", &out->ops);
  r.Field("keys", &out->keys);
  r.Field("duration_sec", &out->duration_sec);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, TrialKeyspace* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("trial", &out->trial);
  r.Field("keys_before", &out->keys_before);
  r.Field("keys_after", &out->keys_after);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, CommandEngineResult* out,
          std::string* error) {
  // A null engine reads as defaults, as every element inside a document does.
  if (!j.is_null() && !FromJsonAt(j, path, &out->result, error)) return false;
  JsonReader r(j, path, error);
  r.Array("preloads", &out->preloads, Read);
  r.Array("keyspace", &out->keyspace, Read);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, CommandResult* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("command", &out->command);
  r.Field("template", &out->tmpl);
  r.Field("approximate", &out->approximate);
  r.Field("preload_template", &out->preload_template);
  r.Field("preload_items", &out->preload_items);
  r.Field("key_maximum", &out->key_maximum);
  r.Field("mutates", &out->mutates);
  r.Array("engines", &out->engines, Read);
  return r.ok();
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
  return {{"threads", c.threads},
          {"clients", c.clients},
          {"pipeline", c.pipeline},
          {"data_size", c.data_size},
          {"key_maximum", c.key_maximum},
          {"test_time_sec", c.test_time_sec},
          {"warmup_time_sec", c.warmup_time_sec},
          {"distinct_client_seed", c.distinct_client_seed},
          {"key_pattern", c.key_pattern},
          {"qps", c.qps}};
}

nlohmann::json ToJson(const CommandEngineResult& e) {
  nlohmann::json j = ToJson(e.result);
  nlohmann::json preloads = nlohmann::json::array();
  for (const auto& p : e.preloads) {
    preloads.push_back({{"before", p.before},
                        {"passes", p.passes},
                        {"ops", p.ops},
                        {"keys", p.keys},
                        {"duration_sec", JsonNumber(p.duration_sec)}});
  }
  nlohmann::json keyspace = nlohmann::json::array();
  for (const auto& k : e.keyspace) {
    keyspace.push_back(
        {{"trial", k.trial}, {"keys_before", k.keys_before}, {"keys_after", k.keys_after}});
  }
  j["preloads"] = std::move(preloads);
  j["keyspace"] = std::move(keyspace);
  return j;
}

nlohmann::json ToJson(const CommandResult& c) {
  nlohmann::json engines = nlohmann::json::array();
  for (const auto& e : c.engines) engines.push_back(ToJson(e));
  nlohmann::json j = {{"command", c.command},
                      {"template", c.tmpl},
                      {"preload_template", c.preload_template},
                      {"preload_items", c.preload_items},
                      {"key_maximum", c.key_maximum},
                      {"mutates", c.mutates},
                      {"engines", std::move(engines)}};
  if (c.approximate) j["approximate"] = true;
  return j;
}

nlohmann::json ToJson(const CommandRunResults& r) {
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& c : r.commands) commands.push_back(ToJson(c));
  nlohmann::json j = RunFieldsToJson(r);
  j.update({{"scenario", r.scenario},
            {"server_instance", r.server_instance},
            {"client_instance", r.client_instance},
            {"tool", r.tool},
            {"memtier", ToJson(r.memtier)},
            {"trials", r.trials},
            {"commands", std::move(commands)},
            {"context", ToJson(r.context)}});
  if (!r.dfly_bench_ref.empty()) j["dfly_bench_ref"] = r.dfly_bench_ref;
  return j;
}

bool FromJson(const nlohmann::json& j, CommandRunResults* out, std::string* error) {
  if (!j.is_object()) return JsonReader::Mismatch("", "an object", error);
  CommandRunResults value;
  JsonReader r(j, "", error);
  r.Field("scenario", &value.scenario);
  ReadRunFields(r, &value);
  r.Field("server_instance", &value.server_instance);
  r.Field("client_instance", &value.client_instance);
  r.Field("tool", &value.tool);
  r.Field("dfly_bench_ref", &value.dfly_bench_ref);
  r.Object("memtier", &value.memtier, Read);
  r.Field("trials", &value.trials);
  r.Array("commands", &value.commands, Read);
  r.Object("context", &value.context, FromJsonAt<Context>);
  if (!r.ok()) return false;
  if (value.scenario != "commands") {
    *error = "scenario: expected \"commands\", got \"" + value.scenario + "\"";
    return false;
  }
  *out = std::move(value);
  return true;
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
