// The fields every result file opens with, whatever its scenario: which run, of which setup,
// when, how it ended and where. One home for their names, shared by the writers and readers.
#pragma once

#include <optional>
#include <string>

#include "results/json_fields.h"
#include "results/run_status.h"

namespace dfbench::results {

// The opening fields of a result document; each document's struct derives from it.
struct RunFields {
  std::string run_id;
  std::string setup_id;
  std::string created_at;
  std::string completed_at;
  std::optional<RunStatus> status;  // absent in some reference files
  std::string region;
};

// Visits the fields of RunFields (for a document's own field list).
template <class V, class Document>
void VisitRunFields(V& v, Document& x) {
  DFBENCH_FIELDS(run_id, setup_id, created_at, completed_at)
  v.Enum("status", &x.status, kRunStatusNames);
  DFBENCH_FIELDS(region)
}

// Reads a document whose `scenario` must be `expected` ("memory"): the scenario first, so a
// file of another scenario says so before anything else, then all its fields.
template <class Document>
bool ReadScenarioDocument(const nlohmann::json& j, const std::string& expected, Document* out,
                          std::string* error) {
  if (!j.is_object()) return JsonReader::Mismatch("", "an object", error);
  std::string scenario = expected;
  JsonReader r(j, "", error);
  r.Field("scenario", &scenario);
  if (!r.ok()) return false;
  if (scenario != expected) {
    *error = "scenario: expected \"" + expected + "\", got \"" + scenario + "\"";
    return false;
  }
  return FieldsFromJson(j, "", out, error);
}

}  // namespace dfbench::results
