// A connection's stream with a scripted server behind it, for tests of the worker without a
// socket: it keeps every byte written and counts the RESP requests in them, and answers reads
// with the replies the test scripted, each once enough requests came in and its time (the fake
// transport's clock) came. It can fill up after a short write and close the connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "loadgen/stream.h"
#include "protocol/resp_parser.h"

namespace dfbench::loadgen {

class FakeStream final : public Stream {
 public:
  // One Write call: the bytes offered and taken (0 when the stream was full), and how many
  // complete requests had come in after it.
  struct WriteCall {
    size_t offered = 0;
    size_t taken = 0;
    uint64_t requests = 0;
    bool operator==(const WriteCall&) const = default;
  };

  // `now`: the clock the scripted times are on.
  explicit FakeStream(const int64_t* now) : now_(now) {}

  // The server sends `bytes` once `after_requests` requests came in, at `at_ns` at the
  // earliest, and after the replies scripted before. A read takes at most one of them, so two
  // of them split what they hold across two reads.
  void Reply(std::string bytes, uint64_t after_requests, int64_t at_ns = 0);
  // The server closes the connection once `after_requests` requests came in and every scripted
  // reply was read.
  void CloseAfter(uint64_t after_requests) { close_after_ = after_requests; }
  // The next write takes at most `bytes` (> 0); short, it leaves the stream full: later writes
  // answer kWantWrite until Drain().
  void LimitNextWrite(size_t bytes) { write_limit_ = bytes; }

  Io Read(char* buf, size_t cap) override;
  Io Write(const char* data, size_t len) override;

  // What the fake transport's events say: a read would return bytes or the close now.
  bool Readable() const;
  // When the next scripted reply's time comes; INT64_MAX when none waits for one.
  int64_t NextReplyAt() const;
  // Whether writes wait for room (after a short write) ...
  bool full() const { return full_; }
  // ... which the writable event gives them.
  void Drain() { full_ = false; }

  const std::string& written() const { return written_; }
  const std::vector<WriteCall>& writes() const { return writes_; }
  uint64_t requests() const { return requests_; }
  int reads() const { return reads_; }

 private:
  struct Scripted {
    std::string bytes;
    uint64_t after_requests = 0;
    int64_t at_ns = 0;
  };
  bool ReplyReady() const;
  bool Closing() const;

  const int64_t* now_;
  std::deque<Scripted> replies_;
  uint64_t close_after_ = UINT64_MAX;
  size_t write_limit_ = 0;  // 0: no limit
  bool full_ = false;
  std::string written_;
  std::string unscanned_;  // the written bytes after the last complete request header
  protocol::RespScanner requests_scanner_;
  uint64_t requests_ = 0;
  std::vector<WriteCall> writes_;
  int reads_ = 0;  // reads that returned bytes
};

}  // namespace dfbench::loadgen
