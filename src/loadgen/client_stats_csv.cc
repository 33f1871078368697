#include "loadgen/client_stats_csv.h"

#include <cstdio>

#include "core/format.h"
#include "loadgen/histogram.h"

namespace dfbench::loadgen {
namespace {

// memtier's "%u.%06u" of a mean latency in whole microseconds, as seconds.
std::string MeanSeconds(const SlotCounters& c) {
  const auto us = c.count == 0 ? 0 : static_cast<uint64_t>(c.latency_sum_ns / 1000) / c.count;
  return core::Format("{}.{:06}", us / 1'000'000, us % 1'000'000);
}

// Requests, mean latency, total bytes, bytes out, bytes in.
std::string CommandColumns(const SlotCounters& c) {
  return core::Format("{},{},{},{},{}", c.count, MeanSeconds(c), c.bytes_rx + c.bytes_tx,
                      c.bytes_tx, c.bytes_rx);
}

// The table of one command's whole-run latency, in ms; memtier's one row at 100 % when empty.
std::string LatencyTable(const std::string& type, const core::HdrHistogram& us) {
  std::string out = "\nFull-Test " + type + " Latency\nLatency (<= msec),Percent\n";
  char line[64];
  const auto row = [&](int64_t value, double percentile) {
    std::snprintf(line, sizeof(line), "%8.3f,%.3f\n", static_cast<double>(value) / 1000,
                  percentile);
    out += line;
  };
  if (us.total_count() == 0) row(0, 100);
  for (const auto& r : core::PercentileRows(us, kPercentileTicksPerHalfDistance))
    row(r.value, r.percentile);
  return out;
}

// memtier lists its current second even when nothing happened in it: a client without a reply
// still has second 0.
std::vector<ClientTally::Second> SecondsOf(const ClientTally& tally, size_t slots) {
  if (!tally.seconds().empty()) return tally.seconds();
  return {{.second = 0, .slots = std::vector<SlotCounters>(slots)}};
}

// SET/GET mode: the figures of every slot of `kind` together.
SlotCounters OfKind(const std::vector<SlotCounters>& slots, const ClientCsvLayout& layout,
                    Slot::Kind kind) {
  SlotCounters sum;
  for (size_t i = 0; i < slots.size(); ++i) {
    if (layout.kinds[i] == kind) sum.Add(slots[i]);
  }
  return sum;
}

core::HdrHistogram LatencyOfKind(const ClientTally& tally, const ClientCsvLayout& layout,
                                 Slot::Kind kind) {
  core::HdrHistogram sum = ClientTally::EmptyLatency();
  for (size_t i = 0; i < layout.kinds.size(); ++i) {
    if (layout.kinds[i] == kind) (void)sum.Merge(tally.latency_us()[i]);
  }
  return sum;
}

std::string SetGetCsv(const ClientTally& tally, const ClientCsvLayout& layout) {
  const auto seconds = SecondsOf(tally, layout.kinds.size());
  std::string out =
      "Per-Second Benchmark Data\n"
      "Second,SET Requests,SET Average Latency,SET Total Bytes,SET Total Bytes TX,SET Total "
      "Bytes RX,GET Requests,GET Average Latency,GET Total Bytes,GET Total Bytes TX,GET Total "
      "Bytes RX,GET Misses,GET Hits,WAIT Requests,WAIT Average Latency\n";
  for (const auto& s : seconds) {
    const SlotCounters set = OfKind(s.slots, layout, Slot::Kind::kSet);
    const SlotCounters get = OfKind(s.slots, layout, Slot::Kind::kGet);
    // No WAIT here: its columns stay empty.
    out += core::Format("{},{},{},{},{},0,0.000000\n", s.second, CommandColumns(set),
                        CommandColumns(get), get.misses, get.hits);
  }
  out += LatencyTable("GET", LatencyOfKind(tally, layout, Slot::Kind::kGet));
  out += LatencyTable("SET", LatencyOfKind(tally, layout, Slot::Kind::kSet));
  out += LatencyTable("WAIT", ClientTally::EmptyLatency());
  if (!layout.cluster) return out;
  out += "\nPer-Second Benchmark Cluster Data\nSecond,SET Moved,SET Ask,GET Moved,GET Ask\n";
  for (const auto& s : seconds) {
    const SlotCounters set = OfKind(s.slots, layout, Slot::Kind::kSet);
    const SlotCounters get = OfKind(s.slots, layout, Slot::Kind::kGet);
    out += core::Format("{},{},{},{},{}\n", s.second, set.moved, set.ask, get.moved, get.ask);
  }
  return out;
}

std::string CommandsCsv(const ClientTally& tally, const ClientCsvLayout& layout) {
  std::string out = "Per-Second Benchmark Arbitrary Commands Data\nSecond";
  for (const auto& t : layout.types) {
    out += core::Format(
        ",{0} Requests,{0} Average Latency,{0} Total Bytes,{0} Total Bytes TX,{0} "
        "Total Bytes RX",
        t);
  }
  out += "\n";
  for (const auto& s : SecondsOf(tally, layout.types.size())) {
    out += core::Format("{},", s.second);
    for (const auto& c : s.slots) out += CommandColumns(c) + ",";  // memtier's trailing comma
    out += "\n";
  }
  for (size_t i = 0; i < layout.types.size(); ++i) {
    out += LatencyTable(layout.types[i], tally.latency_us()[i]);
  }
  return out;
}

}  // namespace

ClientCsvLayout MakeClientCsvLayout(const Workload& workload, bool commands, bool cluster) {
  ClientCsvLayout layout{.commands = commands, .cluster = cluster && !commands};
  for (const auto& slot : workload.slots) {
    layout.kinds.push_back(slot.kind);
    layout.types.push_back(slot.type);
  }
  return layout;
}

std::string ClientStatsCsv(const ClientTally& tally, const ClientCsvLayout& layout) {
  return layout.commands ? CommandsCsv(tally, layout) : SetGetCsv(tally, layout);
}

std::vector<ClientStatsFile> ClientStatsFiles(std::span<const ClientTally> tallies,
                                              const ClientCsvLayout& layout,
                                              const std::string& prefix, int run, int thread) {
  std::vector<ClientStatsFile> files;
  for (size_t i = 0; i < tallies.size(); ++i) {
    files.push_back({core::Format("{}-{}-{}-{}.csv", prefix, run, thread, i),
                     ClientStatsCsv(tallies[i], layout)});
  }
  return files;
}

}  // namespace dfbench::loadgen
