#include "loadgen/value_sizes.h"

#include <algorithm>

namespace dfbench::loadgen {

std::optional<uint64_t> FixedValueSize(const Config& config) {
  if (config.data_size_max > 0 || !config.data_size_list.empty()) return std::nullopt;
  return static_cast<uint64_t>(config.load.data_size);
}

uint64_t LargestValueSize(const Config& config) {
  uint64_t largest = std::max(static_cast<uint64_t>(config.load.data_size), config.data_size_max);
  for (const SizeWeight& entry : config.data_size_list) {
    largest = std::max<uint64_t>(largest, entry.size);
  }
  return largest;
}

ValueSizes::ValueSizes(const Config& config)
    : min_(static_cast<uint32_t>(config.load.data_size)),
      key_min_(config.load.key_minimum),
      key_max_(config.load.key_maximum) {
  if (!config.data_size_list.empty()) {
    kind_ = Kind::kList;
    list_ = config.data_size_list;
  } else if (config.data_size_max > 0) {
    kind_ = config.data_size_by_key ? Kind::kByKey : Kind::kRandom;
    min_ = static_cast<uint32_t>(config.data_size_min);
    max_ = static_cast<uint32_t>(config.data_size_max);
  }
}

// memtier's pattern S: the key's place in the range, scaled onto the sizes (truncated). A range
// of one key gives the minimum, where memtier divides by zero.
uint32_t ValueSizes::ByKey(uint64_t key_index) const {
  if (key_max_ == key_min_) return min_;
  const double at =
      static_cast<double>(key_index - key_min_) / static_cast<double>(key_max_ - key_min_);
  return static_cast<uint32_t>(static_cast<double>(max_ - min_) * at) + min_;
}

// memtier's config_weight_list::get_next_size: `weight` values of one size, then the next entry's,
// round the list; an entry of weight 0 is skipped (Validate: one weighs more).
uint32_t ValueSizes::NextFromList() {
  while (sent_at_size_ >= list_[list_at_].weight) {
    sent_at_size_ = 0;
    list_at_ = (list_at_ + 1) % list_.size();
  }
  ++sent_at_size_;
  return list_[list_at_].size;
}

}  // namespace dfbench::loadgen
