#include "scenarios/commands/command_registry.h"

#include <algorithm>
#include <cctype>

namespace dfbench::scenarios {
namespace {

std::string ReplaceAll(std::string text, std::string_view from, const std::string& to) {
  for (size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

// The keyspaces of the read commands. Multi-item ones write 10 items per request.
const PreloadSpec kStrings{.head = "SET __key__ __data__", .items = 1};
const PreloadSpec kLists{
    .head = "RPUSH __key__", .item = "__data__", .items = 100, .items_per_request = 10};
const PreloadSpec kSets{
    .head = "SADD __key__", .item = "member:__item__", .items = 10, .items_per_request = 10};
const PreloadSpec kHashes{.head = "HSET __key__",
                          .item = "field:__item__ __data__",
                          .items = 10,
                          .items_per_request = 10};
const PreloadSpec kSortedSets{.head = "ZADD __key__",
                              .item = "__item__ member:__item__",
                              .items = 100,
                              .items_per_request = 10};

CommandProfile Writes(std::string name, std::string tmpl) {
  return {.name = std::move(name), .tmpl = std::move(tmpl), .mutates = true};
}
CommandProfile Reads(std::string name, std::string tmpl, const PreloadSpec& preload) {
  return {.name = std::move(name), .tmpl = std::move(tmpl), .preload = preload};
}
CommandProfile Drains(std::string name, std::string tmpl, const PreloadSpec& preload) {
  return {.name = std::move(name),
          .tmpl = std::move(tmpl),
          .preload = preload,
          .mutates = true,
          .drains = true};
}

}  // namespace

std::vector<std::string> PreloadSpec::PassTemplates() const {
  std::vector<std::string> passes;
  if (item.empty()) {
    for (int i = 1; i <= items; ++i)
      passes.push_back(ReplaceAll(head, "__item__", std::to_string(i)));
    return passes;
  }
  const int per = std::max(items_per_request, 1);
  for (int first = 1; first <= items; first += per) {
    std::string request = head;
    for (int i = first; i < first + per && i <= items; ++i) {
      request += ' ';
      request += ReplaceAll(item, "__item__", std::to_string(i));
    }
    passes.push_back(std::move(request));
  }
  return passes;
}

uint64_t CommandProfile::KeyRange(uint64_t run_key_maximum) const {
  if (key_maximum > 0) return key_maximum;
  if (preload.items > 1) return std::min(run_key_maximum, kStructuredKeyMaximum);
  return run_key_maximum;
}

const std::vector<CommandProfile>& BuiltinCommands() {
  static const std::vector<CommandProfile> commands = [] {
    CommandProfile expire = Reads("EXPIRE", "EXPIRE __key__ 3600", kStrings);
    expire.mutates = true;  // every trial starts from keys without a TTL
    return std::vector<CommandProfile>{
        // strings
        Writes("SET", "SET __key__ __data__"),
        Reads("GET", "GET __key__", kStrings),
        Writes("MSET", "MSET __key__ __data__ __key__ __data__"),
        Reads("MGET", "MGET __key__ __key__", kStrings),
        Writes("INCR", "INCR __key__"),
        Writes("APPEND", "APPEND __key__ __data__"),
        // keyspace
        Reads("EXISTS", "EXISTS __key__", kStrings),
        expire,
        Reads("TTL", "TTL __key__", kStrings),
        Drains("DEL", "DEL __key__", kStrings),
        // lists
        Writes("LPUSH", "LPUSH __key__ __data__"),
        Writes("RPUSH", "RPUSH __key__ __data__"),
        Drains("LPOP", "LPOP __key__", kLists),
        Drains("RPOP", "RPOP __key__", kLists),
        Reads("LRANGE", "LRANGE __key__ 0 9", kLists),
        // hashes
        Writes("HSET", "HSET __key__ field:1 __data__"),
        Reads("HGET", "HGET __key__ field:1", kHashes),
        Reads("HGETALL", "HGETALL __key__", kHashes),
        // sets
        Writes("SADD", "SADD __key__ __data__"),
        Reads("SISMEMBER", "SISMEMBER __key__ member:5", kSets),
        Reads("SMEMBERS", "SMEMBERS __key__", kSets),
        // sorted sets
        Writes("ZADD", "ZADD __key__ 1 __data__"),
        Reads("ZSCORE", "ZSCORE __key__ member:50", kSortedSets),
        Reads("ZRANGE", "ZRANGE __key__ 0 9", kSortedSets),
        // connection
        CommandProfile{.name = "PING", .tmpl = "PING"},
    };
  }();
  return commands;
}

const CommandProfile* FindBuiltinCommand(std::string_view name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (const auto& c : BuiltinCommands()) {
    if (c.name == upper) return &c;
  }
  return nullptr;
}

std::string BuiltinCommandNames() {
  std::string out;
  for (const auto& c : BuiltinCommands()) {
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

}  // namespace dfbench::scenarios
