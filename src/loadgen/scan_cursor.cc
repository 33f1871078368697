#include "loadgen/scan_cursor.h"

#include <utility>

#include "protocol/resp_parser.h"

namespace dfbench::loadgen {

void ScanCursor::TakeReplies() {
  size_t taken = 0;
  while (taken < pending_.size()) {
    size_t consumed = 0;
    protocol::Reply reply;
    const std::string_view rest = std::string_view(pending_).substr(taken);
    if (protocol::ParseReply(rest, &consumed, &reply) != protocol::ParseStatus::kOk) break;
    taken += consumed;
    // memtier reads the cursor as the first element of the reply, a bulk string; anything else
    // ends the walk.
    std::string cursor = "0";
    if (!reply.elements.empty() && !reply.elements[0].str.empty()) {
      cursor = std::move(reply.elements[0].str);
    }
    Answered(reply.is_error(), std::move(cursor));
  }
  pending_.erase(0, taken);
}

void ScanCursor::Answered(bool error, std::string cursor) {
  if (error) {
    cursor_ = "0";
    iterations_ = 0;
    return;
  }
  cursor_ = std::move(cursor);
  if (in_flight_continuation_) ++iterations_;
  if (cursor_ == "0" || (max_iterations_ > 0 && iterations_ >= max_iterations_)) {
    cursor_ = "0";
    iterations_ = 0;
  }
}

void ScanCursor::Reset() {
  cursor_ = "0";
  iterations_ = 0;
  in_flight_continuation_ = false;
  pending_.clear();
}

}  // namespace dfbench::loadgen
