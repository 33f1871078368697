#include "loadgen/workload.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <utility>

#include "core/check.h"
#include "core/text.h"
#include "loadgen/value_sizes.h"
#include "protocol/memcache_text.h"

namespace dfbench::loadgen {

std::string SectionName(std::string_view command) {
  std::string s;
  for (char c : command) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s + "s";
}

namespace {

// The SET/GET mix's commands; with --data-offset, memtier's SETRANGE and GETRANGE at it
// (protocol.cpp, redis_protocol::write_command_set and write_command_get). Their sections stay
// Sets and Gets, as memtier counts them.
std::pair<std::string, std::string> RedisSetGet(uint32_t data_offset) {
  if (data_offset == 0) return {"SET __key__ __data__", "GET __key__"};
  const std::string offset = std::to_string(data_offset);
  return {"SETRANGE __key__ " + offset + " __data__", "GETRANGE __key__ " + offset + " -1"};
}

// __monitor_line@__'s commands, each counted in a slot of its name (the first of that name
// in the capture names it), as memtier adds one stats row per command type.
void AddReplayedSlots(const Config& config, Workload* w) {
  Replay replay{.random = config.monitor_random};
  std::vector<std::string_view> args;
  for (const MonitorCommand& command : config.monitor_commands) {
    const std::string type = core::AsciiUpper(command.args[0]);
    size_t slot = 0;
    while (slot < w->slots.size() &&
           !(w->slots[slot].kind == Slot::Kind::kReplayed && w->slots[slot].type == type)) {
      ++slot;
    }
    if (slot == w->slots.size()) {
      w->slots.push_back(Slot{
          .section = SectionName(type), .type = type, .ratio = 0, .kind = Slot::Kind::kReplayed});
    }
    replay.slots.push_back(static_cast<uint16_t>(slot));
    args.assign(command.args.begin(), command.args.end());
    protocol::AppendCommand(&replay.requests.emplace_back(), args);
  }
  w->replay = std::move(replay);
}

// --scan-incremental-iteration: the one --command (a SCAN, as Validate checked) starts each
// walk; its continuations are counted apart, in the rows memtier names "SCAN 0" and
// "SCAN <cursor>".
void MakeScanWalk(Workload* w) {
  Slot& start = w->slots[0];
  start.kind = Slot::Kind::kScanStart;
  start.draws_more = true;
  start.section = "Scan 0s";
  start.type = "SCAN 0";
  const auto& args = start.tmpl->args();
  w->scan_rest.assign(args.begin() + 2, args.end());
  w->slots.push_back(Slot{.section = "Scan <cursor>s",
                          .type = "SCAN <cursor>",
                          .ratio = 0,
                          .kind = Slot::Kind::kScanNext});
}

// The slot of one --command: its template, or the captured command __monitor_lineN__ names
// (sent as captured), or __monitor_line@__'s, which stands for all of them.
core::Result<Slot> CommandSlot(const Config& config, const CommandConfig& cmd) {
  auto monitor = ParseMonitorPlaceholder(cmd.text, config.monitor_commands.size());
  if (!monitor) return tl::unexpected(monitor.error());
  if (monitor->kind == MonitorRef::Kind::kAny) {
    return Slot{.ratio = cmd.ratio, .kind = Slot::Kind::kReplay, .draws_more = true};
  }
  auto t =
      monitor->kind == MonitorRef::Kind::kLine
          ? protocol::CommandTemplate::FromArgs(config.monitor_commands[monitor->index].args,
                                                protocol::CommandTemplate::Placeholders::kLiteral)
          : protocol::CommandTemplate::Compile(cmd.text);
  if (!t) return tl::unexpected(t.error());
  Slot slot{.section = SectionName(t->name()),
            .type = core::AsciiUpper(t->name()),
            .ratio = cmd.ratio,
            .key_pattern = cmd.key_pattern,
            .kind = Slot::Kind::kCustom};
  // memtier names a captured command's own row by its place: "Rpush (line 2)s".
  if (monitor->kind == MonitorRef::Kind::kLine && config.stats_breakdown == StatsBreakdown::kLine) {
    slot.section = SectionName(slot.type + " (Line " + std::to_string(monitor->index + 1) + ")");
  }
  slot.tmpl = std::move(*t);
  return slot;
}

core::Status AddCommandSlots(const Config& config, Workload* w) {
  bool replays = false;
  for (const auto& cmd : config.commands) {
    auto slot = CommandSlot(config, cmd);
    if (!slot) return tl::unexpected(core::WithContext(slot.error(), "--command"));
    replays = replays || slot->kind == Slot::Kind::kReplay;
    w->slots.push_back(std::move(*slot));
  }
  if (replays) AddReplayedSlots(config, w);
  if (config.scan_incremental) MakeScanWalk(w);
  return core::Ok();
}

}  // namespace

core::Result<Workload> BuildWorkload(const Config& config) {
  Workload w;
  if (config.commands.empty()) {
    Slot set{.section = "Sets",
             .type = "SET",
             .ratio = config.load.ratio.set,
             .key_pattern = config.set_pattern,
             .kind = Slot::Kind::kSet};
    Slot get{.section = "Gets",
             .type = "GET",
             .ratio = config.load.ratio.get,
             .key_pattern = config.get_pattern,
             .kind = Slot::Kind::kGet};
    if (config.protocol == Protocol::kRedis) {
      const auto [set_text, get_text] = RedisSetGet(config.data_offset);
      set.tmpl = *protocol::CommandTemplate::Compile(set_text);
      get.tmpl = *protocol::CommandTemplate::Compile(get_text);
    }
    // Imported items are written whole when sent (ClientWorkload::EncodeImported).
    set.draws_more = get.draws_more = config.imported != nullptr;
    w.slots.push_back(std::move(set));
    w.slots.push_back(std::move(get));
    // Never in the ratio cycle (ratio 0): ClientWorkload puts WAITs between its requests.
    if (config.wait.on()) {
      w.slots.push_back(
          Slot{.section = "Waits", .type = "WAIT", .ratio = 0, .kind = Slot::Kind::kWait});
    }
  } else if (auto st = AddCommandSlots(config, &w); !st) {
    return tl::unexpected(st.error());
  }
  // A fixed value size lays its "$<len>" out in advance; varying sizes write it per request.
  const std::optional<size_t> fixed_data_size = FixedValueSize(config);
  for (Slot& slot : w.slots) {
    // Written whole when sent: a WAIT, an imported item.
    if (slot.kind == Slot::Kind::kWait || config.imported != nullptr) continue;
    if (slot.tmpl) {
      slot.encoder = protocol::NumberedKeyEncoder::ForTemplate(*slot.tmpl, config.load.key_prefix,
                                                               fixed_data_size);
    } else if (slot.kind == Slot::Kind::kGet) {
      slot.encoder = protocol::NumberedKeyEncoder::ForMemcacheGet(config.load.key_prefix);
    } else if (slot.kind == Slot::Kind::kSet) {
      slot.encoder =
          protocol::NumberedKeyEncoder::ForMemcacheSet(config.load.key_prefix, fixed_data_size);
    }
  }
  const uint64_t max_data = LargestValueSize(config);
  w.data.resize(max_data);
  // Printable, varied bytes: engines that compress or dedupe values see no trivial pattern.
  Rng rng(42);
  for (auto& c : w.data) c = static_cast<char>('a' + rng.Below(26));
  const uint64_t key_bytes = config.load.key_prefix.size() + 20;
  w.max_request_bytes = 64 + 2 * key_bytes + max_data;
  if (w.replay) {
    for (const std::string& request : w.replay->requests) {
      w.max_request_bytes = std::max<uint64_t>(w.max_request_bytes, request.size());
    }
  }
  for (const std::string& arg : w.scan_rest) w.max_request_bytes += arg.size() + 16;
  for (const auto& slot : w.slots) {
    if (slot.tmpl) {
      w.max_request_bytes =
          std::max<uint64_t>(w.max_request_bytes, slot.tmpl->EncodedSize(key_bytes, max_data));
    }
  }
  return w;
}

ClientWorkload::ClientWorkload(const Config& config, const Workload& workload, int global_client,
                               uint64_t random_base)
    : config_(config),
      workload_(workload),
      rng_(ClientSeed(config, global_client, random_base)),
      sizes_(config),
      // Its own stream: -R leaves the keys and sizes a run draws as they are without it.
      data_rng_(ClientSeed(config, global_client, random_base) ^ 0x5EEDDA7Aull),
      data_(workload.data.data()),
      imported_(config.imported.get()),
      prefix_len_(config.load.key_prefix.size()) {
  DFB_CHECK(prefix_len_ + 24 <= sizeof(key_buf_));
  std::memcpy(key_buf_, config.load.key_prefix.data(), prefix_len_);
  for (const auto& slot : workload.slots) {
    keys_.emplace_back(config, slot.key_pattern, global_client, config.total_clients());
  }
  // Start at the first slot that is sent at all.
  while (workload_.slots[slot_].ratio == 0) ++slot_;
  args_.reserve(4);
  for (size_t i = 0; i < workload.slots.size(); ++i) {
    if (workload.slots[i].kind == Slot::Kind::kWait) wait_slot_ = static_cast<uint16_t>(i);
  }
  if (config.scan_incremental) scan_ = std::make_unique<ScanCursor>(config.scan_max_iterations);
  if (config.random_data) {
    random_data_.resize(workload.data.size());
    FillRandomData();
    data_ = random_data_.data();
  }
}

void ClientWorkload::FillRandomData() {
  for (char& c : random_data_) c = static_cast<char>(data_rng_.Next());
}

// memtier's object_generator::get_value with random data: each value differs from the last by
// one byte, the next in turn; after the last byte, all of them are drawn anew.
void ClientWorkload::ChangeRandomData() {
  if (random_data_.empty()) return;
  ++random_data_[change_at_++];
  if (change_at_ == random_data_.size()) {
    change_at_ = 0;
    FillRandomData();
  }
}

Request ClientWorkload::DrawBesideWaits() {
  const WaitConfig& wait = config_.wait;
  if (waits_sent_ == 0 || sets_sent_ / waits_sent_ > wait.sets / wait.waits) {
    ++waits_sent_;
    // memtier's numreplicas is uniform in the range; its timeout normal, centred in the range,
    // with a sixth of it as the standard deviation (obj_gen.cpp, gaussian_distribution_range).
    const uint64_t replicas = rng_.Between(wait.replicas_min, wait.replicas_max);
    const double spread = wait.timeout_max_ms - wait.timeout_min_ms;
    const uint64_t timeout_ms = GaussianBetween(rng_, wait.timeout_min_ms, wait.timeout_max_ms,
                                                wait.timeout_min_ms + spread / 2, spread / 6);
    return Request{
        .key_index = replicas, .data_size = static_cast<uint32_t>(timeout_ms), .slot = wait_slot_};
  }
  const Request request = DrawFromMix();
  if (workload_.slots[request.slot].kind == Slot::Kind::kSet) ++sets_sent_;
  return request;
}

Request ClientWorkload::DrawFromMix() {
  // Ratio cycle: `ratio` requests of slot 0, then of slot 1, ... (memtier's order).
  const auto& slots = workload_.slots;
  while (repeat_ >= slots[slot_].ratio) {
    repeat_ = 0;
    slot_ = (slot_ + 1) % static_cast<uint32_t>(slots.size());
  }
  ++repeat_;
  Request request;
  request.slot = static_cast<uint16_t>(slot_);
  request.key_index = keys_[slot_].Next(rng_);
  request.data_size = sizes_.Next(request.key_index, rng_);
  if (config_.random_data) ChangeRandomData();
  // Only writes expire (SETEX, memcached's exptime).
  if (slots[slot_].kind == Slot::Kind::kSet && config_.expiry_max_s > 0) {
    request.ttl_s = static_cast<uint32_t>(rng_.Between(config_.expiry_min_s, config_.expiry_max_s));
  }
  if (slots[slot_].draws_more) [[unlikely]]
    DrawBeyondMix(slots[slot_], &request);
  return request;
}

// memtier's import_object_generator: a SET writes the next item of the file, its exptime
// unless --no-expiry (--expiry-range overrides it); a GET reads item key_index - 1.
void ClientWorkload::DrawImported(Request* request) {
  if (workload_.slots[request->slot].kind == Slot::Kind::kSet) {
    request->item = next_item_;
    next_item_ = (next_item_ + 1) % static_cast<uint32_t>(imported_->size());
    const uint32_t expiry = (*imported_)[request->item].expiry_s;
    if (config_.expiry_max_s == 0 && !config_.no_expiry) request->ttl_s = expiry;
  } else if (!config_.generate_keys) {
    request->item = static_cast<uint32_t>((request->key_index - 1) % imported_->size());
  }
}

void ClientWorkload::DrawBeyondMix(const Slot& slot, Request* request) {
  if (slot.kind == Slot::Kind::kReplay) {
    const Replay& replay = *workload_.replay;
    const uint64_t n = replay.requests.size();
    const uint64_t i =
        replay.random ? rng_.Below(n) : replay.next->fetch_add(1, std::memory_order_relaxed) % n;
    request->key_index = i;
    request->slot = replay.slots[i];
  } else if (slot.kind == Slot::Kind::kScanStart) {
    const bool continuing = scan_->continuing();
    scan_->Sent(continuing);
    if (continuing) ++request->slot;  // the kScanNext slot follows it
  } else {
    DrawImported(request);
  }
}

std::string_view ClientWorkload::Key(const Request& request) {
  if (imported_ != nullptr && !config_.generate_keys) return (*imported_)[request.item].key;
  char* end =
      std::to_chars(key_buf_ + prefix_len_, key_buf_ + sizeof(key_buf_), request.key_index).ptr;
  return {key_buf_, static_cast<size_t>(end - key_buf_)};
}

void ClientWorkload::Encode(const Request& request, protocol::RequestBuffer* out) {
  const Slot& slot = workload_.slots[request.slot];
  if (!slot.encoder) [[unlikely]]
    return EncodeUnprepared(request, out);
  const std::string_view data(data_, request.data_size);
  if (request.ttl_s > 0) return EncodeWithTtl(request, out, data);
  slot.encoder->Encode(out, request.key_index, data);
}

void ClientWorkload::EncodeUnprepared(const Request& request, protocol::RequestBuffer* out) {
  switch (workload_.slots[request.slot].kind) {
    case Slot::Kind::kWait:
      return EncodeWait(request, out);
    case Slot::Kind::kReplayed:
      return out->append(workload_.replay->requests[request.key_index]);
    case Slot::Kind::kScanNext:
      break;
    default:
      return EncodeImported(request, out);
  }
  // SCAN <cursor> and the SCAN's other arguments.
  args_.clear();
  args_.emplace_back("SCAN");
  args_.push_back(scan_->cursor());
  for (const std::string& arg : workload_.scan_rest) args_.push_back(arg);
  with_ttl_.clear();
  protocol::AppendCommand(&with_ttl_, args_);
  out->append(with_ttl_);
}

void ClientWorkload::EncodeWait(const Request& request, protocol::RequestBuffer* out) {
  char replicas[24];
  char timeout[24];
  char* replicas_end = std::to_chars(replicas, replicas + sizeof(replicas), request.key_index).ptr;
  char* timeout_end = std::to_chars(timeout, timeout + sizeof(timeout), request.data_size).ptr;
  args_.clear();
  args_.emplace_back("WAIT");
  args_.emplace_back(replicas, static_cast<size_t>(replicas_end - replicas));
  args_.emplace_back(timeout, static_cast<size_t>(timeout_end - timeout));
  with_ttl_.clear();
  protocol::AppendCommand(&with_ttl_, args_);
  out->append(with_ttl_);
}

// An imported item's SET (SETEX with its expiry), or a GET of an item's or a generated key.
void ClientWorkload::EncodeImported(const Request& request, protocol::RequestBuffer* out) {
  const Slot& slot = workload_.slots[request.slot];
  if (slot.kind == Slot::Kind::kSet) {
    return EncodeWithTtl(request, out, (*imported_)[request.item].value);
  }
  const std::string_view key = Key(request);
  with_ttl_.clear();
  if (config_.protocol == Protocol::kMemcacheText) {
    protocol::AppendMemcacheGet(&with_ttl_, key);
  } else {
    args_.clear();
    args_.emplace_back("GET");
    args_.push_back(key);
    protocol::AppendCommand(&with_ttl_, args_);
  }
  out->append(with_ttl_);
}

// A write by the general encoders: SETEX (memcached: set with an exptime) when it expires,
// else SET.
void ClientWorkload::EncodeWithTtl(const Request& request, protocol::RequestBuffer* out,
                                   std::string_view data) {
  const std::string_view key = Key(request);
  with_ttl_.clear();
  if (config_.protocol == Protocol::kMemcacheText) {
    protocol::AppendMemcacheSet(&with_ttl_, key, data, std::chrono::seconds(request.ttl_s));
    out->append(with_ttl_);
    return;
  }
  if (request.ttl_s == 0) {
    args_.clear();
    args_.emplace_back("SET");
    args_.push_back(key);
    args_.push_back(data);
    protocol::AppendCommand(&with_ttl_, args_);
    out->append(with_ttl_);
    return;
  }
  char ttl_buf[24];
  char* ttl_end = std::to_chars(ttl_buf, ttl_buf + sizeof(ttl_buf), request.ttl_s).ptr;
  args_.clear();
  args_.emplace_back("SETEX");
  args_.push_back(key);
  args_.emplace_back(ttl_buf, static_cast<size_t>(ttl_end - ttl_buf));
  args_.push_back(data);
  protocol::AppendCommand(&with_ttl_, args_);
  out->append(with_ttl_);
}

}  // namespace dfbench::loadgen
