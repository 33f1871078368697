// How many bytes each request's value has, as memtier's object_generator::get_value (obj_gen.cpp)
// picks them: fixed (-d), random in a range (--data-size-range), growing with the key
// (--data-size-range with --data-size-pattern S), or the --data-size-list's sizes in turn.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "loadgen/config.h"
#include "loadgen/keygen.h"

namespace dfbench::loadgen {

// The one size every value has; nullopt when sizes vary (a range or a list).
std::optional<uint64_t> FixedValueSize(const Config& config);

// The largest value a run writes.
uint64_t LargestValueSize(const Config& config);

// One client's value sizes. Not thread-safe; one per client.
class ValueSizes {
 public:
  explicit ValueSizes(const Config& config);

  // The size of the value of the request for key `key_index`.
  uint32_t Next(uint64_t key_index, Rng& rng) {
    switch (kind_) {
      case Kind::kFixed:
        return min_;
      case Kind::kRandom:
        return static_cast<uint32_t>(rng.Between(min_, max_));
      case Kind::kByKey:
        return ByKey(key_index);
      case Kind::kList:
        return NextFromList();
    }
    return min_;
  }

 private:
  enum class Kind : uint8_t { kFixed, kRandom, kByKey, kList };

  uint32_t ByKey(uint64_t key_index) const;
  uint32_t NextFromList();

  Kind kind_ = Kind::kFixed;
  uint32_t min_ = 0;  // kFixed: the size
  uint32_t max_ = 0;
  uint64_t key_min_ = 0;
  uint64_t key_max_ = 0;
  std::vector<SizeWeight> list_;
  size_t list_at_ = 0;
  uint32_t sent_at_size_ = 0;  // values of list_[list_at_] given so far in this turn
};

}  // namespace dfbench::loadgen
