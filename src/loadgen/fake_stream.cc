#include "loadgen/fake_stream.h"

#include <algorithm>
#include <climits>

namespace dfbench::loadgen {

void FakeStream::Reply(std::string bytes, uint64_t after_requests, int64_t at_ns) {
  replies_.push_back({.bytes = std::move(bytes), .after_requests = after_requests, .at_ns = at_ns});
}

bool FakeStream::ReplyReady() const {
  return !replies_.empty() && requests_ >= replies_.front().after_requests &&
         *now_ >= replies_.front().at_ns;
}

bool FakeStream::Closing() const {
  return replies_.empty() && requests_ >= close_after_;
}

bool FakeStream::Readable() const {
  return ReplyReady() || Closing();
}

int64_t FakeStream::NextReplyAt() const {
  return replies_.empty() || replies_.front().at_ns <= *now_ ? INT64_MAX : replies_.front().at_ns;
}

Io FakeStream::Read(char* buf, size_t cap) {
  if (!ReplyReady()) {
    return {.status = Closing() ? Io::Status::kClosed : Io::Status::kWouldBlock};
  }
  std::string& bytes = replies_.front().bytes;
  const size_t n = bytes.copy(buf, std::min(cap, bytes.size()));
  bytes.erase(0, n);
  if (bytes.empty()) replies_.pop_front();
  ++reads_;
  return {.bytes = n};
}

Io FakeStream::Write(const char* data, size_t len) {
  if (full_) {
    writes_.push_back({.offered = len, .taken = 0, .requests = requests_});
    return {.status = Io::Status::kWantWrite};
  }
  size_t taken = len;
  if (write_limit_ > 0 && write_limit_ < len) {
    taken = write_limit_;
    full_ = true;
  }
  write_limit_ = 0;
  written_.append(data, taken);
  // A request is an array of bulk strings: to the reply scanner, one complete top-level reply.
  unscanned_.append(data, taken);
  const protocol::ScanResult r = requests_scanner_.Scan(
      unscanned_, [&](protocol::ReplyKind, std::string_view) { ++requests_; });
  unscanned_.erase(0, r.consumed);
  writes_.push_back({.offered = len, .taken = taken, .requests = requests_});
  return {.bytes = taken};
}

}  // namespace dfbench::loadgen
