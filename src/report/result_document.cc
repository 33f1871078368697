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
  static_cast<results::RunFields&>(*out) = file;  // the opening fields (a copy: `file` is read on)
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

// A document read by its schema's own reader into ResultDocument's member `M`, and its run id.
template <auto M>
bool ReadMember(const nlohmann::json& j, ResultDocument* out, std::string* error) {
  return results::FromJson(j, &(out->*M), error);
}
template <auto M>
const std::string& RunIdOf(const ResultDocument& d) {
  return (d.*M).run_id;
}

const std::vector<ShapeSpec>& Specs() {
  // In the order of Shape.
  static const std::vector<ShapeSpec> specs = {
      {"run",
       "a run result (top-level engines)",
       "engine",
       "engines",
       {"engine"},
       {"ENGINE"},
       ReadMember<&ResultDocument::run>,
       RunIdOf<&ResultDocument::run>},
      {"commands",
       "a per-command result (scenario \"commands\")",
       "command and engine",
       "commands",
       {"command", "engine"},
       {"COMMAND", "ENGINE"},
       [](const nlohmann::json& j, ResultDocument* out, std::string* error) {
         return ReadCommands(j, &out->commands, error);
       },
       RunIdOf<&ResultDocument::commands>},
      {"replication",
       "a replication result (scenario \"replication\")",
       "case",
       "cases",
       {"run_name"},
       {"CASE"},
       ReadMember<&ResultDocument::replication>,
       RunIdOf<&ResultDocument::replication>},
      {"sweep",
       "a sweep result (scenario \"sweep\")",
       "engine",
       "engines",
       {"engine"},
       {"ENGINE"},
       ReadMember<&ResultDocument::sweep>,
       RunIdOf<&ResultDocument::sweep>},
      {"memory",
       "a memory result (scenario \"memory\")",
       "engine",
       "engines",
       {"engine"},
       {"ENGINE"},
       ReadMember<&ResultDocument::memory>,
       RunIdOf<&ResultDocument::memory>},
  };
  return specs;
}

}  // namespace

const ShapeSpec& SpecOf(Shape shape) {
  return Specs().at(static_cast<size_t>(shape));
}

core::Result<Shape> DetectShape(const nlohmann::json& doc) {
  if (!doc.is_object()) {
    return core::Fail(core::ErrorKind::kUsage, "not a dfbench result file (expected an object)");
  }
  if (auto it = doc.find("scenario"); it != doc.end() && it->is_string()) {
    for (Shape s : {Shape::kReplication, Shape::kCommands, Shape::kSweep, Shape::kMemory}) {
      if (*it == SpecOf(s).name) return s;
    }
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
  if (!SpecOf(*shape).read(doc, &out, &error)) return tl::unexpected(UsageError(error));
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
