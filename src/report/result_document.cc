#include "report/result_document.h"

#include <system_error>

#include "core/files.h"
#include "results/command_schema.h"
#include "results/json_util.h"

namespace dfbench::report {
namespace {

core::Error UsageError(std::string message) {
  return core::Error{core::ErrorKind::kUsage, std::move(message)};
}

// Read by the schema's own reader (results/command_schema.h), then kept as compare and report
// use it: each command's engine rows, the load settings as JSON.
bool ReadCommands(const nlohmann::json& j, CommandsResults* out, std::string* error) {
  results::CommandRunResults file;
  if (!results::FromJson(j, &file, error)) return false;
  out->run_id = std::move(file.run_id);
  out->setup_id = std::move(file.setup_id);
  out->created_at = std::move(file.created_at);
  out->completed_at = std::move(file.completed_at);
  out->status = file.status;
  out->region = std::move(file.region);
  out->server_instance = std::move(file.server_instance);
  out->client_instance = std::move(file.client_instance);
  out->tool = std::move(file.tool);
  out->memtier = results::ToJson(file.memtier);
  out->trials = file.trials;
  for (auto& c : file.commands) {
    CommandEntry& entry =
        out->commands.emplace_back(CommandEntry{.command = std::move(c.command),
                                                .template_text = std::move(c.tmpl),
                                                .approximate = c.approximate,
                                                .engines = {}});
    for (auto& e : c.engines) entry.engines.push_back(std::move(e.result));
  }
  out->context = std::move(file.context);
  return true;
}

}  // namespace

const char* ShapeName(Shape shape) {
  switch (shape) {
    case Shape::kRun:
      return "run";
    case Shape::kCommands:
      return "commands";
    case Shape::kReplication:
      return "replication";
    case Shape::kSweep:
      return "sweep";
    case Shape::kMemory:
      return "memory";
  }
  return "?";
}

const std::string& ResultDocument::RunId() const {
  switch (shape) {
    case Shape::kRun:
      return run.run_id;
    case Shape::kCommands:
      return commands.run_id;
    case Shape::kReplication:
      return replication.run_id;
    case Shape::kSweep:
      return sweep.run_id;
    case Shape::kMemory:
      return memory.run_id;
  }
  return run.run_id;
}

core::Result<Shape> DetectShape(const nlohmann::json& doc) {
  if (!doc.is_object()) {
    return core::Fail(core::ErrorKind::kUsage, "not a dfbench result file (expected an object)");
  }
  if (auto it = doc.find("scenario"); it != doc.end() && it->is_string()) {
    if (*it == "replication") return Shape::kReplication;
    if (*it == "commands") return Shape::kCommands;
    if (*it == "sweep") return Shape::kSweep;
    if (*it == "memory") return Shape::kMemory;
  }
  const bool engines = doc.contains("engines");
  const bool cases = doc.contains("cases");
  const bool commands = doc.contains("commands");
  if (engines + cases + commands > 1) {
    return core::Fail(core::ErrorKind::kUsage,
                      "ambiguous result file: more than one of engines, commands and cases, and "
                      "no scenario tag");
  }
  if (engines) return Shape::kRun;
  if (cases) return Shape::kReplication;
  if (commands) return Shape::kCommands;
  return core::Fail(core::ErrorKind::kUsage,
                    "not a dfbench result file (no engines, commands or cases)");
}

core::Result<ResultDocument> ParseResultDocument(const nlohmann::json& doc, std::string source) {
  auto shape = DetectShape(doc);
  if (!shape) return tl::unexpected(shape.error());
  ResultDocument out;
  out.source = std::move(source);
  out.shape = *shape;
  std::string error;
  bool ok = false;
  switch (*shape) {
    case Shape::kRun:
      ok = results::FromJson(doc, &out.run, &error);
      break;
    case Shape::kCommands:
      ok = ReadCommands(doc, &out.commands, &error);
      break;
    case Shape::kReplication:
      ok = results::FromJson(doc, &out.replication, &error);
      break;
    case Shape::kSweep:
      ok = results::FromJson(doc, &out.sweep, &error);
      break;
    case Shape::kMemory:
      ok = results::FromJson(doc, &out.memory, &error);
      break;
  }
  if (!ok) return tl::unexpected(UsageError(error));
  return out;
}

core::Result<ResultDocument> LoadResultDocument(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path file = path;
  if (std::filesystem::is_directory(path, ec)) file = path / "results.json";
  auto text = core::ReadFile(file);
  // ReadFile's messages already name the file; a missing file is bad input here, not exit 3.
  if (!text) return tl::unexpected(UsageError(text.error().message));
  if (text->empty()) return tl::unexpected(UsageError(file.string() + ": empty file"));
  auto json = results::ParseJson(*text);
  if (!json) return tl::unexpected(UsageError(file.string() + ": " + json.error().message));
  auto doc = ParseResultDocument(*json, file.string());
  if (!doc) return tl::unexpected(UsageError(file.string() + ": " + doc.error().message));
  return doc;
}

}  // namespace dfbench::report
