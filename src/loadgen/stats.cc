#include "loadgen/stats.h"

#include <algorithm>

namespace dfbench::loadgen {

void SlotCounters::Add(const SlotCounters& o) {
  count += o.count;
  errors += o.errors;
  hits += o.hits;
  misses += o.misses;
  bytes_rx += o.bytes_rx;
  bytes_tx += o.bytes_tx;
  moved += o.moved;
  ask += o.ask;
  latency_sum_ns += o.latency_sum_ns;
}

void SeriesMailbox::Post(std::unique_ptr<SecondBlock> block) {
  std::lock_guard<std::mutex> lock(mu_);
  blocks_.push_back(std::move(block));
}

std::vector<std::unique_ptr<SecondBlock>> SeriesMailbox::Take() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::move(blocks_);
}

void SeriesCollector::Add(std::unique_ptr<SecondBlock> block) {
  auto it = std::find_if(pending_.begin(), pending_.end(),
                         [&](const Pending& p) { return p.second == block->second; });
  if (it == pending_.end()) {
    pending_.push_back(Pending{block->second, std::move(block->slots), block->clients});
    return;
  }
  it->clients += block->clients;
  for (size_t i = 0; i < slots_; ++i) {
    it->slots[i].counters.Add(block->slots[i].counters);
    it->slots[i].latency.Merge(block->slots[i].latency);
  }
}

void SeriesCollector::FinishBefore(int64_t second) {
  std::sort(pending_.begin(), pending_.end(),
            [](const Pending& a, const Pending& b) { return a.second < b.second; });
  size_t finished = 0;
  for (; finished < pending_.size() && pending_[finished].second < second; ++finished) {
    Pending& p = pending_[finished];
    const size_t index = static_cast<size_t>(p.second);
    if (done_.size() <= index) {
      done_.resize(index + 1, std::vector<SeriesPoint>(slots_));
      done_totals_.resize(index + 1);
    }
    LatencyHistogram total;
    SlotCounters total_counters;
    for (size_t i = 0; i < slots_; ++i) {
      const auto& s = p.slots[i];
      SeriesPoint& point = done_[index][i];
      point.bytes_rx = s.counters.bytes_rx;
      point.bytes_tx = s.counters.bytes_tx;
      point.latency = Summarize(s.latency, s.counters.latency_sum_ns, percentiles_);
      total.Merge(s.latency);
      total_counters.Add(s.counters);
      slot_totals_[i].latency.Merge(s.latency);
      slot_totals_[i].counters.Add(s.counters);
    }
    SeriesPoint& t = done_totals_[index];
    t.bytes_rx = total_counters.bytes_rx;
    t.bytes_tx = total_counters.bytes_tx;
    t.latency = Summarize(total, total_counters.latency_sum_ns, percentiles_);
    t.clients = p.clients;
    last_finished_ = std::max<int64_t>(last_finished_, p.second);
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<ptrdiff_t>(finished));
}

std::vector<std::vector<SeriesPoint>> SeriesCollector::PerSlot(size_t seconds) const {
  std::vector<std::vector<SeriesPoint>> out(slots_, std::vector<SeriesPoint>(seconds));
  for (size_t s = 0; s < std::min(seconds, done_.size()); ++s) {
    for (size_t i = 0; i < slots_; ++i) out[i][s] = done_[s][i];
  }
  return out;
}

std::vector<SeriesPoint> SeriesCollector::Totals(size_t seconds) const {
  std::vector<SeriesPoint> out(seconds);
  for (size_t s = 0; s < std::min(seconds, done_totals_.size()); ++s) out[s] = done_totals_[s];
  return out;
}

const SeriesPoint* SeriesCollector::LastFinished() const {
  if (last_finished_ < 0) return nullptr;
  return &done_totals_[static_cast<size_t>(last_finished_)];
}

}  // namespace dfbench::loadgen
