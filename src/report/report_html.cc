#include "report/report_html.h"

#include <algorithm>
#include <map>

#include "core/format.h"
#include "report/report_html_parts.h"
#include "report/shape_steps.h"
#include "results/number_format.h"

namespace dfbench::report {

using results::Fixed;
using results::ShortCount;
using results::WithSeparators;
namespace html {
namespace {

// Small, readable, printable; everything inline so the page needs no network.
constexpr const char* kStyle = R"css(
:root { --text: #1f2937; --muted: #6b7280; --line: #e5e7eb; --bg: #f8fafc; --card: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header.page { background: #111827; color: #f9fafb; padding: 20px 32px; }
header.page h1 { margin: 0; font-size: 22px; font-weight: 650; }
header.page p { margin: 4px 0 0; color: #d1d5db; }
main { max-width: 1320px; margin: 0 auto; padding: 16px 32px 32px; }
nav.toc { margin: 8px 0 16px; }
nav.toc a { color: #2563eb; text-decoration: none; margin-right: 16px; }
section.file, section.comparison { margin: 24px 0 32px; }
h2 { font-size: 19px; margin: 0 0 4px; display: flex; gap: 10px; align-items: center;
  flex-wrap: wrap; }
h3 { font-size: 15px; margin: 0 0 10px; }
p.source { color: var(--muted); margin: 0 0 12px; word-break: break-all; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: 14px 18px; margin: 12px 0; box-shadow: 0 1px 2px rgba(0,0,0,.04); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr));
  gap: 12px; margin: 12px 0; }
.charts .card { margin: 0; padding: 8px; }
svg.chart { width: 100%; height: auto; display: block; }
dl.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr));
  gap: 6px 20px; margin: 0 0 10px; }
dl.facts div { min-width: 0; }
dt, .label { color: var(--muted); font-size: 12px; }
dd { margin: 0; overflow-wrap: anywhere; }
ul.chips { list-style: none; padding: 0; margin: 4px 0 10px; display: flex; flex-wrap: wrap;
  gap: 6px; }
ul.chips li { background: #f3f4f6; border-radius: 999px; padding: 2px 10px; font-size: 12px; }
ul.chips b { font-weight: 600; color: #374151; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th { text-align: left; color: var(--muted); font-weight: 600; font-size: 12px;
  border-bottom: 1px solid var(--line); padding: 6px 8px; }
td { border-bottom: 1px solid #f1f5f9; padding: 6px 8px; vertical-align: top; }
tr:nth-child(even) td { background: #fafafa; }
td.name { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.spread { display: block; color: var(--muted); font-size: 11px; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
  margin-right: 6px; vertical-align: baseline; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #f3f4f6;
  padding: 1px 5px; border-radius: 4px; overflow-wrap: anywhere; }
.badge { display: inline-block; border-radius: 6px; padding: 1px 8px; font-size: 12px;
  font-weight: 600; white-space: nowrap; }
.shape { background: #e0e7ff; color: #3730a3; }
.status-completed { background: #dcfce7; color: #166534; }
.status-failed { background: #fee2e2; color: #991b1b; }
.status-interrupted, .status-other { background: #fef3c7; color: #92400e; }
.verdict-ok { background: #dcfce7; color: #166534; }
.verdict-improved { background: #dbeafe; color: #1e40af; }
.verdict-regression, .verdict-missing { background: #fee2e2; color: #991b1b; }
.verdict-within_noise { background: #fef3c7; color: #92400e; }
.verdict-not_comparable { background: #f3f4f6; color: #4b5563; }
div.verdict { border-radius: 10px; padding: 10px 16px; margin: 10px 0; font-weight: 600; }
.warn { color: #92400e; }
.error { color: #991b1b; }
ul.notes { margin: 6px 0; padding-left: 20px; color: #374151; }
footer { color: var(--muted); font-size: 12px; text-align: center; padding: 16px; }
)css";

// Named values in display order; an empty value is left out.
using Facts = std::vector<std::pair<std::string, std::string>>;

std::string FactsList(const Facts& facts) {
  std::string out = "<dl class=\"facts\">\n";
  for (const auto& [k, v] : facts) {
    if (v.empty()) continue;
    out += "<div><dt>" + H(k) + "</dt><dd>" + H(v) + "</dd></div>\n";
  }
  return out + "</dl>\n";
}

std::string Chips(const Facts& items) {
  if (items.empty()) return "";
  std::string out = "<ul class=\"chips\">";
  for (const auto& [k, v] : items) out += "<li><b>" + H(k) + "</b> " + H(v) + "</li>";
  return out + "</ul>\n";
}

std::string StatusBadge(const std::string& status) {
  if (status.empty()) return "";
  // A finished run's status has its colour; any other word (e.g. a run still going) a neutral one.
  const auto parsed = results::kRunStatusNames.Parse(status);
  const bool known = parsed && *parsed != results::RunStatus::kRunning;
  return "<span class=\"badge status-" + std::string(known ? status : "other") + "\">" + H(status) +
         "</span>";
}

// "0-3,8" from {0,1,2,3,8}.
std::string CpuList(const std::vector<int>& cpus) {
  if (cpus.empty()) return "all";
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += core::Format("-{}", cpus[j]);
    i = j + 1;
  }
  return out;
}

std::string ContextFacts(const results::Context& c) {
  std::string out;
  if (c.build_type == "Debug") {
    out += "<p class=\"warn\">Built as Debug: numbers are not representative.</p>\n";
  }
  if (c.hosts.empty()) return out;
  out +=
      "<table class=\"hosts\"><thead><tr><th>role</th><th>host</th><th>CPU</th><th "
      "class=\"num\">vCPUs</th><th class=\"num\">memory</th><th>OS</th><th>kernel</th>"
      "<th>arch</th><th>pinned CPUs</th></tr></thead><tbody>\n";
  for (const auto& h : c.hosts) {
    const std::string mem =
        h.memory_bytes ? Fixed(static_cast<double>(h.memory_bytes) / (1ull << 30), 1) + " GiB" : "";
    out += core::Format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        H(h.role.Name()), H(h.name), H(h.cpu_model), h.vcpus, H(mem), H(h.os), H(h.kernel),
        H(h.arch), H(CpuList(h.cpus)));
  }
  return out + "</tbody></table>\n";
}

std::string StatsCell(const results::Stats& s, bool count) {
  if (s.median == 0 && s.min == 0 && s.max == 0) return "<td class=\"num\">-</td>";
  auto f = [count](double v) { return count ? WithSeparators(v) : Fixed(v, 3); };
  auto sf = [count](double v) { return count ? ShortCount(v) : Fixed(v, 3); };
  return "<td class=\"num\">" + f(s.median) + "<span class=\"spread\">" + sf(s.min) + ".." +
         sf(s.max) + "</span></td>";
}

// Engines' table: one row per engine, median with [min..max] below.
std::string EngineTable(const std::vector<results::EngineResult>& engines,
                        const std::vector<std::string>& known) {
  std::string out =
      "<table class=\"results\"><thead><tr><th>engine</th><th>version</th><th "
      "class=\"num\">ops/s</th><th class=\"num\">p50 ms</th><th class=\"num\">p99 ms</th><th "
      "class=\"num\">p99.9 ms</th><th class=\"num\">avg ms</th><th class=\"num\">trials</th>"
      "<th>notes</th></tr></thead><tbody>\n";
  for (const auto& e : engines) {
    std::string notes;
    if (!e.error.empty()) notes += "<span class=\"error\">" + H(e.error) + "</span> ";
    // Every failed trial, left out of the figures beside it, says so and why.
    int failed = 0;
    for (const auto& t : e.trials) {
      if (t.failed.empty()) continue;
      ++failed;
      const std::string why = core::Format("trial {} failed: {}", t.trial, t.failed);
      if (why != e.error) notes += "<span class=\"error\">" + H(why) + "</span> ";
    }
    if (e.approximate) notes += "<span class=\"warn\">approximate</span>";
    if (const size_t bound = e.ClientBoundTrials(); bound > 0) {
      notes += "<span class=\"warn\">" +
               H(core::Format("client-bound in {} of {} trials: add load generators", bound,
                              e.trials.size())) +
               "</span> ";
    }
    if (const auto& p = e.client_profile) {
      notes += "<span class=\"warn\">" +
               H(core::Format("own client profile: {} threads × {} clients, pipeline {}",
                              p->threads, p->clients, p->pipeline)) +
               "</span> ";
    }
    out += "<tr><td class=\"name\">" + Dot(EngineColor(e.engine, known)) + H(e.Label()) +
           "</td><td>" + H(e.version) + "</td>" + StatsCell(e.throughput, true) +
           StatsCell(e.p50, false) + StatsCell(e.p99, false) + StatsCell(e.p999, false) +
           StatsCell(e.avg_latency, false) + "<td class=\"num\">" +
           std::to_string(e.trials.size()) +
           (failed > 0 ? "<span class=\"error\"> (" + std::to_string(failed) + " failed)</span>"
                       : "") +
           "</td><td>" + notes + "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

// Each load generator's part of each trial measured by several; "" when none was.
std::string GeneratorTable(const std::vector<results::EngineResult>& engines) {
  std::string rows;
  for (const auto& e : engines) {
    for (const auto& t : e.trials) {
      for (const auto& c : t.clients) {
        rows += "<tr><td>" + H(e.Label()) + "</td><td class=\"num\">" + std::to_string(t.trial) +
                "</td><td>" + H(c.name) + "</td><td class=\"num\">" +
                core::Format("{}×{}", c.threads, c.clients) + "</td><td class=\"num\">" +
                WithSeparators(c.throughput) + "</td><td class=\"num\">" + Fixed(c.p50, 3) +
                "</td><td class=\"num\">" + Fixed(c.p99, 3) + "</td><td class=\"num\">" +
                Fixed(c.p999, 3) + "</td><td class=\"num\">" + Fixed(c.client_cpu * 100, 0) +
                "% / " + Fixed(c.client_cpu_demand * 100, 0) + "%</td><td class=\"num\">" +
                Fixed(c.start_offset_ms, 3) + "</td><td>" +
                (c.client_bound ? "<span class=\"warn\">client-bound</span>" : "") + "</td></tr>\n";
      }
    }
  }
  if (rows.empty()) return "";
  return "<h3>Load generators</h3>\n<table class=\"steps\"><thead><tr><th>engine</th><th "
         "class=\"num\">trial</th><th>generator</th><th class=\"num\">conns</th><th "
         "class=\"num\">ops/s</th><th class=\"num\">p50</th><th class=\"num\">p99</th><th "
         "class=\"num\">p99.9</th><th class=\"num\">CPU used / wanted</th><th "
         "class=\"num\">start +ms</th><th></th></tr></thead><tbody>\n" +
         rows + "</tbody></table>\n";
}

svg::Bar BarOf(const results::Stats& s, bool count) {
  svg::Bar b;
  b.value = s.median;
  b.present = s.median != 0 || s.max != 0;
  if (s.max > 0) {
    b.low = s.min;
    b.high = s.max;
  }
  b.label = count ? ShortCount(s.median) : Fixed(s.median, s.median < 10 ? 2 : 1);
  return b;
}

std::string Card(const std::string& inner) {
  return "<div class=\"card\">" + inner + "</div>\n";
}

// Throughput per engine (whiskers), and the latency percentiles grouped per engine.
std::string EngineCharts(const std::vector<results::EngineResult>& engines,
                         const std::vector<std::string>& known, const std::string& what) {
  svg::BarChart tput{.title = "Throughput per engine" + what, .unit = "ops/s"};
  svg::BarSeries median{.name = "median ops/s (whiskers: min..max over trials)",
                        .color = "#6b7280"};
  for (const auto& e : engines) {
    tput.categories.push_back(e.engine);
    median.bars.push_back(BarOf(e.throughput, true));
    median.bar_colors.push_back(EngineColor(e.engine, known));
  }
  tput.series.push_back(std::move(median));

  svg::BarChart lat{
      .title = "Latency percentiles" + what, .unit = "ms", .categories = {"p50", "p99", "p99.9"}};
  for (const auto& e : engines) {
    svg::BarSeries s{.name = e.engine, .color = EngineColor(e.engine, known)};
    s.bars = {BarOf(e.p50, false), BarOf(e.p99, false), BarOf(e.p999, false)};
    lat.series.push_back(std::move(s));
  }
  return "<div class=\"charts\">" + Card(svg::RenderBarChart(tput)) +
         Card(svg::RenderBarChart(lat)) + "</div>\n";
}

std::string Heading(const ResultDocument& d, const std::string& anchor, const std::string& status,
                    const char* shape_label) {
  std::string out = "<h2 id=\"" + anchor + "\"><span class=\"badge shape\">" + shape_label +
                    "</span> " + H(d.RunId().empty() ? "(no run id)" : d.RunId()) + " " +
                    StatusBadge(status) + "</h2>\n";
  return out + "<p class=\"source\">" + H(d.source) + "</p>\n";
}

// The facts of a run on one server and one client host: `first`, then when and where it ran,
// then `rest`.
template <class Results>
Facts ServerClientRunFacts(const Results& r, Facts::value_type first, const Facts& rest) {
  Facts facts = {{"setup", r.setup_id},
                 {"started", r.created_at},
                 {"completed", r.completed_at},
                 {"region", r.region},
                 {"server instance", r.server_instance},
                 {"client instance", r.client_instance}};
  facts.insert(facts.begin(), std::move(first));
  facts.insert(facts.end(), rest.begin(), rest.end());
  return facts;
}

// The facts of the tool that ran it, from its context.
Facts ToolFacts(const results::Context& c) {
  return {{"tool", c.tool_version},
          {"provider", c.provider},
          {"load generator",
           c.load_generator ? std::string(core::kLoadGeneratorNames.Name(*c.load_generator)) : ""}};
}

// The configuration card of a file: its facts, what its kind adds (load settings), its hosts.
std::string ConfigCard(const Facts& facts, const std::string& more, const results::Context& c) {
  return Card("<h3>Configuration</h3>\n" + FactsList(facts) + more + ContextFacts(c));
}

// Each engine's flags as its file records them ("dragonfly: proactor_threads 1 · num_shards 0 ·
// ..."): what shaped its numbers beside the version; "" when no engine records any.
template <class Engine>
std::string EngineFlags(const std::vector<Engine>& engines) {
  Facts items;
  for (const auto& e : engines) {
    if (!e.tuning.is_object() || e.tuning.empty()) continue;
    std::string text;
    for (auto it = e.tuning.begin(); it != e.tuning.end(); ++it) {
      const auto& v = it.value();
      text += (text.empty() ? "" : " · ") + it.key() + " " +
              (v.is_string() ? v.template get<std::string>() : v.dump());
    }
    items.emplace_back(e.engine, text);
  }
  return items.empty() ? "" : "<div class=\"label\">engine flags</div>" + Chips(items);
}

std::string FlagsText(const std::vector<std::string>& flags) {
  std::string s;
  for (const auto& f : flags) s += (s.empty() ? "" : " ") + f;
  return s.empty() ? "(none)" : s;
}

// Latency against the offered rate of one engine's open-loop steps (the first step at each
// rate), on a log axis, with the objectives as levels and the found rate and capacity marked.
std::string SweepChart(const results::SweepResults& r, const results::SweepEngine& e,
                       const std::vector<std::string>& known) {
  static constexpr std::pair<double, const char*> kCurves[] = {
      {50, "p50"}, {90, "p90"}, {99, "p99"}, {99.9, "p99.9"}, {100, "max"}};
  static constexpr double kOpacity[] = {0.35, 0.5, 1, 0.7, 0.45};
  svg::LineChart chart{.title = e.engine + " · latency against offered load",
                       .x_unit = "target ops/s",
                       .y_unit = "ms (log)",
                       .log_y = true};
  const std::string color = EngineColor(e.engine, known);
  for (size_t i = 0; i < std::size(kCurves); ++i) {
    std::map<double, double> curve;
    for (const auto& st : e.steps) {
      if (st.phase == results::StepPhase::kCapacity) continue;
      if (auto ms = st.measured.LatencyAt(kCurves[i].first)) curve.emplace(st.target_rate, *ms);
    }
    // The percentiles told apart by shade: darkest p99, what objectives usually name.
    svg::LineSeries line{.name = kCurves[i].second,
                         .color = i == 2 ? color : core::Format("rgba(55,65,81,{})", kOpacity[i]),
                         .dots = true};
    for (const auto& [rate, ms] : curve) line.points.push_back({rate, ms});
    chart.series.push_back(std::move(line));
  }
  for (const auto& o : r.objectives) chart.levels.push_back({o.limit_ms, o.text});
  if (e.found_rate) {
    chart.markers.push_back({*e.found_rate, "max in SLO " + ShortCount(*e.found_rate) + " ops/s"});
  }
  if (e.capacity > 0) {
    chart.markers.push_back({e.capacity, "closed-loop capacity " + ShortCount(e.capacity)});
  }
  return Card(svg::RenderLineChart(chart));
}

std::string SweepSteps(const results::SweepEngine& e) {
  std::string out =
      "<table class=\"steps\"><thead><tr><th class=\"num\">#</th><th>phase</th><th "
      "class=\"num\">target</th><th class=\"num\">achieved</th><th class=\"num\">p50</th><th "
      "class=\"num\">p90</th><th class=\"num\">p99</th><th class=\"num\">p99.9</th><th "
      "class=\"num\">max</th><th class=\"num\">client CPU</th><th>verdict</th></tr></thead>"
      "<tbody>\n";
  for (const auto& st : e.steps) {
    const bool capacity = st.phase == results::StepPhase::kCapacity;
    out += "<tr><td class=\"num\">" + std::to_string(st.index) + "</td><td>" +
           H(results::kStepPhaseNames.Name(st.phase)) + "</td><td class=\"num\">" +
           (capacity ? "closed loop" : WithSeparators(st.target_rate)) + "</td><td class=\"num\">" +
           WithSeparators(st.measured.achieved_rate) + "</td>";
    for (double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
      const auto ms = st.measured.LatencyAt(p);
      out += "<td class=\"num\">" + (ms ? Fixed(*ms, 3) : std::string("-")) + "</td>";
    }
    out += "<td class=\"num\">" +
           (st.measured.client_cpu > 0 ? Fixed(st.measured.client_cpu * 100, 0) + "%" : "-") +
           "</td><td>" +
           (capacity ? ""
            : st.verdict.passed
                ? "<span class=\"badge verdict-ok\">pass</span>"
                : "<span class=\"badge verdict-regression\">fail</span> " + H(st.verdict.reason)) +
           "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

}  // namespace

std::string RunSection(const ResultDocument& d, const std::string& anchor,
                       const std::vector<std::string>& known) {
  const results::RunResults& r = d.run;
  std::string out = Heading(d, anchor, results::ToString(r.status), "run");
  std::string engines;
  for (const auto& e : r.engines) {
    engines += (engines.empty() ? "" : ", ") + e.engine +
               (e.version.empty() ? "" : " (" + e.version + ")");
  }
  const results::RunLoadRecord& m = r.memtier;
  const std::string load =
      "<div class=\"label\">load settings (memtier)</div>" +
      Chips({{"threads", std::to_string(m.threads)},
             {"clients", std::to_string(m.clients)},
             {"requests", WithSeparators(static_cast<double>(m.requests))},
             {"ratio", m.ratio},
             {"data size", std::to_string(m.data_size) + " B"},
             {"pipeline", std::to_string(m.pipeline)},
             {"distinct client seed", m.distinct_client_seed ? "yes" : "no"},
             {"warmup requests", WithSeparators(static_cast<double>(r.warmup_requests))},
             {"trials", std::to_string(r.trials)}}) +
      EngineFlags(r.engines);
  out += ConfigCard(ServerClientRunFacts(r, {"engines", engines}, ToolFacts(r.context)), load,
                    r.context);
  out += Card("<h3>Results</h3>\n" + EngineTable(r.engines, known) + GeneratorTable(r.engines));
  out += EngineCharts(r.engines, known, "");
  return out;
}

std::string CommandsSection(const ResultDocument& d, const std::string& anchor,
                            const std::vector<std::string>& known) {
  const CommandsResults& r = d.commands;
  std::string out = Heading(d, anchor, results::ToString(r.status), "commands");
  std::string commands;
  for (const auto& c : r.commands) commands += (commands.empty() ? "" : ", ") + c.Name();
  std::string load;
  if (r.memtier.is_object()) {
    Facts chips;
    for (auto it = r.memtier.begin(); it != r.memtier.end(); ++it) {
      chips.emplace_back(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
    }
    load = "<div class=\"label\">load settings (memtier)</div>" + Chips(chips);
  }
  out += ConfigCard(ServerClientRunFacts(r, {"commands", commands},
                                         {{"load generator", r.tool.empty() ? "memtier" : r.tool},
                                          {"tool", r.context.tool_version},
                                          {"trials", r.trials ? std::to_string(r.trials) : ""}}),
                    load, r.context);
  for (const auto& c : r.commands) {
    std::string head = "<h3>" + H(c.Name()) + "</h3>\n";
    if (!c.template_text.empty()) head += "<p><code>" + H(c.template_text) + "</code>";
    if (c.approximate) head += " <span class=\"warn\">approximate (draining command)</span>";
    if (!c.template_text.empty()) head += "</p>\n";
    out += Card(head + EngineTable(c.engines, known));
    out += EngineCharts(c.engines, known, " · " + c.Name());
  }
  return out;
}

std::string ReplicationSection(const ResultDocument& d, const std::string& anchor,
                               const std::vector<std::string>& /*engines: cases have colours*/) {
  const results::ReplicationRunResults& r = d.replication;
  std::string out = Heading(d, anchor, results::ToString(r.status), "replication");
  out += ConfigCard({{"setup", r.setup_id},
                     {"started", r.created_at},
                     {"completed", r.completed_at},
                     {"region", r.region},
                     {"master instance", r.master_instance},
                     {"replica instance", r.replica_instance},
                     {"client instance", r.client_instance},
                     {"dfly_bench ref", r.dfly_bench_ref},
                     {"tool", r.context.tool_version}},
                    "", r.context);

  std::string table =
      "<h3>Cases</h3>\n<table class=\"cases\"><thead><tr><th>case</th><th class=\"num\">median "
      "rps</th><th class=\"num\">median p99 µs</th><th class=\"num\">sync ms</th><th "
      "class=\"num\">samples</th><th>ended by</th><th>flags</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < r.cases.size(); ++i) {
    const results::ReplicationCase& c = r.cases[i];
    const results::Stats rps = results::RpsStats(c);
    const results::Stats p99 = P99UsStats(c);
    table += "<tr><td class=\"name\">" + Dot(CaseColor(i)) + H(results::CaseName(c)) + "</td>" +
             StatsCell(rps, true) + "<td class=\"num\">" +
             (c.series.empty() ? "-" : WithSeparators(p99.median)) + "<span class=\"spread\">" +
             (c.series.empty() ? "" : WithSeparators(p99.min) + ".." + WithSeparators(p99.max)) +
             "</span></td><td class=\"num\">" +
             (c.sync_duration_ms > 0 ? WithSeparators(c.sync_duration_ms) : "-") +
             "</td><td class=\"num\">" + std::to_string(c.series.size()) + "</td><td>" +
             H(c.termination_reason) + "</td><td>master <code>" + H(FlagsText(c.master_flags)) +
             "</code><br>replica <code>" + H(FlagsText(c.replica_flags)) + "</code>";
    if (!c.load_args.empty()) table += "<br>load <code>" + H(c.load_args) + "</code>";
    if (!c.preload_args.empty()) table += "<br>preload <code>" + H(c.preload_args) + "</code>";
    table += "</td></tr>\n";
  }
  out += Card(table + "</tbody></table>\n");

  out += "<div class=\"charts\">";
  for (size_t i = 0; i < r.cases.size(); ++i) {
    const results::ReplicationCase& c = r.cases[i];
    svg::LineSeries rps{.name = results::CaseName(c) + " rps", .color = CaseColor(i)};
    svg::LineSeries p99{.name = results::CaseName(c) + " p99", .color = CaseColor(i)};
    for (const auto& s : results::Timeline(c)) {
      rps.points.push_back({s.t_sec, s.rps});
      p99.points.push_back({s.t_sec, s.p99_us});
    }
    std::vector<svg::VerticalMarker> markers;
    if (c.sync_duration_ms > 0) {
      markers.push_back({results::SustainedStartSec(c),
                         "stable sync after " + Fixed(c.sync_duration_ms / 1000, 1) + " s"});
    }
    out += Card(svg::RenderLineChart({.title = results::CaseName(c) + " · throughput over time",
                                      .x_unit = "time (s)",
                                      .y_unit = "rps",
                                      .series = {rps},
                                      .markers = markers}));
    out += Card(svg::RenderLineChart({.title = results::CaseName(c) + " · p99 latency over time",
                                      .x_unit = "time (s)",
                                      .y_unit = "p99 µs",
                                      .series = {p99},
                                      .markers = markers}));
  }
  out += "</div>\n";
  return out;
}

std::string SweepSection(const ResultDocument& d, const std::string& anchor,
                         const std::vector<std::string>& known) {
  const results::SweepResults& r = d.sweep;
  std::string out = Heading(d, anchor, results::ToString(r.status), "sweep");
  std::string objectives;
  for (const auto& o : r.objectives) objectives += (objectives.empty() ? "" : ", ") + o.text;
  const results::SweepSettings& st = r.settings;
  const results::RunLoadRecord& m = st.memtier;
  const std::string load =
      "<div class=\"label\">load settings</div>" +
      Chips({{"threads", std::to_string(m.threads)},
             {"clients", std::to_string(m.clients)},
             {"ratio", m.ratio},
             {"data size", std::to_string(m.data_size) + " B"},
             {"pipeline", std::to_string(m.pipeline)},
             {"step", core::Format("{} s (+{} s warmup)", st.step_time_sec, st.warmup_sec)},
             {"bracket", core::Format("{}%", st.bracket * 100)},
             {"confirm", std::to_string(st.confirm)}}) +
      EngineFlags(r.engines);
  out += ConfigCard(ServerClientRunFacts(r, {"objectives", objectives}, ToolFacts(r.context)), load,
                    r.context);
  std::string summary =
      "<h3>Highest rate within the objectives</h3>\n<table class=\"engines\"><thead><tr><th>engine"
      "</th><th>version</th><th class=\"num\">closed-loop capacity</th><th class=\"num\">max rate "
      "in SLO</th><th class=\"num\">rounds</th><th>note</th></tr></thead><tbody>\n";
  for (const auto& e : r.engines) {
    const results::Confirmation& c = e.confirmation;
    summary += "<tr><td class=\"name\">" + Dot(EngineColor(e.engine, known)) + H(e.Label()) +
               "</td><td>" + H(e.version) + "</td><td class=\"num\">" +
               (e.capacity > 0 ? WithSeparators(e.capacity) : "-") + "</td><td class=\"num\">" +
               (e.found_rate ? WithSeparators(*e.found_rate) : "-") +
               (c.round_rates.size() >= 2
                    ? "<span class=\"spread\">" + WithSeparators(c.min_rate) + ".." +
                          WithSeparators(c.max_rate) + " (" + Fixed(c.SpreadPct(), 1) + "%)</span>"
                    : "") +
               "</td><td class=\"num\">" + std::to_string(c.round_rates.size()) + "</td><td>" +
               (e.error.empty() ? "" : "<span class=\"error\">" + H(e.error) + "</span>") +
               "</td></tr>\n";
  }
  out += Card(summary + "</tbody></table>\n");
  out += "<div class=\"charts\">";
  for (const auto& e : r.engines) out += SweepChart(r, e, known);
  out += "</div>\n";
  for (const auto& e : r.engines) {
    if (!e.steps.empty()) out += Card("<h3>" + H(e.engine) + " steps</h3>\n" + SweepSteps(e));
  }
  return out;
}

// A memory run: per engine idle memory, bytes per key, peak and snapshot; memory over time with
// every engine on one clock (0 = its update traffic starts) and each snapshot window marked.
std::string MemorySection(const ResultDocument& d, const std::string& anchor,
                          const std::vector<std::string>& known) {
  const results::MemoryRunResults& r = d.memory;
  const results::MemorySettings& s = r.settings;
  std::string out = Heading(d, anchor, results::ToString(r.status), "memory");
  out +=
      ConfigCard({{"setup", r.setup_id},
                  {"started", r.created_at},
                  {"completed", r.completed_at},
                  {"keys", WithSeparators(static_cast<double>(s.keys)) + " × " +
                               std::to_string(s.value_size) + " B"},
                  {"snapshot", s.snapshot + " after " + Fixed(s.snapshot_delay_sec, 0) + " s"},
                  {"updates", (s.update_rate > 0 ? WithSeparators(s.update_rate) + " req/s"
                                                 : std::string("closed loop")) +
                                  ", ratio " + s.ratio + ", " + Fixed(s.test_time_sec, 0) + " s"},
                  {"tool", r.context.tool_version}},
                 "", r.context);

  constexpr double kMiB = 1024.0 * 1024.0;
  std::string table =
      "<h3>Engines</h3>\n<table class=\"memory\"><thead><tr><th>engine</th><th "
      "class=\"num\">idle MiB</th><th class=\"num\">bytes/key</th><th class=\"num\">INFO "
      "bytes/key</th><th class=\"num\">peak MiB</th><th class=\"num\">snapshot s</th><th "
      "class=\"num\">ops/s before · during · after</th><th>note</th></tr></thead><tbody>\n";
  svg::LineChart chart{.title = "Memory over time (PSS of the process tree)",
                       .x_unit = "time since the updates started (s)",
                       .y_unit = "MiB"};
  for (const auto& e : r.engines) {
    const std::string color = EngineColor(e.engine, known);
    std::string note = e.error;
    std::string phases;
    if (!e.trials.empty()) {
      const results::MemoryTrial& t = e.trials.back();
      if (note.empty() && !t.snapshot_error.empty()) note = "snapshot: " + t.snapshot_error;
      for (const results::PhaseLoad* p : {&t.before, &t.during, &t.after}) {
        phases += (phases.empty() ? "" : " · ") +
                  (p->seconds > 0 ? WithSeparators(p->ops_per_sec) : std::string("-"));
      }
      svg::LineSeries line{.name = e.engine, .color = color};
      for (const auto& m : t.memory) {
        if (m.t_sec < t.load_start_sec) continue;  // the idle settle before, off the shared clock
        line.points.push_back(
            {m.t_sec - t.load_start_sec, static_cast<double>(m.pss_bytes) / kMiB});
      }
      chart.series.push_back(std::move(line));
      if (t.snapshot_end_sec > 0) {
        chart.markers.push_back({t.snapshot_start_sec - t.load_start_sec, e.engine + " BGSAVE"});
        chart.markers.push_back({t.snapshot_end_sec - t.load_start_sec, e.engine + " saved"});
      }
    }
    table += "<tr><td class=\"name\">" + Dot(color) + H(e.engine) + " <span class=\"spread\">" +
             H(e.version) + "</span></td><td class=\"num\">" +
             Fixed(e.idle_bytes.median / kMiB, 1) + "</td><td class=\"num\">" +
             WithSeparators(e.bytes_per_key.median) + "</td><td class=\"num\">" +
             WithSeparators(e.info_bytes_per_key.median) + "</td><td class=\"num\">" +
             Fixed(e.peak_bytes.median / kMiB, 1) + "</td><td class=\"num\">" +
             (e.snapshot_duration_ms.median > 0 ? Fixed(e.snapshot_duration_ms.median / 1000, 2)
                                                : std::string("-")) +
             "</td><td class=\"num\">" + phases + "</td><td>" + H(note) + "</td></tr>\n";
  }
  out += Card(table + "</tbody></table>\n");
  out += "<div class=\"charts\">" + Card(svg::RenderLineChart(chart)) + "</div>\n";
  return out;
}

std::vector<std::string> EngineNames(const std::vector<ResultDocument>& docs) {
  std::vector<std::string> names;
  for (const auto& d : docs) {
    for (const auto& n : SpecOf(d.shape).engine_names(d)) {
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
  }
  return names;
}

std::string CaseColor(size_t index) {
  static constexpr const char* kPalette[] = {"#2563eb", "#7c3aed", "#059669",
                                             "#d97706", "#db2777", "#0891b2"};
  return kPalette[index % std::size(kPalette)];
}

std::string VerdictBadge(const MetricDelta& d) {
  return std::string("<span class=\"badge verdict-") + VerdictName(d.verdict) + "\">" +
         H(VerdictLabel(d)) + "</span>";
}

}  // namespace html

std::string EngineColor(const std::string& engine, const std::vector<std::string>& known) {
  static const std::map<std::string, std::string> kFixed = {{"dragonfly", "#7c3aed"},
                                                            {"redis", "#dc2626"},
                                                            {"valkey", "#2563eb"},
                                                            {"memcached", "#059669"}};
  if (auto it = kFixed.find(engine); it != kFixed.end()) return it->second;
  static constexpr const char* kPalette[] = {"#d97706", "#db2777", "#0891b2", "#65a30d", "#4b5563"};
  size_t index = 0;
  for (const auto& k : known) {
    if (k == engine) break;
    if (!kFixed.count(k)) ++index;
  }
  return kPalette[index % std::size(kPalette)];
}

std::string RenderHtmlReport(const std::vector<ResultDocument>& docs,
                             const ReportOptions& options) {
  using html::H;
  const std::vector<std::string> known = html::EngineNames(docs);
  // Comparisons come first: with two files, they are what the reader came for. Each later file
  // of a shape is compared with the first file of that shape.
  std::string comparisons, comparisons_toc;
  std::map<Shape, size_t> first;
  for (size_t i = 0; i < docs.size(); ++i) {
    auto [it, inserted] = first.emplace(docs[i].shape, i);
    if (inserted) continue;
    const std::string anchor = "comparison-" + std::to_string(i + 1);
    comparisons_toc += "<a href=\"#" + anchor + "\">comparison " + H(docs[it->second].RunId()) +
                       " → " + H(docs[i].RunId()) + "</a>";
    comparisons +=
        "<section class=\"comparison\" id=\"" + anchor + "\">\n" +
        html::RenderComparisonSection(docs[it->second], docs[i], options.compare, known) +
        "</section>\n";
  }
  std::string files, files_toc;
  for (size_t i = 0; i < docs.size(); ++i) {
    const ResultDocument& d = docs[i];
    const std::string anchor = "file-" + std::to_string(i + 1);
    files_toc += "<a href=\"#" + anchor + "\">" + ShapeName(d.shape) + " " + H(d.RunId()) + "</a>";
    files += "<section class=\"file\">\n";
    files += SpecOf(d.shape).html_section(d, anchor, known);
    files += "</section>\n";
  }
  const std::string toc = comparisons_toc + files_toc;
  const std::string body = comparisons + files;
  std::string subtitle = core::Format("{} result file{}", docs.size(), docs.size() == 1 ? "" : "s");
  if (!options.generated_at.empty()) subtitle += " · generated " + options.generated_at;
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; img-src data:\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>dfbench report</title>\n<style>" +
         std::string(html::kStyle) + "</style>\n</head>\n<body>\n<header class=\"page\">\n" +
         "<h1>dfbench report</h1>\n<p>" + H(subtitle) + "</p>\n</header>\n<main>\n" +
         "<nav class=\"toc\">" + toc + "</nav>\n" + body + "</main>\n<footer>" +
         H(options.tool_version.empty() ? "dfbench" : options.tool_version) +
         "</footer>\n</body>\n</html>\n";
}

}  // namespace dfbench::report
