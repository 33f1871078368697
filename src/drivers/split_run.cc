#include "drivers/split_run.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/files.h"
#include "core/format.h"
#include "core/log.h"
#include "core/time_format.h"
#include "drivers/generator_report.h"

namespace dfbench::drivers {
namespace {

namespace fs = std::filesystem;

bool SplitsKeys(const core::Load& load, const core::Pass& pass) {
  return pass.length == core::Pass::Length::kFill ||
         (load.key_maximum > 0 && (load.key_pattern == core::KeyPattern::kSequential ||
                                   load.key_pattern == core::KeyPattern::kParallel));
}

// "<dir>/redis-t1.json", 2 -> "<dir>/redis-t1-2.json".
fs::path PartPath(const fs::path& raw, size_t part) {
  fs::path p = raw;
  p.replace_filename(raw.stem().string() + "-" + std::to_string(part) + ".json");
  return p;
}

// The histogram's HdrHistogram files beside `json`, named as memtier's --hdr-file-prefix <stem>
// names them (<stem>_FULL_RUN_1.txt, .hgrm: clear of the <stem>.txt an external tool's stdout
// is kept in). One that cannot be written is a line on stderr, not a failed trial (the JSON
// files hold the histograms too).
void WriteHdrFiles(const core::HdrHistogram& h, int64_t unit_ns, const fs::path& json,
                   const std::string& what, double start_sec, double end_sec) {
  const fs::path stem =
      json.parent_path() / (json.stem().string() + std::string(core::kFullRunStem));
  for (const auto& file :
       core::MemtierHdrFiles(h, unit_ns, stem.string(), what, start_sec, end_sec)) {
    if (auto st = core::WriteFileAtomic(file.path, file.text); !st) core::Note(st.error().message);
  }
}

// Generators pinned to the same CPUs of one host share them; unpinned ones are on their own.
std::string CpuGroup(const LoadClient& c) {
  if (c.cpus.empty()) return "";
  std::string key = core::Format("{}", static_cast<const void*>(c.host));
  for (int cpu : c.cpus) key += "," + std::to_string(cpu);
  return key;
}

}  // namespace

core::Result<std::vector<core::Load>> SplitLoad(const core::Load& load, const core::Pass& pass,
                                                size_t n) {
  const auto count = static_cast<int>(n);
  if (load.threads < count) {
    return core::Fail(core::ErrorKind::kUsage,
                      core::Format("{} load generators need at least one thread each (the load "
                                   "has {})",
                                   n, load.threads));
  }
  const bool keys = SplitsKeys(load, pass);
  if (keys && load.KeyCount() < n) {
    return core::Fail(
        core::ErrorKind::kUsage,
        core::Format("{} keys do not split over {} load generators", load.KeyCount(), n));
  }
  std::vector<core::Load> shares;
  int seed_base = load.seed_client_base;
  for (int i = 0; i < count; ++i) {
    core::Load share = load;
    share.threads = load.threads / count + (i < load.threads % count ? 1 : 0);
    share.seed_client_base = seed_base;
    seed_base += share.threads * share.clients;
    if (keys) {
      const uint64_t total = load.KeyCount(), part = static_cast<uint64_t>(i);
      share.key_minimum = load.key_minimum + total * part / n;
      share.key_maximum = load.key_minimum + total * (part + 1) / n - 1;
    }
    shares.push_back(std::move(share));
  }
  return shares;
}

void WriteHdrFilesOf(const fs::path& raw_report, const std::string& what) {
  auto text = core::ReadFile(raw_report);
  if (!text) return;
  auto report = ParseGeneratorReport(*text);
  if (!report || !report->histogram) return;
  WriteHdrFiles(*report->histogram, report->unit_ns, raw_report, what,
                static_cast<double>(report->start_epoch_us) / 1e6,
                static_cast<double>(report->finish_epoch_us) / 1e6);
}

core::Result<results::TrialResult> RunSplit(Driver& driver, const std::vector<LoadClient>& clients,
                                            const Target& target, const core::Load& load,
                                            const core::Pass& pass, const fs::path& raw_report) {
  auto shares = SplitLoad(load, pass, clients.size());
  if (!shares) return tl::unexpected(shares.error());
  const int64_t start_us = core::NowEpochUs() + std::chrono::microseconds(kStartAllowance).count() +
                           pass.warmup_time.count();
  std::vector<core::Result<results::TrialResult>> runs(
      clients.size(), core::Fail(core::ErrorKind::kFailure, "not run"));
  {
    std::vector<std::jthread> threads;
    for (size_t i = 0; i < clients.size(); ++i) {
      threads.emplace_back([&, i] {
        core::Pass own = pass;
        own.start_at_us = start_us + clients[i].clock_offset_us;
        own.live_metrics = core::ForGenerator(pass.live_metrics, static_cast<int>(i));
        runs[i] = driver.Run(*clients[i].host, target, (*shares)[i], own, clients[i].cpus,
                             PartPath(raw_report, i + 1));
      });
    }
  }
  for (const auto& r : runs) {
    if (!r && r.error().kind == core::ErrorKind::kInterrupted) return tl::unexpected(r.error());
  }
  std::vector<GeneratorPart> parts;
  for (size_t i = 0; i < clients.size(); ++i) {
    if (!runs[i]) {
      return core::Fail(runs[i].error().kind, clients[i].name + ": " + runs[i].error().message);
    }
    const fs::path part = PartPath(raw_report, i + 1);
    auto text = core::ReadFile(part);
    if (!text) return tl::unexpected(text.error());
    auto report = ParseGeneratorReport(*text);
    if (!report)
      return core::Fail(report.error().kind, part.string() + ": " + report.error().message);
    // Its own figures as the driver read them (its test time, its tool's quirks).
    report->trial = std::move(*runs[i]);
    const core::Load& share = (*shares)[i];
    parts.push_back({.name = clients[i].name,
                     .threads = share.threads,
                     .clients = share.clients,
                     .key_minimum = share.key_maximum > 0 ? share.key_minimum : 0,
                     .key_maximum = share.key_maximum,
                     .report = std::move(*report),
                     .clock_offset_us = clients[i].clock_offset_us,
                     .cpu_group = CpuGroup(clients[i]),
                     .group_cpus = static_cast<int>(clients[i].cpus.size())});
  }
  core::HdrHistogram all = *parts[0].report.histogram;  // replaced by the merge
  auto merged = MergeGenerators(parts, &all);
  if (!merged) return tl::unexpected(merged.error());
  nlohmann::json names = nlohmann::json::array();
  for (size_t i = 0; i < parts.size(); ++i) {
    merged->clients[i].raw_file = PartPath(raw_report, i + 1).filename().string();
    names.push_back(merged->clients[i].raw_file);
    const GeneratorReport& r = parts[i].report;
    WriteHdrFiles(*r.histogram, r.unit_ns, PartPath(raw_report, i + 1),
                  parts[i].name + " HDR latency histogram",
                  static_cast<double>(r.start_epoch_us) / 1e6,
                  static_cast<double>(r.finish_epoch_us) / 1e6);
  }
  const double start_sec = static_cast<double>(start_us) / 1e6;
  WriteHdrFiles(all, parts[0].report.unit_ns, raw_report,
                "merged HDR latency histogram of every load generator", start_sec,
                start_sec + merged->duration_sec);
  const nlohmann::json doc = {{"generators", names},
                              {"start_skew_ms", merged->start_skew_ms},
                              {"Histogram log format",
                               {{"Compressed Histogram", all.CompressedBase64()},
                                {"Unit", parts[0].report.unit_ns == 1 ? "ns" : "us"}}}};
  if (auto st = core::WriteFileAtomic(raw_report, doc.dump(2) + "\n"); !st) {
    return tl::unexpected(st.error());
  }
  return merged;
}

}  // namespace dfbench::drivers
