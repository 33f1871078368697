// One client's walk of the keyspace with --scan-incremental-iteration, as memtier walks it
// (client.cpp: create_request, handle_response): "SCAN 0 ..." first, then "SCAN <cursor> ..."
// with the cursor of each reply, until a reply's cursor is 0 or --scan-incremental-max-iterations
// continuations were answered; then the walk starts again. An error reply restarts it too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dfbench::loadgen {

class ScanCursor {
 public:
  explicit ScanCursor(uint32_t max_iterations) : max_iterations_(max_iterations) {}

  // The next request continues a walk (SCAN <cursor>) rather than starting one (SCAN 0).
  bool continuing() const { return cursor_ != "0"; }
  const std::string& cursor() const { return cursor_; }
  // A request was sent: a continuation or a start. Pipeline 1: it is the one in flight.
  void Sent(bool continuation) { in_flight_continuation_ = continuation; }
  // Bytes of the connection's replies as they are read; a reply may be split anywhere.
  void Feed(std::string_view bytes) { pending_.append(bytes); }
  // Takes every complete reply fed so far, each the answer to the request in flight.
  void TakeReplies();
  // The connection was lost: its bytes and its walk are gone.
  void Reset();

 private:
  void Answered(bool error, std::string cursor);

  const uint32_t max_iterations_;  // 0: follow the cursor to 0
  std::string cursor_ = "0";
  uint32_t iterations_ = 0;  // continuations answered in this walk
  bool in_flight_continuation_ = false;
  std::string pending_;  // reply bytes not yet taken
};

}  // namespace dfbench::loadgen
