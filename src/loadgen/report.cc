#include "loadgen/report.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/version.h"
#include "loadgen/histogram.h"
#include "loadgen/latency_distribution.h"
#include "loadgen/report_configuration.h"
#include "loadgen/run_series.h"

namespace dfbench::loadgen {
namespace {

using Json = nlohmann::ordered_json;

double Round(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(v * scale) / scale;
}
double Ms(double v) {
  return Round(v, 5);
}
double Rate(double v) {
  return Round(v, 2);
}

Json PercentilesJson(const LatencySummary& l, const std::vector<double>& percentiles) {
  Json j = Json::object();
  for (size_t i = 0; i < percentiles.size() && i < l.percentiles_ms.size(); ++i) {
    j[PercentileKey(percentiles[i])] = Ms(l.percentiles_ms[i]);
  }
  return j;
}

Json SeriesJson(const std::vector<SeriesPoint>& series, const std::vector<double>& percentiles) {
  Json j = Json::object();
  for (size_t s = 0; s < series.size(); ++s) {
    const SeriesPoint& p = series[s];
    Json e;
    e["Bytes RX"] = p.bytes_rx;
    e["Bytes TX"] = p.bytes_tx;
    e["Count"] = p.latency.count;
    if (p.latency.count > 0) {
      e["Average Latency"] = Ms(p.latency.avg_ms);
      e["Accumulated Latency"] =
          std::llround(p.latency.avg_ms * static_cast<double>(p.latency.count));
      e["Min Latency"] = Ms(p.latency.min_ms);
      e["Max Latency"] = Ms(p.latency.max_ms);
      for (size_t i = 0; i < percentiles.size() && i < p.latency.percentiles_ms.size(); ++i) {
        e[SeriesPercentileKey(percentiles[i])] = Ms(p.latency.percentiles_ms[i]);
      }
    }
    j[std::to_string(s)] = std::move(e);
  }
  return j;
}

Json SectionJson(const SectionStats& s, const Report& r, const Config& config, bool totals) {
  const SectionRates rates = RatesOf(s, r, totals);
  Json j;
  j["Count"] = s.count;
  j["Ops/sec"] = Rate(rates.ops);
  j["Hits/sec"] = Rate(rates.hits);
  j["Misses/sec"] = Rate(rates.misses);
  if (config.cluster_mode) {
    j["MOVED/sec"] = Rate(rates.moved);
    j["ASK/sec"] = Rate(rates.ask);
  }
  j["Connection Errors/sec"] = Rate(rates.connection_errors);
  j["Connection Errors"] = totals ? r.connection_errors : 0;
  j["Latency"] = Ms(s.latency.avg_ms);
  j["Average Latency"] = Ms(s.latency.avg_ms);
  j["Accumulated Latency"] = std::llround(s.latency.avg_ms * static_cast<double>(s.count));
  j["Min Latency"] = Ms(s.latency.min_ms);
  j["Max Latency"] = Ms(s.latency.max_ms);
  j["KB/sec"] = Rate(rates.kb_rx + rates.kb_tx);
  j["KB/sec RX/TX"] = Rate(rates.kb_rx + rates.kb_tx);
  j["KB/sec RX"] = Rate(rates.kb_rx);
  j["KB/sec TX"] = Rate(rates.kb_tx);
  j["Time-Serie"] = SeriesJson(s.series, config.load.percentiles);
  j["Percentile Latencies"] = PercentilesJson(s.latency, config.load.percentiles);
  if (s.histogram) {
    // Where memtier puts its own; ours counts nanoseconds (dfbench's "histogram_unit").
    j["Percentile Latencies"]["Histogram log format"] = {
        {"Compressed Histogram", s.histogram->CompressedBase64()}};
  }
  return j;
}

Json UncorrectedJson(const LatencySummary& l, const std::vector<double>& percentiles) {
  Json j;
  j["Average Latency"] = Ms(l.avg_ms);
  j["Min Latency"] = Ms(l.min_ms);
  j["Max Latency"] = Ms(l.max_ms);
  j["Percentile Latencies"] = PercentilesJson(l, percentiles);
  return j;
}

// Each section's failed requests (error replies and requests lost with a connection), which
// memtier's sections do not count.
Json SectionErrorsJson(const Report& r) {
  Json j = Json::object();
  for (const auto& s : r.sections) j[s.section] = s.errors;
  j["Totals"] = r.totals.errors;
  return j;
}

// dfbench's own block, of the run or of the average of `runs` runs.
Json DfbenchJson(const Report& r, const Config& config, size_t runs) {
  Json d;
  d["version"] = core::GetBuildInfo().version;
  d["runs"] = runs;
  d["configuration"] = OwnConfigurationJson(config);
  // The sections' "Compressed Histogram" count nanoseconds; memtier's, microseconds.
  d["histogram_unit"] = "ns";
  d["section_errors"] = SectionErrorsJson(r);
  d["mode"] = r.open_loop ? "open-loop" : "closed-loop";
  d["target_rate"] = r.target_rate;
  d["achieved_rate"] = Rate(r.achieved_rate);
  // Every error, as dfbench's runs judge a trial: failed requests (error replies and requests
  // lost with a connection) and connection errors (memtier's "Connection Errors").
  d["errors"] = r.errors + r.connection_errors;
  d["lost_requests"] = r.lost_requests;
  d["error_samples"] = r.error_samples;
  d["connection_errors"] = r.connection_errors;
  d["reconnects"] = r.reconnects;
  if (config.tls.enabled) d["tls_handshakes"] = r.tls_handshakes;
  if (config.resp_version == 3) d["pushes"] = r.pushes;
  d["latency_measured_from"] = r.open_loop ? "due" : "send";
  d["latency_measured_to"] = config.RepliesStampedByKernel() ? "arrival" : "read";
  if (r.open_loop) {
    d["schedule_tick_us"] = static_cast<double>(config.ScheduleTickNs()) / 1000.0;
    d["uncorrected"] = UncorrectedJson(r.totals.uncorrected, config.load.percentiles);
    d["send_lag"] = UncorrectedJson(r.send_lag, config.load.percentiles);
  } else {
    d["schedule_tick_us"] = nullptr;
    d["uncorrected"] = nullptr;
    d["send_lag"] = nullptr;
  }
  d["warmup"] = {{"count", r.warmup_count}, {"duration", Round(r.warmup_duration_ms, 3)}};
  d["unanswered"] = r.unanswered;
  if (config.cluster_mode) {
    d["cluster"] = {{"nodes", r.cluster_nodes}, {"moved", r.totals.moved}, {"ask", r.totals.ask}};
  }
  d["interrupted"] = r.interrupted;
  d["aborted_reason"] = r.aborted_reason;
  if (r.ended_early.empty()) {
    d["ended_early"] = nullptr;
  } else {
    d["ended_early"] = {{"at_sec", Round(r.ended_at_sec, 3)}, {"reason", r.ended_early}};
  }
  d["start_epoch_us"] = r.start_epoch_us;
  d["finish_epoch_us"] =
      r.start_epoch_us + static_cast<int64_t>(std::llround(r.duration_ms * 1000));
  d["client_cpu"] = {{"cpu_sec", Round(r.client_cpu.cpu_sec, 3)},
                     {"wall_sec", Round(r.client_cpu.wall_sec, 3)},
                     {"usable_cpus", r.client_cpu.usable_cpus},
                     {"utilization", Round(r.client_cpu.Utilization(), 3)},
                     {"run_delay_sec", Round(r.client_cpu.run_delay_sec, 3)},
                     {"demand", Round(r.client_cpu.Demand(), 3)}};
  return d;
}

// memtier's WAIT section (its --wait-ratio), which a SET/GET run without WAITs shows idle.
SectionStats IdleWaits(const Report& r, const Config& config) {
  SectionStats w{.section = "Waits", .type = "WAIT"};
  w.series.resize(r.totals.series.size());
  w.latency.percentiles_ms.assign(config.load.percentiles.size(), 0.0);
  if (r.totals.histogram) {
    const core::HdrHistogram& h = *r.totals.histogram;
    if (auto empty = core::HdrHistogram::Make(h.lowest(), h.highest(), h.digits())) {
      w.histogram = std::move(*empty);
    }
  }
  return w;
}

}  // namespace

SectionRates RatesOf(const SectionStats& s, const Report& r, bool totals) {
  if (s.mean_rates) return *s.mean_rates;
  const double secs = r.seconds() > 0 ? r.seconds() : 1;
  const auto per_sec = [secs](uint64_t n) { return static_cast<double>(n) / secs; };
  return {.ops = per_sec(s.count),
          .hits = s.has_hits ? per_sec(s.hits) : 0,
          .misses = s.has_hits ? per_sec(s.misses) : 0,
          .moved = per_sec(s.moved),
          .ask = per_sec(s.ask),
          .kb_rx = per_sec(s.bytes_rx) / 1024,
          .kb_tx = per_sec(s.bytes_tx) / 1024,
          .connection_errors = totals ? per_sec(r.connection_errors) : 0};
}

double ClientCpu::Utilization() const {
  if (wall_sec <= 0 || usable_cpus <= 0) return 0;
  return cpu_sec / (wall_sec * usable_cpus);
}

double ClientCpu::Demand() const {
  if (wall_sec <= 0 || usable_cpus <= 0) return 0;
  return (cpu_sec + run_delay_sec) / (wall_sec * usable_cpus);
}

std::vector<core::HdrFile> HdrFiles(const Report& report, const std::string& prefix, int run) {
  std::vector<core::HdrFile> files;
  const double start = static_cast<double>(report.start_epoch_ms) / 1000;
  const double end = static_cast<double>(report.finish_epoch_ms) / 1000;
  const auto add = [&](const SectionStats& s, const std::string& stem, const std::string& what) {
    if (!s.histogram) return;
    for (auto& file : core::MemtierHdrFiles(*s.histogram, 1, stem, what, start, end)) {
      files.push_back(std::move(file));
    }
  };
  const std::string number = std::to_string(run);
  add(report.totals, prefix + "_FULL_RUN_" + number,
      "Full Run command HDR latency histogram results");
  for (const auto& s : report.sections) {
    add(s, prefix + "_" + s.type + "_command_run_" + number,
        s.type + " command HDR latency histogram results");
  }
  return files;
}

namespace {

// memtier's "p%.<decimals>f" cut to 6 characters; kept longer only when the cut would drop a
// digit other than 0.
std::string KeyOfPercentile(double percentile, int decimals) {
  char full[32];
  std::snprintf(full, sizeof(full), "p%.*f", decimals, percentile);
  std::string key(full);
  if (key.size() > 6 && key.find_first_not_of('0', 6) == std::string::npos) key.resize(6);
  if (key.back() == '.') key.pop_back();
  return key;
}

}  // namespace

std::string PercentileKey(double percentile) {
  return KeyOfPercentile(percentile, 3);
}

std::string SeriesPercentileKey(double percentile) {
  // Three decimals where two would round (99.999 is not 100).
  const double hundredths = percentile * 100;
  return KeyOfPercentile(percentile, hundredths == std::round(hundredths) ? 2 : 3);
}

LatencySummary Summarize(const LatencyHistogram& h, double sum_ns,
                         const std::vector<double>& percentiles) {
  LatencySummary s;
  s.count = h.count();
  if (s.count == 0) {
    s.percentiles_ms.assign(percentiles.size(), 0.0);
    return s;
  }
  s.avg_ms = sum_ns / static_cast<double>(s.count) / 1e6;
  s.min_ms = static_cast<double>(h.min_ns()) / 1e6;
  s.max_ms = static_cast<double>(h.max_ns()) / 1e6;
  for (double p : percentiles) {
    s.percentiles_ms.push_back(static_cast<double>(h.ValueAtPercentile(p)) / 1e6);
  }
  return s;
}

namespace {

// memtier's "Active Clients" of a staircase: the clients taking part in each second.
Json ActiveClientsJson(const std::vector<SeriesPoint>& series, int threads) {
  Json j = Json::object();
  for (size_t second = 0; second < series.size(); ++second) {
    const uint32_t total = series[second].clients;
    j[std::to_string(second)] = {{"Clients per thread", total / static_cast<uint32_t>(threads)},
                                 {"Total clients", total}};
  }
  return j;
}

}  // namespace

std::string ReportJson(std::span<const Report> runs, const Config& config) {
  Json root;
  root["configuration"] = MemtierConfigurationJson(config);
  Json info;
  info["Threads"] = config.load.threads;
  info["Connections per thread"] = config.load.clients;
  if (config.by_time()) {
    info["Seconds"] = root["configuration"]["test_time"];
  } else {
    info["Requests per client"] = config.RequestsForClient(0);
  }
  info["Format version"] = 2;
  root["run information"] = info;

  const std::vector<TitledReport> sections = RunSections(runs, config);
  for (const TitledReport& t : sections) {
    const Report& r = t.report;
    Json all;
    all["Runtime"] = {{"Start time", r.start_epoch_ms},
                      {"Finish time", r.finish_epoch_ms},
                      {"Total duration", Round(r.duration_ms, 3)},
                      {"Time unit", "MILLISECONDS"},
                      {"Interrupted", MemtierBool(r.interrupted)}};
    for (const auto& s : r.sections) all[s.section] = SectionJson(s, r, config, false);
    if (config.commands.empty() && !all.contains("Waits")) {
      all["Waits"] = SectionJson(IdleWaits(r, config), r, config, false);
    }
    all["Totals"] = SectionJson(r.totals, r, config, true);
    if (config.clients_start > 0) {
      all["Active Clients"] = ActiveClientsJson(r.totals.series, config.load.threads);
    }
    if (!config.hide_histogram) AddLatencyDistributionJson(r, config, &all);
    root[t.title] = std::move(all);
  }
  root["dfbench"] = DfbenchJson(sections.back().report, config, runs.size());
  return root.dump(2) + "\n";
}

namespace {

// printf into `out`: the table reads as memtier's, whose columns are printf widths.
template <class... Args>
void Appendf(std::string* out, const char* fmt, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  *out += buf;
}

// `text` right-aligned in `width` and a space.
void Column(std::string* line, const std::string& text, int width) {
  Appendf(line, "%*s ", width, text.c_str());
}

// The run's shape, as memtier's table starts.
std::string TableHead(const Config& config) {
  std::string out;
  Appendf(&out, "%-10d%s\n", config.load.threads, "Threads");
  Appendf(&out, "%-10d%s\n", config.load.clients, "Connections per thread");
  if (config.by_time()) {
    Appendf(&out, "%-10g%s\n", static_cast<double>(config.pass.test_time.count()) / 1e6, "Seconds");
  } else {
    Appendf(&out, "%-10llu%s\n", static_cast<unsigned long long>(config.RequestsForClient(0)),
            "Requests per client");
  }
  return out;
}

std::string StatsHeader(const Config& config, size_t type_width, bool hits) {
  std::string header = "Type" + std::string(type_width - 4, ' ');
  Column(&header, "Ops/sec", 12);
  if (hits) {
    Column(&header, "Hits/sec", 12);
    Column(&header, "Misses/sec", 12);
  }
  if (config.cluster_mode) {
    Column(&header, "MOVED/sec", 12);
    Column(&header, "ASK/sec", 12);
  }
  Column(&header, "Avg. Latency", 15);
  for (double p : config.load.percentiles) {
    std::string name;
    Appendf(&name, "p%g Latency", p);
    Column(&header, name, 15);
  }
  Column(&header, "KB/sec", 12);
  return std::string(header.size(), '=') + "\n" + header + "\n" + std::string(header.size(), '-') +
         "\n";
}

std::string StatsRow(const SectionStats& s, const SectionRates& rates, const Config& config,
                     size_t type_width, bool hits) {
  std::string line =
      s.section + std::string(type_width - std::min(type_width, s.section.size()), ' ');
  auto num = [&line](double v, int width, int decimals) {
    Appendf(&line, "%*.*f ", width, decimals, v);
  };
  num(rates.ops, 12, 2);
  if (hits) {
    if (s.has_hits) {
      num(rates.hits, 12, 2);
      num(rates.misses, 12, 2);
    } else {
      Column(&line, "---", 12);
      Column(&line, "---", 12);
    }
  }
  if (config.cluster_mode) {
    num(rates.moved, 12, 2);
    num(rates.ask, 12, 2);
  }
  // memtier leaves an idle SET or GET row's latencies blank; a --command row's read 0.
  if (s.count == 0 && config.commands.empty()) {
    for (size_t i = 0; i <= config.load.percentiles.size(); ++i) Column(&line, "---", 15);
  } else {
    num(s.latency.avg_ms, 15, 5);
    for (double v : s.latency.percentiles_ms) num(v, 15, 5);
  }
  num(rates.kb_rx + rates.kb_tx, 12, 2);
  return line + "\n";
}

// memtier's WAIT row: its rate and latencies, dashes for hits, misses and KB/sec (memtier counts
// no WAIT bytes). Without --wait-ratio there is no Waits section and the row is idle.
std::string WaitsRow(const SectionStats* waits, double ops_per_sec, const Config& config,
                     size_t type_width) {
  std::string line = "Waits" + std::string(type_width - 5, ' ');
  Appendf(&line, "%12.2f ", ops_per_sec);
  Column(&line, "---", 12);
  Column(&line, "---", 12);
  if (config.cluster_mode) {
    Column(&line, "---", 12);
    Column(&line, "---", 12);
  }
  if (waits != nullptr && waits->count > 0) {
    Appendf(&line, "%15.5f ", waits->latency.avg_ms);
    for (double v : waits->latency.percentiles_ms) Appendf(&line, "%15.5f ", v);
  } else {
    for (size_t i = 0; i <= config.load.percentiles.size(); ++i) Column(&line, "---", 15);
  }
  Column(&line, "---", 12);
  return line + "\n";
}

// What went other than asked: the open loop's rates (of --rate: memtier's --rate-limiting
// prints as memtier does, the rates in the JSON), errors, losses, an abort or an interrupt.
std::string TableNotes(const Report& r, const Config& config) {
  const bool open_loop_note = r.open_loop && config.rate_limit_per_connection == 0;
  if (r.errors == 0 && r.connection_errors == 0 && r.unanswered == 0 && !r.interrupted &&
      !open_loop_note && r.aborted_reason.empty() && r.ended_early.empty()) {
    return "";
  }
  std::string out = "\n";
  if (open_loop_note) {
    Appendf(&out,
            "Open loop: target %.0f ops/sec, achieved %.2f ops/sec; latency measured from the due "
            "time\n",
            r.target_rate, r.achieved_rate);
  }
  if (r.errors > r.lost_requests) {
    Appendf(&out, "Error replies: %llu%s%s\n",
            static_cast<unsigned long long>(r.errors - r.lost_requests),
            r.error_samples.empty() ? "" : " (first: ",
            r.error_samples.empty() ? "" : (r.error_samples.front() + ")").c_str());
  }
  if (r.connection_errors > 0) {
    Appendf(&out, "Connection errors: %llu, reconnects: %llu\n",
            static_cast<unsigned long long>(r.connection_errors),
            static_cast<unsigned long long>(r.reconnects));
  }
  if (r.unanswered > 0) {
    Appendf(&out, "Unanswered requests: %llu (%llu lost, counted as errors)\n",
            static_cast<unsigned long long>(r.unanswered),
            static_cast<unsigned long long>(r.lost_requests));
  }
  if (!r.ended_early.empty()) {
    Appendf(&out, "Ended early: %s at %.2f s of the measured window (%.2f s)\n",
            r.ended_early.c_str(), r.ended_at_sec, r.seconds());
  }
  if (!r.aborted_reason.empty()) Appendf(&out, "Run aborted: %s\n", r.aborted_reason.c_str());
  if (r.interrupted) out += "Interrupted: the figures cover the run up to the interrupt\n";
  return out;
}

// One results section of the table: its title, the header, the rows and the notes.
std::string TableSection(const TitledReport& t, const Config& config) {
  const Report& r = t.report;
  const bool hits = config.commands.empty();
  // memtier's: the longest command name (a section less its "s"), at least 6, and two spaces
  // (run_stats::print_type_column).
  size_t type_width = 6;
  for (const auto& s : r.sections) type_width = std::max(type_width, s.section.size() - 1);
  type_width += 2;
  std::string out = "\n\n" + t.title + "\n" + StatsHeader(config, type_width, hits);
  const SectionStats* waits = nullptr;
  for (const auto& s : r.sections) {
    if (s.type == "WAIT") {
      waits = &s;
    } else {
      out += StatsRow(s, RatesOf(s, r, false), config, type_width, hits);
    }
  }
  if (hits) {
    out += WaitsRow(waits, waits ? RatesOf(*waits, r, false).ops : 0, config, type_width);
  }
  out += StatsRow(r.totals, RatesOf(r.totals, r, true), config, type_width, hits);
  return out + TableNotes(r, config);
}

}  // namespace

std::string ReportTable(std::span<const Report> runs, const Config& config) {
  std::string out = TableHead(config);
  for (const TitledReport& t : RunSections(runs, config)) {
    out += TableSection(t, config);
    if (!config.hide_histogram) out += LatencyDistributionText(t.report, config);
  }
  return out;
}

}  // namespace dfbench::loadgen
