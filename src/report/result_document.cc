#include "report/result_document.h"

#include <system_error>

#include "core/files.h"
#include "report/shape_steps.h"
#include "results/command_schema.h"
#include "results/json_util.h"

namespace dfbench::report {
namespace {

core::Error UsageError(std::string message) {
  return core::Error{core::ErrorKind::kUsage, std::move(message)};
}

// Read by the schema's own reader (results/command_schema.h), then kept as compare and report
// use it: each command's engine rows, the load settings as JSON.
bool Read(const nlohmann::json& j, CommandsResults* out, std::string* error) {
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

// Every other kind is read as its schema writes it.
template <class Results>
bool Read(const nlohmann::json& j, Results* out, std::string* error) {
  return results::FromJson(j, out, error);
}

// The engines a kind names: its top-level engines, unless it names them otherwise.
template <class Results>
std::vector<std::string> EngineNames(const Results& r) {
  std::vector<std::string> names;
  for (const auto& e : r.engines) names.push_back(e.engine);
  return names;
}

std::vector<std::string> EngineNames(const CommandsResults& r) {
  std::vector<std::string> names;
  for (const auto& cmd : r.commands) {
    for (const auto& e : cmd.engines) names.push_back(e.engine);
  }
  return names;
}

std::vector<std::string> EngineNames(const results::ReplicationRunResults& /*cases*/) {
  return {};
}

// A kind's groups: its engines, unless it names them otherwise.
template <class Results>
std::vector<std::string> GroupNames(const Results& r) {
  return EngineNames(r);
}

std::vector<std::string> GroupNames(const CommandsResults& r) {
  std::vector<std::string> names;
  for (const auto& cmd : r.commands) {
    for (const auto& e : cmd.engines) names.push_back(cmd.Name() + "/" + e.engine);
  }
  return names;
}

std::vector<std::string> GroupNames(const results::ReplicationRunResults& r) {
  std::vector<std::string> names;
  for (const auto& c : r.cases) names.push_back(results::CaseName(c));
  return names;
}

// The steps of ShapeSpec for a kind kept in ResultDocument's member `M`, compared by `Compare`.
template <auto M>
bool ReadMember(const nlohmann::json& j, ResultDocument* out, std::string* error) {
  return Read(j, &(out->*M), error);
}
template <auto M>
const std::string& RunIdOf(const ResultDocument& d) {
  return (d.*M).run_id;
}
template <auto M>
std::vector<std::string> EngineNamesOf(const ResultDocument& d) {
  return EngineNames(d.*M);
}
template <auto M>
std::vector<std::string> GroupNamesOf(const ResultDocument& d) {
  return GroupNames(d.*M);
}
template <auto M, auto Compare>
void CompareMember(const ResultDocument& b, const ResultDocument& c, Comparison* out) {
  Compare(b.*M, c.*M, out);
}

// The entry of a kind: its reading, run id, engines, group names and comparison come from its
// member `M`.
template <auto M, auto Compare>
ShapeSpec Kind(const char* name, const char* description, const ShapeGroups& groups,
               decltype(ShapeSpec::html_section) html_section) {
  return ShapeSpec{.name = name,
                   .description = description,
                   .groups = groups,
                   .read = ReadMember<M>,
                   .run_id = RunIdOf<M>,
                   .engine_names = EngineNamesOf<M>,
                   .group_names = GroupNamesOf<M>,
                   .compare = CompareMember<M, Compare>,
                   .html_section = html_section};
}

const std::vector<ShapeSpec>& Specs() {
  // In the order of Shape.
  static const std::vector<ShapeSpec> specs = [] {
    const ShapeGroups per_engine{"engine", "engines", {"engine"}, {"ENGINE"}};
    return std::vector<ShapeSpec>{
        Kind<&ResultDocument::run, CompareRuns>("run", "a run result (top-level engines)",
                                                per_engine, html::RunSection),
        Kind<&ResultDocument::commands, CompareCommandRuns>(
            "commands", "a per-command result (scenario \"commands\")",
            {"command and engine", "commands", {"command", "engine"}, {"COMMAND", "ENGINE"}},
            html::CommandsSection),
        Kind<&ResultDocument::replication, CompareReplications>(
            "replication", "a replication result (scenario \"replication\")",
            {"case", "cases", {"run_name"}, {"CASE"}}, html::ReplicationSection),
        Kind<&ResultDocument::sweep, CompareSweeps>("sweep", "a sweep result (scenario \"sweep\")",
                                                    per_engine, html::SweepSection),
        Kind<&ResultDocument::memory, CompareMemoryRuns>(
            "memory", "a memory result (scenario \"memory\")", per_engine, html::MemorySection),
    };
  }();
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
