// The load path's encoder of requests whose key is "<prefix><number>": every byte that depends
// on neither the number's digits nor the value is laid out once per digit count, so a request
// costs one size computation, one grow of the output and a few copies.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/request_buffer.h"
#include "protocol/resp_encoder.h"

namespace dfbench::protocol {

class NumberedKeyEncoder {
 public:
  // The bytes CommandTemplate::Encode writes for key = key_prefix + decimal number. With
  // fixed_data_size, every value given to Encode has that size and its "$<len>" is laid out too.
  static NumberedKeyEncoder ForTemplate(const CommandTemplate& t, std::string_view key_prefix,
                                        std::optional<size_t> fixed_data_size);
  // The bytes AppendMemcacheGet writes.
  static NumberedKeyEncoder ForMemcacheGet(std::string_view key_prefix);
  // The bytes AppendMemcacheSet writes with exptime 0.
  static NumberedKeyEncoder ForMemcacheSet(std::string_view key_prefix,
                                           std::optional<size_t> fixed_data_size);

  // Appends the request for key number `number` and value `data` (of the fixed size if one was
  // given). Allocates only when *out lacks room for the request and 32 bytes more, which it
  // writes for the moment.
  void Encode(RequestBuffer* out, uint64_t number, std::string_view data) const;

 private:
  // Encode() walks these: bytes laid out in advance, then what follows them: the key number's
  // digits, the value, the decimal of a length that depends on the value's size, or nothing.
  struct Step {
    uint32_t offset = 0;  // of the bytes, in literals_
    uint32_t size = 0;
    enum class Then : uint8_t { kNothing, kDigits, kData, kLength } then = Then::kNothing;
    uint16_t datas = 0;         // kLength: times the value's size counts in the length
    uint32_t length_fixed = 0;  // kLength: the part of the length that does not vary
  };
  // The steps for one digit count of the key number.
  struct Layout {
    uint32_t first_step = 0;  // in steps_
    uint32_t steps = 0;
    uint32_t fixed_bytes = 0;  // every byte but the value's and the kLength decimals'
    uint16_t datas = 0;        // kData steps
    bool has_lengths = false;
  };
  class Builder;
  // Lays out every digit count's steps with lay_out(Builder&).
  template <class LayOut>
  static NumberedKeyEncoder Build(LayOut lay_out);

  static constexpr size_t kMaxDigits = 20;  // of a uint64_t
  std::array<Layout, kMaxDigits> layouts_;  // [digits - 1]
  std::vector<Step> steps_;
  std::string literals_;
};

}  // namespace dfbench::protocol
