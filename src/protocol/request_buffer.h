// The bytes of requests on their way out of a load generator's connection: a std::string
// without the zero fill, so an encoder can take room for a request, write it and give back what
// it did not use at the cost of two additions (std::string::resize writes every byte twice).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

namespace dfbench::protocol {

class RequestBuffer {
 public:
  const char* data() const { return bytes_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {bytes_.get(), size_}; }

  void reserve(size_t capacity) {
    if (capacity > capacity_) Reallocate(capacity);
  }
  void clear() { size_ = 0; }
  void append(std::string_view bytes) {
    if (!bytes.empty()) std::memcpy(Extend(bytes.size()), bytes.data(), bytes.size());
  }
  // Room for `n` more bytes at the end, not initialised; they count in size() until Shrink.
  char* Extend(size_t n) {
    if (size_ + n > capacity_) Reallocate(std::max(size_ + n, 2 * capacity_));
    char* at = bytes_.get() + size_;
    size_ += n;
    return at;
  }
  // Keeps the first `size` bytes (size <= size()).
  void Shrink(size_t size) { size_ = size; }

 private:
  void Reallocate(size_t capacity) {
    auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
    if (size_ > 0) std::memcpy(bigger.get(), bytes_.get(), size_);
    bytes_ = std::move(bigger);
    capacity_ = capacity;
  }

  std::unique_ptr<char[]> bytes_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace dfbench::protocol
