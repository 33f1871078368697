#include "report/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/format.h"
#include "report/shape_steps.h"

namespace dfbench::report {
namespace {

// Floating-point slack so that a change of exactly the threshold stays within it.
constexpr double kPctEpsilon = 1e-9;

Measurement Normalized(Measurement m) {
  // A summary without a spread (min = max = 0) spreads over its value alone.
  if (m.min == 0 && m.max == 0) m.min = m.max = m.value;
  return m;
}

struct MetricSpec {
  const char* name;
  Direction direction;
  results::Stats results::EngineResult::*stats;
};

constexpr MetricSpec kEngineMetrics[] = {
    {"throughput", Direction::kHigherIsBetter, &results::EngineResult::throughput},
    {"p50", Direction::kLowerIsBetter, &results::EngineResult::p50},
    {"p99", Direction::kLowerIsBetter, &results::EngineResult::p99},
    {"p999", Direction::kLowerIsBetter, &results::EngineResult::p999},
    {"avg_latency", Direction::kLowerIsBetter, &results::EngineResult::avg_latency},
};

void Finish(GroupComparison* g) {
  for (const auto& m : g->metrics) {
    if (m.regressed) g->regressions.push_back(m.metric);
  }
}

// `e` as compare measures it: a trial that failed (its `failed` reason) is missing data, so
// the summaries are those of the other trials, and absent when none passed.
results::EngineResult WithoutFailedTrials(const results::EngineResult& e) {
  const bool any_failed =
      std::any_of(e.trials.begin(), e.trials.end(),
                  [](const results::TrialResult& t) { return !t.failed.empty(); });
  if (!any_failed) return e;  // a file without trials keeps the summaries it carries
  results::EngineResult kept = e;
  kept.Aggregate();
  return kept;
}

GroupComparison CompareEngines(const results::EngineResult& b_file,
                               const results::EngineResult& c_file, const CompareOptions& options) {
  const results::EngineResult b = WithoutFailedTrials(b_file);
  const results::EngineResult c = WithoutFailedTrials(c_file);
  GroupComparison g;
  g.engine = b.engine;
  g.baseline_version = b.version;
  g.candidate_version = c.version;
  for (const auto& spec : kEngineMetrics) {
    g.metrics.push_back(CompareMetric(spec.name, spec.direction, FromStats(b.*spec.stats),
                                      FromStats(c.*spec.stats), options));
  }
  Finish(&g);
  return g;
}

GroupComparison CompareCases(const results::ReplicationCase& b, const results::ReplicationCase& c,
                             const CompareOptions& options) {
  GroupComparison g;
  g.run_name = results::CaseName(b);
  g.metrics.push_back(CompareMetric("median_rps", Direction::kHigherIsBetter,
                                    FromStats(results::RpsStats(b)),
                                    FromStats(results::RpsStats(c)), options));
  g.metrics.push_back(CompareMetric("median_p99_us", Direction::kLowerIsBetter,
                                    FromStats(P99UsStats(b)), FromStats(P99UsStats(c)), options));
  g.metrics.push_back(CompareMetric("sync_duration_ms", Direction::kLowerIsBetter,
                                    FromValue(b.sync_duration_ms), FromValue(c.sync_duration_ms),
                                    options));
  Finish(&g);
  return g;
}

// Memory per engine: less is better for all three (idle, peak, how long the snapshot took).
GroupComparison CompareMemoryEngines(const results::MemoryEngineResult& b,
                                     const results::MemoryEngineResult& c,
                                     const CompareOptions& options) {
  GroupComparison g;
  g.engine = b.engine;
  g.baseline_version = b.version;
  g.candidate_version = c.version;
  for (const auto& [name, stats] :
       {std::pair{"idle_bytes", &results::MemoryEngineResult::idle_bytes},
        std::pair{"peak_bytes", &results::MemoryEngineResult::peak_bytes},
        std::pair{"snapshot_duration_ms", &results::MemoryEngineResult::snapshot_duration_ms}}) {
    g.metrics.push_back(CompareMetric(name, Direction::kLowerIsBetter, FromStats(b.*stats),
                                      FromStats(c.*stats), options));
  }
  Finish(&g);
  return g;
}

// Pairs items of two lists by key, in baseline order; the first of duplicate keys wins.
// `pair(b, c)` is called for matches; keys found on one side only are appended to `only_*`.
template <class T, class KeyFn, class PairFn>
void Match(const std::vector<T>& baseline, const std::vector<T>& candidate, KeyFn key, PairFn pair,
           const std::string& prefix, std::vector<std::string>* only_in_baseline,
           std::vector<std::string>* only_in_candidate) {
  std::map<std::string, const T*> by_key;
  for (const auto& c : candidate) by_key.emplace(key(c), &c);
  std::set<std::string> seen;
  for (const auto& b : baseline) {
    const std::string k = key(b);
    if (!seen.insert(k).second) continue;
    auto it = by_key.find(k);
    if (it == by_key.end()) {
      only_in_baseline->push_back(prefix + k);
    } else {
      pair(b, *it->second);
    }
  }
  std::set<std::string> seen_candidate;
  for (const auto& c : candidate) {
    const std::string k = key(c);
    if (!seen_candidate.insert(k).second) continue;
    if (!seen.count(k)) only_in_candidate->push_back(prefix + k);
  }
}

std::string Shown(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// "memtier.pipeline: 30 -> 10" for every key whose value differs.
void NoteDifferences(const std::string& what, const nlohmann::json& b, const nlohmann::json& c,
                     std::vector<std::string>* notes) {
  if (!b.is_object() || !c.is_object()) return;
  for (auto it = b.begin(); it != b.end(); ++it) {
    auto other = c.find(it.key());
    if (other == c.end()) continue;  // absent in one file: nothing to say either way
    if (*other != it.value()) {
      notes->push_back(
          core::Format("{}.{}: {} -> {}", what, it.key(), Shown(it.value()), Shown(*other)));
    }
  }
}

void NoteVersion(const GroupComparison& g, std::vector<std::string>* notes) {
  if (!g.baseline_version.empty() && !g.candidate_version.empty() &&
      g.baseline_version != g.candidate_version) {
    notes->push_back(
        core::Format("{} version: {} -> {}", g.Label(), g.baseline_version, g.candidate_version));
  }
}

// "redis topology: one process -> 2 shards": a topology is no tuning key of one process, so
// NoteDifferences would not see it come or go.
void NoteTopology(const GroupComparison& g, const results::EngineRecord& b,
                  const results::EngineRecord& c, std::vector<std::string>* notes) {
  const std::string bt = b.Topology(), ct = c.Topology();
  if (bt == ct) return;
  notes->push_back(core::Format("{} topology: {} -> {}", g.Label(), bt.empty() ? "one process" : bt,
                                ct.empty() ? "one process" : ct));
}

std::string ProfileText(const std::optional<core::ClientProfile>& p) {
  if (!p) return "the run's load";
  return core::Format("{} threads x {} clients, pipeline {}", p->threads, p->clients, p->pipeline);
}

// "redis client profile: the run's load -> 24 threads x 1 clients, pipeline 30".
void NoteClientProfile(const GroupComparison& g, const std::optional<core::ClientProfile>& b,
                       const std::optional<core::ClientProfile>& c,
                       std::vector<std::string>* notes) {
  if (b == c) return;
  notes->push_back(
      core::Format("{} client profile: {} -> {}", g.Label(), ProfileText(b), ProfileText(c)));
}

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out.empty() ? "none" : out;
}

// Pairs the engines of two files by name, `compare(b, c, options)` making each pair's group (its
// versions and the engine flags it ran with noted: "dragonfly.tuning.num_shards: 0 -> 2");
// with `command`, those of one command, named "<command>/<engine>" when in one file only.
template <class Engine, class CompareFn>
void MatchEngines(const std::vector<Engine>& b, const std::vector<Engine>& c, CompareFn compare,
                  Comparison* out, const std::optional<std::string>& command = std::nullopt) {
  Match(
      b, c, [](const Engine& e) { return e.engine; },
      [&](const Engine& be, const Engine& ce) {
        GroupComparison g = compare(be, ce, out->options);
        if (command) g.command = *command;
        out->groups.push_back(std::move(g));
        const GroupComparison& added = out->groups.back();
        NoteVersion(added, &out->notes);
        NoteTopology(added, be, ce, &out->notes);
        if constexpr (requires { be.client_profile; }) {
          NoteClientProfile(added, be.client_profile, ce.client_profile, &out->notes);
        }
        NoteDifferences(added.Label() + ".tuning", be.tuning, ce.tuning, &out->notes);
      },
      command ? *command + "/" : "", &out->only_in_baseline, &out->only_in_candidate);
}

}  // namespace

namespace {

// "baseline redis trial 2 failed (no request succeeded (20 errors)): missing data" for each
// failed trial of `engines`, one side of the comparison; `prefix` names a command ("GET/").
void NoteFailedTrials(const char* side, const std::string& prefix,
                      const std::vector<results::EngineResult>& engines,
                      std::vector<std::string>* notes) {
  for (const auto& e : engines) {
    for (const auto& t : e.trials) {
      if (!t.failed.empty()) {
        notes->push_back(core::Format("{} {}{} trial {} failed ({}): missing data, not compared",
                                      side, prefix, e.engine, t.trial, t.failed));
      } else if (t.client_bound) {
        // Compared, but its figures measure the load generator as much as the engine.
        notes->push_back(core::Format(
            "{} {}{} trial {} client-bound (the load generator wanted {:.0f}% of its CPUs): add "
            "load generators",
            side, prefix, e.engine, t.trial, t.client_cpu_demand * 100));
      }
    }
  }
}

// "redis load generators: 1 -> 2": the trials of the two files were driven differently.
void NoteGenerators(const std::vector<results::EngineResult>& b,
                    const std::vector<results::EngineResult>& c, std::vector<std::string>* notes) {
  const auto generators = [](const std::vector<results::EngineResult>& engines,
                             const std::string& engine) {
    for (const auto& e : engines) {
      if (e.engine == engine && !e.trials.empty()) {
        return std::max<size_t>(e.trials.front().clients.size(), 1);
      }
    }
    return size_t{0};
  };
  for (const auto& e : b) {
    const size_t before = generators(b, e.engine), after = generators(c, e.engine);
    if (before > 0 && after > 0 && before != after) {
      notes->push_back(core::Format("{} load generators: {} -> {}", e.engine, before, after));
    }
  }
}

}  // namespace

void CompareRuns(const results::RunResults& b, const results::RunResults& c, Comparison* out) {
  MatchEngines(b.engines, c.engines, CompareEngines, out);
  NoteFailedTrials("baseline", "", b.engines, &out->notes);
  NoteFailedTrials("candidate", "", c.engines, &out->notes);
  NoteGenerators(b.engines, c.engines, &out->notes);
  NoteDifferences("memtier", results::ToJson(b.memtier), results::ToJson(c.memtier), &out->notes);
  if (b.warmup_requests != c.warmup_requests) {
    out->notes.push_back(
        core::Format("warmup_requests: {} -> {}", b.warmup_requests, c.warmup_requests));
  }
}

void CompareCommandRuns(const CommandsResults& b, const CommandsResults& c, Comparison* out) {
  auto command_key = [](const CommandEntry& e) { return e.Name(); };
  Match(
      b.commands, c.commands, command_key,
      [&](const CommandEntry& bc, const CommandEntry& cc) {
        MatchEngines(bc.engines, cc.engines, CompareEngines, out, bc.Name());
      },
      "", &out->only_in_baseline, &out->only_in_candidate);
  for (const auto& e : b.commands)
    NoteFailedTrials("baseline", e.Name() + "/", e.engines, &out->notes);
  for (const auto& e : c.commands) {
    NoteFailedTrials("candidate", e.Name() + "/", e.engines, &out->notes);
  }
  NoteDifferences("memtier", b.memtier, c.memtier, &out->notes);
  const std::string bt = b.tool.empty() ? "memtier" : b.tool;
  const std::string ct = c.tool.empty() ? "memtier" : c.tool;
  if (bt != ct) out->notes.push_back(core::Format("tool: {} -> {}", bt, ct));
}

void CompareReplications(const results::ReplicationRunResults& b,
                         const results::ReplicationRunResults& c, Comparison* out) {
  // A reference file names no engine: its cases meet ours by run name, when no name is run for
  // two engines.
  const bool by_run_name = (results::NamesNoEngine(b) || results::NamesNoEngine(c)) &&
                           results::RunNamesUnique(b) && results::RunNamesUnique(c);
  auto key = [by_run_name](const results::ReplicationCase& rc) {
    return by_run_name ? rc.run_name : results::CaseName(rc);
  };
  Match(
      b.cases, c.cases, key,
      [&](const results::ReplicationCase& bc, const results::ReplicationCase& cc) {
        out->groups.push_back(CompareCases(bc, cc, out->options));
        NoteDifferences(results::CaseName(bc),
                        {{"master_flags", bc.master_flags}, {"replica_flags", bc.replica_flags}},
                        {{"master_flags", cc.master_flags}, {"replica_flags", cc.replica_flags}},
                        &out->notes);
        if (cc.termination_reason != bc.termination_reason && !cc.termination_reason.empty()) {
          out->notes.push_back(core::Format("{}.termination_reason: {} -> {}",
                                            results::CaseName(bc), bc.termination_reason,
                                            cc.termination_reason));
        }
      },
      "", &out->only_in_baseline, &out->only_in_candidate);
}

void CompareSweeps(const results::SweepResults& b, const results::SweepResults& c,
                   Comparison* out) {
  MatchEngines(
      b.engines, c.engines,
      [&b](const auto& be, const auto& ce, const CompareOptions& options) {
        return CompareSweepEngines(be, ce, b.objectives, options);
      },
      out);
  const nlohmann::json bs = results::ToJson(b).at("settings");
  const nlohmann::json cs = results::ToJson(c).at("settings");
  NoteDifferences("settings", bs, cs, &out->notes);
  NoteDifferences("memtier", bs.at("memtier"), cs.at("memtier"), &out->notes);
  auto texts = [](const results::SweepResults& r) {
    std::string t;
    for (const auto& o : r.objectives) t += (t.empty() ? "" : ", ") + o.text;
    return t;
  };
  if (b.objectives != c.objectives) {
    out->notes.push_back(core::Format("objectives: {} -> {}", texts(b), texts(c)));
  }
}

void CompareMemoryRuns(const results::MemoryRunResults& b, const results::MemoryRunResults& c,
                       Comparison* out) {
  MatchEngines(b.engines, c.engines, CompareMemoryEngines, out);
  const nlohmann::json bs = results::ToJson(b).at("settings");
  const nlohmann::json cs = results::ToJson(c).at("settings");
  NoteDifferences("settings", bs, cs, &out->notes);
}

Measurement FromStats(const results::Stats& s) {
  const bool present = s.median != 0 || s.min != 0 || s.max != 0;
  return Measurement{.value = s.median, .min = s.min, .max = s.max, .present = present};
}

Measurement FromValue(double v) {
  return Measurement{.value = v, .min = v, .max = v, .present = v != 0};
}

MetricDelta CompareMetric(std::string metric, Direction direction, const Measurement& baseline,
                          const Measurement& candidate, const CompareOptions& options) {
  MetricDelta d;
  d.metric = std::move(metric);
  d.direction = direction;
  d.baseline = Normalized(baseline);
  d.candidate = Normalized(candidate);
  if (!d.baseline.present) {
    d.verdict = Verdict::kNotComparable;
    return d;
  }
  if (!d.candidate.present) {
    d.verdict = Verdict::kMissing;
    d.regressed = true;
    return d;
  }
  d.spreads_overlap =
      std::max(d.baseline.min, d.candidate.min) <= std::min(d.baseline.max, d.candidate.max);
  if (d.baseline.value == 0) {
    // A zero median with a spread: no meaningful percentage.
    d.verdict = d.candidate.value == 0 ? Verdict::kOk : Verdict::kNotComparable;
    if (d.candidate.value == 0) d.delta_pct = 0;
    return d;
  }
  const double pct = (d.candidate.value - d.baseline.value) / std::fabs(d.baseline.value) * 100;
  d.delta_pct = pct;
  const double worse_pct = direction == Direction::kHigherIsBetter ? -pct : pct;
  const double threshold = options.regression_pct + kPctEpsilon;
  if (worse_pct > threshold) {
    if (d.spreads_overlap && options.significance == Significance::kOutsideNoise) {
      d.verdict = Verdict::kWithinNoise;
    } else {
      d.verdict = Verdict::kRegression;
      d.regressed = true;
    }
  } else if (-worse_pct > threshold) {
    d.verdict = d.spreads_overlap ? Verdict::kWithinNoise : Verdict::kImproved;
  } else {
    d.verdict = Verdict::kOk;
  }
  return d;
}

std::string GroupComparison::Label() const {
  if (!run_name.empty()) return run_name;
  if (!command.empty()) return command + " " + engine;
  return engine;
}

bool Comparison::Regressed() const {
  return std::any_of(groups.begin(), groups.end(),
                     [](const GroupComparison& g) { return !g.regressions.empty(); });
}

std::vector<std::string> Comparison::RegressionList() const {
  std::vector<std::string> out;
  for (const auto& g : groups) {
    for (const auto& m : g.metrics) {
      if (m.regressed) out.push_back(g.Label() + " " + m.metric + " " + FormatDelta(m));
    }
  }
  return out;
}

core::Result<Comparison> Compare(const ResultDocument& baseline, const ResultDocument& candidate,
                                 const CompareOptions& options) {
  if (baseline.shape != candidate.shape) {
    return core::Fail(core::ErrorKind::kUsage,
                      core::Format("cannot compare {} with {}: {} is {}, {} is {}",
                                   ShapeName(baseline.shape), ShapeName(candidate.shape),
                                   baseline.source, SpecOf(baseline.shape).description,
                                   candidate.source, SpecOf(candidate.shape).description));
  }
  Comparison out;
  out.shape = baseline.shape;
  out.options = options;
  out.baseline_source = baseline.source;
  out.candidate_source = candidate.source;
  out.baseline_run_id = baseline.RunId();
  out.candidate_run_id = candidate.RunId();
  SpecOf(out.shape).compare(baseline, candidate, &out);
  if (out.groups.empty()) {
    return core::Fail(
        core::ErrorKind::kUsage,
        core::Format("nothing to compare: no {} is in both files (baseline {}: {}; "
                     "candidate {}: {})",
                     SpecOf(out.shape).groups.noun, baseline.source,
                     Joined(SpecOf(baseline.shape).group_names(baseline)), candidate.source,
                     Joined(SpecOf(candidate.shape).group_names(candidate))));
  }
  return out;
}

}  // namespace dfbench::report
