// The fields every result file opens with, whatever its scenario: which run, of which setup,
// when, how it ended and where. One home for their names, shared by the writers and readers.
#pragma once

#include <nlohmann/json.hpp>

#include "results/json_util.h"
#include "results/run_status.h"

namespace dfbench::results {

// run_id, setup_id, created_at, completed_at, status and region of `doc`, as JSON fields.
template <class Document>
nlohmann::json RunFieldsToJson(const Document& doc) {
  return {{"run_id", doc.run_id},           {"setup_id", doc.setup_id},
          {"created_at", doc.created_at},   {"completed_at", doc.completed_at},
          {"status", ToString(doc.status)}, {"region", doc.region}};
}

// Reads `scenario` into `*scenario`; false with `*error` set when it is not `expected`.
inline bool ReadScenario(JsonReader& r, const std::string& expected, std::string* scenario,
                         std::string* error) {
  r.Field("scenario", scenario);
  if (r.ok() && *scenario != expected) {
    *error = "scenario: expected \"" + expected + "\", got \"" + *scenario + "\"";
    return false;
  }
  return r.ok();
}

// Reads the same fields into `*doc`.
template <class Document>
void ReadRunFields(JsonReader& r, Document* doc) {
  r.Field("run_id", &doc->run_id);
  r.Field("setup_id", &doc->setup_id);
  r.Field("created_at", &doc->created_at);
  r.Field("completed_at", &doc->completed_at);
  r.Enum("status", &doc->status, kRunStatusNames);
  r.Field("region", &doc->region);
}

}  // namespace dfbench::results
