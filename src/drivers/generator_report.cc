#include "drivers/generator_report.h"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/format.h"

namespace dfbench::drivers {
namespace {

using nlohmann::json;

double Ms(int64_t value, int64_t unit_ns) {
  return static_cast<double>(value) * static_cast<double>(unit_ns) / 1e6;
}

// The histogram and times a report holds beside ParseLoadReport's figures.
core::Status ReadExtras(const json& doc, GeneratorReport* r) {
  const json& all = doc.contains("ALL STATS") ? doc["ALL STATS"] : json::object();
  if (auto rt = all.find("Runtime"); rt != all.end() && rt->is_object()) {
    r->start_epoch_us = rt->value("Start time", int64_t{0}) * 1000;
    r->finish_epoch_us = rt->value("Finish time", int64_t{0}) * 1000;
  }
  if (auto ext = doc.find("dfbench"); ext != doc.end() && ext->is_object()) {
    r->start_epoch_us = ext->value("start_epoch_us", r->start_epoch_us);
    r->finish_epoch_us = ext->value("finish_epoch_us", r->finish_epoch_us);
    if (auto cpu = ext->find("client_cpu"); cpu != ext->end() && cpu->is_object()) {
      r->cpu_sec = cpu->value("cpu_sec", 0.0);
      r->wall_sec = cpu->value("wall_sec", 0.0);
      r->usable_cpus = cpu->value("usable_cpus", 0);
      r->run_delay_sec = cpu->value("run_delay_sec", 0.0);
    }
  }
  const json* hist = nullptr;
  if (auto totals = all.find("Totals"); totals != all.end() && totals->is_object()) {
    if (auto pl = totals->find("Percentile Latencies"); pl != totals->end() && pl->is_object()) {
      if (auto h = pl->find("Histogram log format"); h != pl->end() && h->is_object()) {
        hist = &*h;
      }
    }
  }
  if (hist == nullptr || !hist->contains("Compressed Histogram")) return core::Ok();
  auto decoded = DecodeCompressedHistogram(hist->value("Compressed Histogram", ""));
  if (!decoded) return tl::unexpected(decoded.error());
  r->histogram = std::move(*decoded);
  // memtier records microseconds; dfbench loadgen says its unit in its own block.
  std::string unit = hist->value("Unit", "us");
  if (auto ext = doc.find("dfbench"); ext != doc.end() && ext->is_object()) {
    unit = ext->value("histogram_unit", unit);
  }
  r->unit_ns = unit == "ns" ? 1 : 1000;
  return core::Ok();
}

// A part's CPU use and demand: its own, or, for parts that share CPUs, their CPU seconds (and
// run delays) together over the CPUs they shared.
struct CpuFigures {
  double use = 0;
  double demand = 0;
};

CpuFigures GroupCpu(const std::vector<GeneratorPart>& parts, const GeneratorPart& p) {
  if (p.cpu_group.empty()) return {p.report.trial.client_cpu, p.report.trial.client_cpu_demand};
  double cpu_sec = 0, delay_sec = 0, wall_sec = 0;
  int usable = 0;
  for (const auto& q : parts) {
    if (q.cpu_group != p.cpu_group) continue;
    cpu_sec += q.report.cpu_sec;
    delay_sec += q.report.run_delay_sec;
    wall_sec = std::max(wall_sec, q.report.wall_sec);
    usable += q.report.usable_cpus;
  }
  if (p.group_cpus > 0) usable = std::min(usable, p.group_cpus);
  if (wall_sec <= 0 || usable <= 0) {
    return {p.report.trial.client_cpu, p.report.trial.client_cpu_demand};
  }
  const double capacity = wall_sec * usable;
  return {cpu_sec / capacity, (cpu_sec + delay_sec) / capacity};
}

}  // namespace

core::Result<core::HdrHistogram> DecodeCompressedHistogram(std::string_view base64) {
  auto bytes = core::Base64Decode(base64);
  if (!bytes) return tl::unexpected(bytes.error());
  auto payload = core::CompressedPayload(*bytes);
  if (!payload) return tl::unexpected(payload.error());
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return core::Fail(core::ErrorKind::kFailure, "zlib will not start");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(payload->data()));
  z.avail_in = static_cast<uInt>(payload->size());
  std::string out;
  int rc = Z_OK;
  while (rc == Z_OK) {
    char chunk[16384];
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof(chunk);
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(chunk, sizeof(chunk) - z.avail_out);
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) {
    return core::Fail(core::ErrorKind::kFailure, "a compressed histogram that does not inflate");
  }
  return core::HdrHistogram::DecodeV2(out);
}

core::Result<GeneratorReport> ParseGeneratorReport(const std::string& json_text,
                                                   const ReportOptions& options) {
  auto trial = ParseLoadReport(json_text, options);
  if (!trial) return tl::unexpected(trial.error());
  GeneratorReport r{.trial = std::move(*trial)};
  const json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (auto st = ReadExtras(doc, &r); !st) return tl::unexpected(st.error());
  return r;
}

core::Result<results::TrialResult> MergeGenerators(const std::vector<GeneratorPart>& parts,
                                                   core::HdrHistogram* merged_out) {
  if (parts.empty()) return core::Fail(core::ErrorKind::kUsage, "no load generator to merge");
  std::optional<core::HdrHistogram> all;
  const int64_t unit_ns = parts.front().report.unit_ns;
  int64_t first_start = std::numeric_limits<int64_t>::max(), last_start = 0, last_finish = 0;
  results::TrialResult t;
  double latency_sum = 0;
  for (const auto& p : parts) {
    const GeneratorReport& r = p.report;
    if (!r.histogram) {
      return core::Fail(core::ErrorKind::kUsage,
                        p.name + ": its report holds no histogram to merge");
    }
    if (r.unit_ns != unit_ns) {
      return core::Fail(core::ErrorKind::kUsage, p.name + ": a histogram in other units");
    }
    if (!all) {
      all = *r.histogram;
    } else if (auto st = all->Merge(*r.histogram); !st) {
      return core::Fail(core::ErrorKind::kUsage, p.name + ": " + st.error().message);
    }
    const int64_t start = r.start_epoch_us - p.clock_offset_us;
    first_start = std::min(first_start, start);
    last_start = std::max(last_start, start);
    last_finish = std::max(last_finish, r.finish_epoch_us - p.clock_offset_us);
    t.ops += r.trial.ops;
    t.errors += r.trial.errors;
    if (t.ended_early.empty() && !r.trial.ended_early.empty()) {
      t.ended_early = p.name + ": " + r.trial.ended_early;
    }
    latency_sum += r.trial.avg_latency * static_cast<double>(r.trial.ops);
  }
  t.duration_sec = static_cast<double>(last_finish - first_start) / 1e6;
  if (t.duration_sec > 0) t.throughput = static_cast<double>(t.ops) / t.duration_sec;
  t.avg_latency = t.ops > 0 ? latency_sum / static_cast<double>(t.ops) : 0;
  t.p50 = Ms(all->ValueAtPercentile(50), unit_ns);
  t.p99 = Ms(all->ValueAtPercentile(99), unit_ns);
  t.p999 = Ms(all->ValueAtPercentile(99.9), unit_ns);
  t.start_skew_ms = static_cast<double>(last_start - first_start) / 1000;
  for (const GeneratorPart& p : parts) {
    const results::TrialResult& r = p.report.trial;
    const CpuFigures cpu = GroupCpu(parts, p);
    const bool bound = cpu.demand >= results::kClientBoundCpu;
    t.client_bound = t.client_bound || bound;
    t.client_cpu = std::max(t.client_cpu, cpu.use);
    t.client_cpu_demand = std::max(t.client_cpu_demand, cpu.demand);
    t.clients.push_back(
        {.name = p.name,
         .threads = p.threads,
         .clients = p.clients,
         .key_minimum = p.key_minimum,
         .key_maximum = p.key_maximum,
         .ops = r.ops,
         .errors = r.errors,
         .throughput = r.throughput,
         .p50 = r.p50,
         .p99 = r.p99,
         .p999 = r.p999,
         .avg_latency = r.avg_latency,
         .client_cpu = cpu.use,
         .client_cpu_demand = cpu.demand,
         .start_offset_ms =
             static_cast<double>(p.report.start_epoch_us - p.clock_offset_us - first_start) / 1000,
         .client_bound = bound});
  }
  if (merged_out != nullptr) *merged_out = std::move(*all);
  return t;
}

}  // namespace dfbench::drivers
