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

}  // namespace dfbench::results
