// The command mix of a run, compiled once and shared read-only by every worker thread, and the
// per-client state that walks it (ratio cycle, key generators, value sizes, TTLs).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "loadgen/config.h"
#include "loadgen/keygen.h"
#include "loadgen/scan_cursor.h"
#include "loadgen/value_sizes.h"
#include "protocol/numbered_key_encoder.h"
#include "protocol/request_buffer.h"
#include "protocol/resp_encoder.h"

namespace dfbench::loadgen {

// One command type of the mix: a report section ("Sets", "Gets", "Lpushs").
struct Slot {
  std::string section;  // JSON section name: "Sets", "Gets", "Lpushs"
  std::string type;     // table/histogram type: "SET", "GET", "LPUSH"
  uint32_t ratio = 1;   // consecutive requests of this slot per cycle (0: never sent)
  core::KeyPattern key_pattern = core::KeyPattern::kRandom;
  // Beyond the SET/GET mix and --command templates: kReplay is __monitor_line@__, each of its
  // requests a captured command counted in that command's kReplayed slot; kScanStart is the
  // SCAN 0 of --scan-incremental-iteration, sent as its kScanNext slot (the next one) while a
  // walk goes on. kReplayed and kScanNext are never drawn by the ratio cycle (ratio 0).
  enum class Kind : uint8_t {
    kSet,
    kGet,
    kWait,
    kCustom,
    kReplay,
    kReplayed,
    kScanStart,
    kScanNext
  } kind = Kind::kCustom;
  std::optional<protocol::CommandTemplate> tmpl;  // redis only
  // The request's bytes, for the run's key prefix and value size; a request with a TTL is
  // written by the general encoders instead. None: each request is written whole when sent
  // (a WAIT, a captured command, a SCAN's next step, an imported item).
  std::optional<protocol::NumberedKeyEncoder> encoder;
  // Its draw needs more than a key and a size: which captured command, whether a SCAN walk
  // goes on, which imported item.
  bool draws_more = false;
};

// __monitor_line@__'s captured commands.
struct Replay {
  std::vector<std::string> requests;  // each command's bytes
  std::vector<uint16_t> slots;        // the kReplayed slot each is counted in
  bool random = false;                // --monitor-pattern R; else in turn
  // The next command in turn, one sequence for all clients as memtier keeps it.
  std::unique_ptr<std::atomic<uint64_t>> next = std::make_unique<std::atomic<uint64_t>>(0);
};

struct Workload {
  std::vector<Slot> slots;
  std::optional<Replay> replay;
  // --scan-incremental-iteration: the SCAN's arguments after its cursor.
  std::vector<std::string> scan_rest;
  std::string data;  // value bytes; a request uses a prefix of it
  uint64_t max_request_bytes = 0;
};

// Compiles the mix. kUsage for a bad template (unknown placeholder, unterminated quote).
core::Result<Workload> BuildWorkload(const Config& config);

// "lpush" -> "Lpushs", as memtier names per-command sections.
std::string SectionName(std::string_view command);

// One request as drawn from the mix, before it is written: enough to write it again, as a
// cluster client does when a node redirects it. A WAIT has no key nor value: its numreplicas
// is in key_index and its timeout (ms) in data_size.
struct Request {
  uint64_t key_index = 0;  // a kReplayed slot's request: the index of its captured command
  uint32_t ttl_s = 0;      // 0: none
  uint32_t data_size = 0;
  uint32_t item = 0;  // --data-import: the item written (SET) or whose key is read (GET)
  uint16_t slot = 0;  // index into Workload::slots
};

// One client's walk through the mix. Not thread-safe; one per client.
class ClientWorkload {
 public:
  ClientWorkload(const Config& config, const Workload& workload, int global_client,
                 uint64_t random_base);
  // data_ may point into the object itself.
  ClientWorkload(const ClientWorkload&) = delete;
  ClientWorkload& operator=(const ClientWorkload&) = delete;

  // Appends the next request to *out; returns its slot index.
  uint32_t Next(protocol::RequestBuffer* out) {
    const Request request = Draw();
    Encode(request, out);
    return request.slot;
  }

  // Next() in two steps: the next request of the mix (ratio cycle, key, size, TTL), then its
  // bytes. Key() is the request's key; its view lasts until the next call on this object.
  Request Draw() {
    if (wait_slot_ != kNoWaitSlot) [[unlikely]]
      return DrawBesideWaits();
    return DrawFromMix();
  }
  // --scan-incremental-iteration's walk; null without it. The worker feeds it the replies.
  ScanCursor* scan() { return scan_.get(); }
  std::string_view Key(const Request& request);
  void Encode(const Request& request, protocol::RequestBuffer* out);

 private:
  static constexpr uint16_t kNoWaitSlot = UINT16_MAX;
  Request DrawFromMix();
  // memtier's interleaving of WAITs (client.cpp, create_request): a WAIT first, then one
  // whenever SETs sent / WAITs sent exceeds SETS / WAITS of --wait-ratio, in whole numbers.
  Request DrawBesideWaits();
  void EncodeWait(const Request& request, protocol::RequestBuffer* out);
  void DrawImported(Request* request);
  void EncodeImported(const Request& request, protocol::RequestBuffer* out);
  // What a Slot::draws_more slot adds to the draw: which captured command, whether the SCAN
  // continues its walk, which imported item.
  void DrawBeyondMix(const Slot& slot, Request* request);
  // A request of a slot without an encoder: a WAIT, a captured command, a SCAN <cursor>, an
  // imported item.
  void EncodeUnprepared(const Request& request, protocol::RequestBuffer* out);
  void EncodeWithTtl(const Request& request, protocol::RequestBuffer* out, std::string_view data);
  void FillRandomData();
  void ChangeRandomData();

  const Config& config_;
  const Workload& workload_;
  Rng rng_;
  std::vector<KeyGenerator> keys_;  // one per slot
  ValueSizes sizes_;
  // -R: this client's own value bytes, as memtier keeps a value buffer per client; empty
  // without -R, when values are the workload's shared bytes.
  std::string random_data_;
  Rng data_rng_;
  size_t change_at_ = 0;                       // the byte of random_data_ the next request changes
  const char* data_;                           // random_data_ or the workload's bytes
  const std::vector<ImportedItem>* imported_;  // --data-import's items, or null
  uint32_t next_item_ = 0;                     // the item this client's next SET writes
  uint32_t slot_ = 0;
  uint32_t repeat_ = 0;  // requests of slot_ sent in the current cycle
  char key_buf_[600];
  size_t prefix_len_;
  std::vector<std::string_view> args_;  // reused for SETEX
  std::string with_ttl_;                // reused for a request that expires, and for a WAIT
  uint16_t wait_slot_ = kNoWaitSlot;    // the WAIT slot's index; kNoWaitSlot without WAITs
  uint64_t sets_sent_ = 0;              // counted only with WAITs, for their ratio
  uint64_t waits_sent_ = 0;
  std::unique_ptr<ScanCursor> scan_;  // only with a SCAN walk: a client is small without one
};

}  // namespace dfbench::loadgen
