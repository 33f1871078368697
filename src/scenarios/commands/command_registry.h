// The commands `run-commands` knows: what each sends, whether it reads existing data (and the
// keyspace that is preloaded for it), whether it mutates or drains that keyspace.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dfbench::scenarios {

// The keyspace a command needs before it is measured. Every key of the range ends with exactly
// `items` items: each pass writes one request per key over the whole range (memtier's parallel
// key pattern), and the passes together write items 1..items.
struct PreloadSpec {
  // Built-ins: "RPUSH __key__" followed, per item of the pass, by `item` with __item__ replaced
  // by the item's number ("member:__item__" -> "member:7"); `items_per_request` items per pass.
  // Custom (--preload-template): `head` is the whole request and `item` is empty; one item per
  // pass, __item__ in `head` replaced by the pass's item number.
  std::string head;
  std::string item;
  int items = 0;  // 0: nothing to preload
  int items_per_request = 1;

  bool empty() const { return items == 0; }
  // The request template of each pass, in order.
  std::vector<std::string> PassTemplates() const;
};

struct CommandProfile {
  std::string name;  // "LRANGE": results label and raw-file name
  std::string tmpl;  // memtier arbitrary-command form: "LRANGE __key__ 0 9"
  PreloadSpec preload;
  bool mutates = false;  // flush (and preload) before every trial
  bool drains = false;   // empties its preloaded keyspace (implies mutates; approximate)
  // Keys 1..key_maximum are measured and preloaded. 0: the run's --key-maximum, or for a
  // multi-item preload the smaller of it and kStructuredKeyMaximum.
  uint64_t key_maximum = 0;

  bool reads() const { return !preload.empty(); }
  // The key range this command runs on in a run whose --key-maximum is `run_key_maximum`.
  uint64_t KeyRange(uint64_t run_key_maximum) const;
};

// Multi-item preloads (lists, sets, hashes, sorted sets) cover at most this many keys, so a
// 100-item preload stays at 100M items whatever --key-maximum says.
inline constexpr uint64_t kStructuredKeyMaximum = 1000000;

// SET, GET, MSET, MGET, INCR, APPEND, EXISTS, EXPIRE, TTL, DEL, LPUSH, RPUSH, LPOP, RPOP, LRANGE,
// HSET, HGET, HGETALL, SADD, SISMEMBER, SMEMBERS, ZADD, ZSCORE, ZRANGE, PING, in that order.
const std::vector<CommandProfile>& BuiltinCommands();
// Case-insensitive; nullptr when unknown.
const CommandProfile* FindBuiltinCommand(std::string_view name);
// "SET, GET, MSET, ..." for messages and help.
std::string BuiltinCommandNames();

}  // namespace dfbench::scenarios
