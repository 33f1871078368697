// Any dfbench result file, read whatever its shape: a run (`run`, `quickstart`), a per-command
// run (`run-commands`), a replication run (`run-replication`), a sweep (`sweep`) or a memory run
// (`run-memory`). Used by `compare` and `report`.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "results/memory_schema.h"
#include "results/replication_schema.h"
#include "results/schema.h"
#include "results/sweep_schema.h"

namespace dfbench::report {

enum class Shape { kRun, kCommands, kReplication, kSweep, kMemory };

struct ResultDocument;
struct Comparison;

// The groups a comparison of one kind matches: their noun in messages, their array in its JSON,
// the keys naming one there ("engine", "command", "run_name") and its columns in the table.
struct ShapeGroups {
  const char* noun;
  const char* array;
  std::vector<const char*> keys;
  std::vector<const char*> columns;
};

// What sets one result kind apart wherever the kinds are otherwise handled alike: one entry per
// Shape, so a new kind is one more entry (its member of ResultDocument, comparison and section).
struct ShapeSpec {
  const char* name;         // "run", "commands", "replication", "sweep", "memory"
  const char* description;  // in messages: "a run result (top-level engines)"
  ShapeGroups groups;
  // Reads the document's own member of ResultDocument; false with `*error` naming the path.
  bool (*read)(const nlohmann::json& j, ResultDocument* out, std::string* error);
  const std::string& (*run_id)(const ResultDocument& d);
  // The engines it names, in file order (the report's colours follow them); a replication
  // file's cases are coloured by their position instead, so it names none.
  std::vector<std::string> (*engine_names)(const ResultDocument& d);
  // Its groups' names, for a message when two files share none: "redis", "SET/redis", "maxload".
  std::vector<std::string> (*group_names)(const ResultDocument& d);
  // Pairs the groups of two documents of the kind into `out`: groups, only_in_*, notes.
  void (*compare)(const ResultDocument& baseline, const ResultDocument& candidate, Comparison* out);
  // Its section of the HTML report; `engines`, those of every file, keep colours stable.
  std::string (*html_section)(const ResultDocument& d, const std::string& anchor,
                              const std::vector<std::string>& engines);
};

const ShapeSpec& SpecOf(Shape shape);
inline const char* ShapeName(Shape shape) {
  return SpecOf(shape).name;
}

// One command of a per-command file: its engines' aggregates.
struct CommandEntry {
  std::string command;        // "SET"; may be empty for a custom template
  std::string template_text;  // memtier arbitrary-command form, "SET __key__ __data__"
  bool approximate = false;   // draining command: its keyspace can empty mid-trial
  std::vector<results::EngineResult> engines;

  // `command`, or the template when the command has no name.
  const std::string& Name() const { return command.empty() ? template_text : command; }
};

// The parts of a per-command file that compare and report use; unknown fields are ignored.
struct CommandsResults : results::RunFields {
  std::string server_instance;
  std::string client_instance;
  std::string tool;                  // "memtier" (or empty) or "dfly_bench"
  nlohmann::json memtier = nullptr;  // load settings, as written
  int trials = 0;
  std::vector<CommandEntry> commands;
  results::Context context;
};

struct ResultDocument {
  std::string source;  // where it came from (a path), for messages
  Shape shape = Shape::kRun;
  results::RunResults run;                     // kRun
  CommandsResults commands;                    // kCommands
  results::ReplicationRunResults replication;  // kReplication
  results::SweepResults sweep;                 // kSweep
  results::MemoryRunResults memory;            // kMemory

  // The run id of whichever shape it is.
  const std::string& RunId() const { return SpecOf(shape).run_id(*this); }
};

// The shape of a parsed file, as the reference detects it: `scenario` "replication" or
// "commands" (or our "sweep" and "memory") decides; otherwise a top-level `engines` means a run,
// `cases` replication, `commands` per-command. kUsage when the root is not an object, when none of
// these is present, or when several are and no `scenario` tells them apart.
core::Result<Shape> DetectShape(const nlohmann::json& doc);

// Detects the shape and reads the document. kUsage naming the field path on a wrong type.
core::Result<ResultDocument> ParseResultDocument(const nlohmann::json& doc, std::string source);

// Reads, parses and detects a file; a directory means its results.json. Every failure (missing,
// unreadable, malformed or truncated JSON, wrong types) is kUsage, with the path in the message.
core::Result<ResultDocument> LoadResultDocument(const std::filesystem::path& path);

}  // namespace dfbench::report
