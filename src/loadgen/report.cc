#include "loadgen/report.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/version.h"
#include "loadgen/histogram.h"
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

std::string Bool(bool b) {
  return b ? "true" : "false";
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
        e[PercentileKey(percentiles[i])] = Ms(p.latency.percentiles_ms[i]);
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
  j["Errors"] = s.errors;
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
    // Where memtier puts its own; ours counts nanoseconds (memtier's, microseconds).
    j["Percentile Latencies"]["Histogram log format"] = {
        {"Compressed Histogram", s.histogram->CompressedBase64()}, {"Unit", "ns"}};
  }
  return j;
}

Json ConfigurationJson(const Config& c) {
  Json j;
  // memtier's keys and spellings ("true"/"false" strings, "" for what is not set).
  j["server"] = c.server;
  j["port"] = c.port;
  j["unix socket"] = c.unix_socket;
  j["protocol"] = c.protocol == Protocol::kRedis && c.resp_version > 0
                      ? "resp" + std::to_string(c.resp_version)
                      : std::string(core::kProtocolNames.Name(c.protocol));
  j["tls"] = c.tls.enabled ? "true" : "false";
  j["tls_cert"] = c.tls.cert;
  j["tls_key"] = c.tls.key;
  j["tls_cacert"] = c.tls.cacert;
  j["tls_skip_verify"] = c.tls.skip_verify ? "true" : "false";
  j["sni"] = c.tls.sni;
  j["run_count"] = c.run_count;
  j["requests"] = c.by_time() ? 0 : c.RequestsForClient(0);
  j["all_keys"] = Bool(c.all_keys());
  j["rate_limit"] = c.rate_limit_per_connection;
  j["rate"] = c.pass.rate_per_sec;
  j["clients"] = c.load.clients;
  j["threads"] = c.load.threads;
  const double test_time_s = static_cast<double>(c.pass.test_time.count()) / 1e6;
  if (test_time_s == std::floor(test_time_s)) {
    j["test_time"] = static_cast<int64_t>(test_time_s);
  } else {
    j["test_time"] = test_time_s;
  }
  j["warmup_time"] = static_cast<double>(c.pass.warmup_time.count()) / 1e6;
  j["ratio"] = c.commands.empty() ? c.load.ratio.ToString() : "";
  j["pipeline"] = c.load.pipeline;
  j["data_size"] = c.load.data_size;
  j["data_size_range"] = std::to_string(c.data_size_min) + ":" + std::to_string(c.data_size_max);
  j["data_size_pattern"] = c.data_size_by_key ? "S" : "R";
  j["expiry_range"] = std::to_string(c.expiry_min_s) + ":" + std::to_string(c.expiry_max_s);
  j["key_prefix"] = c.load.key_prefix;
  j["key_minimum"] = c.load.key_minimum;
  j["key_maximum"] = c.load.key_maximum;
  j["key_pattern"] = c.KeyPatternString();
  j["key_stddev"] = c.KeyStddev();
  j["key_median"] = c.KeyMedian();
  j["key_zipf_exp"] = c.key_zipf_exp;
  j["distinct_client_seed"] = Bool(c.load.distinct_client_seed);
  j["randomize"] = Bool(c.randomize);
  j["reconnect_interval"] = c.reconnect_interval;
  j["connection_timeout"] = c.connection_timeout_s;
  j["reconnect"] = c.reconnect == ReconnectPolicy::kOn ? "on" : "off";
  // Never the password itself; the user is no secret.
  j["authenticate"] = c.password.empty() ? "" : c.user.empty() ? "(set)" : c.user + ":(set)";
  j["select-db"] = c.select_db;
  // memtier's spellings: "A:B", and "min:max" for --num-slaves but "min-max" for --wait-timeout.
  j["wait-ratio"] = std::to_string(c.wait.sets) + ":" + std::to_string(c.wait.waits);
  j["num-slaves"] = std::to_string(c.wait.replicas_min) + ":" + std::to_string(c.wait.replicas_max);
  j["wait-timeout"] =
      std::to_string(c.wait.timeout_min_ms) + "-" + std::to_string(c.wait.timeout_max_ms);
  j["print-all-runs"] = Bool(c.print_all_runs);
  j["print-percentiles"] = [&] {
    std::string s;
    for (double p : c.load.percentiles) {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%g", p);
      if (!s.empty()) s += ',';
      s += buf;
    }
    return s;
  }();
  if (!c.commands.empty()) {
    Json cmds = Json::array();
    for (const auto& cmd : c.commands) {
      cmds.push_back({{"command", cmd.text},
                      {"ratio", cmd.ratio},
                      {"key_pattern", std::string(1, static_cast<char>(cmd.key_pattern))}});
    }
    j["commands"] = cmds;
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

// dfbench's own block, of the run or of the average of `runs` runs.
Json DfbenchJson(const Report& r, const Config& config, size_t runs) {
  Json d;
  d["version"] = core::GetBuildInfo().version;
  d["runs"] = runs;
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

std::string PercentileKey(double percentile) {
  char full[32];
  std::snprintf(full, sizeof(full), "p%.3f", percentile);
  std::string key(full);
  // memtier keeps 6 characters ("p99.90"); keep more only when that would drop a digit.
  if (key.size() > 6 && key.find_first_not_of('0', 6) == std::string::npos) key.resize(6);
  if (key.back() == '.') key.pop_back();
  return key;
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

std::string ReportJson(std::span<const Report> runs, const Config& config) {
  Json root;
  root["configuration"] = ConfigurationJson(config);
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
                      {"Interrupted", Bool(r.interrupted)}};
    for (const auto& s : r.sections) all[s.section] = SectionJson(s, r, config, false);
    all["Totals"] = SectionJson(r.totals, r, config, true);
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

// What went other than asked: the open loop's rates, errors, losses, an abort or an interrupt.
std::string TableNotes(const Report& r) {
  if (r.errors == 0 && r.connection_errors == 0 && r.unanswered == 0 && !r.interrupted &&
      !r.open_loop && r.aborted_reason.empty() && r.ended_early.empty()) {
    return "";
  }
  std::string out = "\n";
  if (r.open_loop) {
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
  return out + TableNotes(r);
}

}  // namespace

std::string ReportTable(std::span<const Report> runs, const Config& config) {
  std::string out = TableHead(config);
  for (const TitledReport& t : RunSections(runs, config)) out += TableSection(t, config);
  return out;
}

}  // namespace dfbench::loadgen
