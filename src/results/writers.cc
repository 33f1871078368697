#include "results/writers.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "core/table.h"
#include "core/text.h"
#include "results/key_order.h"
#include "results/number_format.h"

namespace dfbench::results {
namespace {

constexpr size_t kMaxNoteChars = 80;

std::string Millis(double ms) {
  return core::Format("{:.3f}", ms);
}

// The first line of `text`, cut to `max` characters.
std::string OneLine(const std::string& text, size_t max) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > max) line = line.substr(0, max - 3) + "...";
  return line;
}

std::string HeaderLine(const RunResults& r) {
  const RunLoadRecord& m = r.memtier;
  std::string line;
  if (!r.run_id.empty()) line += "run " + r.run_id + " · ";
  line += core::Format("{} trial{} · {} threads × {} clients · pipeline {} · ratio {} · {} B",
                       r.trials, r.trials == 1 ? "" : "s", m.threads, m.clients, m.pipeline,
                       m.ratio, m.data_size);
  if (m.test_time_sec > 0) line += core::Format(" · {} s each", m.test_time_sec);
  if (r.status && *r.status != RunStatus::kCompleted) line += " · " + ToString(r.status);
  return line + "\n";
}

// CSV field quoting (RFC 4180): quote fields holding a comma, quote or line break.
std::string CsvField(const std::string& raw) {
  // A cell may quote a server (its version, an error reply): through the gate. A line break
  // stays, quoted, as CSV allows.
  std::string s = core::Printable(raw, /*keep_newlines=*/true);
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string Num(double v) {
  return CsvNumber(v);
}

// The engine as a table names it: its label, and its own client profile when it had one.
std::string EngineCell(const EngineResult& e) {
  if (!e.client_profile) return e.Label();
  const core::ClientProfile& p = *e.client_profile;
  return core::Format("{} [client {}x{} p{}]", e.Label(), p.threads, p.clients, p.pipeline);
}

}  // namespace

std::string CsvRow(const std::vector<std::string>& fields) {
  std::string row;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) row += ',';
    row += CsvField(fields[i]);
  }
  return row + "\n";
}

// Shortest text that reads back as the same double: 2646502, 4.6.
std::string CsvNumber(double v) {
  return core::Format("{}", v);
}

std::string CsvNumber(double v, int max_decimals) {
  const double scale = std::pow(10.0, max_decimals);
  // An integer count of the last decimal divided by the scale is the double nearest to the
  // rounded decimal, whose shortest form is that decimal.
  const double rounded = std::round(v * scale) / scale;
  return CsvNumber(rounded == 0 ? 0.0 : rounded);  // no "-0"
}

std::string RenderRunTable(const RunResults& r) {
  return HeaderLine(r) + RenderEngineTable(r.engines);
}

namespace {

// "client-bound in 2 of 3 trials": its figures measure the load generator as much as the engine.
std::string ClientBoundNote(const EngineResult& e) {
  const size_t bound = e.ClientBoundTrials();
  if (bound == 0) return "";
  return core::Format("client-bound in {} of {} trial{} (add load generators)", bound,
                      e.trials.size(), e.trials.size() == 1 ? "" : "s");
}

}  // namespace

std::string RenderEngineTable(const std::vector<EngineResult>& engines) {
  bool notes = false;
  for (const auto& e : engines) {
    notes = notes || !e.error.empty() || e.approximate || !ClientBoundNote(e).empty();
  }

  using Align = core::Table::Align;
  std::vector<std::string> header = {"ENGINE", "VERSION", "OPS/SEC",  "RANGE",
                                     "P50 ms", "P99 ms",  "P99.9 ms", "AVG ms"};
  std::vector<Align> align = {Align::kLeft,  Align::kLeft,  Align::kRight, Align::kRight,
                              Align::kRight, Align::kRight, Align::kRight, Align::kRight};
  if (notes) {
    header.emplace_back("NOTE");
    align.push_back(Align::kLeft);
  }
  core::Table table(header, align);
  bool profiles = false;
  for (const auto& e : engines) {
    profiles = profiles || e.client_profile;
    const bool measured = !e.trials.empty();
    auto latency = [&](const Stats& s) { return measured ? Millis(s.median) : "-"; };
    std::vector<std::string> row = {
        EngineCell(e),
        e.version.empty() ? "-" : e.version,
        measured ? WithSeparators(e.throughput.median) : "-",
        e.trials.size() >= 2
            ? core::Format("[{}..{}]", ShortCount(e.throughput.min), ShortCount(e.throughput.max))
            : "-",
        latency(e.p50),
        latency(e.p99),
        latency(e.p999),
        latency(e.avg_latency)};
    if (notes) {
      std::string note = e.approximate ? "approximate" : "";
      if (const std::string bound = ClientBoundNote(e); !bound.empty()) {
        note += (note.empty() ? "" : "; ") + bound;
      }
      if (!e.error.empty()) note += (note.empty() ? "" : "; ") + OneLine(e.error, kMaxNoteChars);
      row.push_back(note);
    }
    table.AddRow(std::move(row));
  }
  if (!profiles) return table.Render();
  return table.Render() +
         "[client TxC pP]: that engine's own client profile (threads x clients, pipeline); the "
         "engines did not get the same load\n";
}

std::string RenderClientTable(const std::vector<EngineResult>& engines) {
  using Align = core::Table::Align;
  core::Table table(
      {"ENGINE", "TRIAL", "GENERATOR", "CONNS", "OPS/SEC", "P50 ms", "P99 ms", "P99.9 ms", "CPU",
       "WANTED", "START +ms", "NOTE"},
      {Align::kLeft, Align::kRight, Align::kLeft, Align::kRight, Align::kRight, Align::kRight,
       Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kLeft});
  bool any = false;
  const auto pct = [](double share) { return core::Format("{:.0f}%", share * 100); };
  for (const auto& e : engines) {
    for (const auto& t : e.trials) {
      for (const auto& c : t.clients) {
        any = true;
        table.AddRow({e.Label(), std::to_string(t.trial), c.name,
                      core::Format("{}x{}", c.threads, c.clients), WithSeparators(c.throughput),
                      Millis(c.p50), Millis(c.p99), Millis(c.p999), pct(c.client_cpu),
                      pct(c.client_cpu_demand), core::Format("{:.3f}", c.start_offset_ms),
                      c.client_bound ? "client-bound" : ""});
      }
    }
  }
  return any ? table.Render() : "";
}

std::string RenderRunCsv(const RunResults& r) {
  std::string out = CsvRow({"engine", "version", "trial", "throughput", "p50", "p99", "p999",
                            "avg_latency", "ops", "errors", "duration_sec", "failed"});
  for (const auto& e : r.engines) {
    for (const auto& t : e.trials) {
      out += CsvRow({e.engine, e.version, std::to_string(t.trial), Num(t.throughput), Num(t.p50),
                     Num(t.p99), Num(t.p999), Num(t.avg_latency), std::to_string(t.ops),
                     std::to_string(t.errors), Num(t.duration_sec), t.failed});
    }
  }
  for (const auto& e : r.engines) {
    // An engine that failed before its first trial: one row naming why, so that the payload
    // says what happened to it.
    if (e.trials.empty() && !e.error.empty()) {
      out += CsvRow({e.engine, e.version, "", "", "", "", "", "", "", "", "", e.error});
    }
  }
  for (const auto& e : r.engines) {
    if (e.trials.empty()) continue;
    out +=
        CsvRow({e.engine, e.version, "median", Num(e.throughput.median), Num(e.p50.median),
                Num(e.p99.median), Num(e.p999.median), Num(e.avg_latency.median), "", "", "", ""});
  }
  return out;
}

// In the reference's order: that of RunResults' field lists, our additions beside their
// neighbours.
std::string RenderRunJson(const RunResults& r) {
  return RenderDocument(r);
}

}  // namespace dfbench::results
