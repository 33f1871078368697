// A server dfbench did not start (an endpoint): met, counted and cleaned up without ever being
// started, stopped or flushed unless that was allowed. Managed services rename or refuse
// commands; what this needs of them is asked for and, when refused, recorded, not fatal.
#include <algorithm>
#include <array>

#include "core/format.h"
#include "core/text.h"
#include "engines/engine.h"
#include "protocol/server_endpoint.h"

namespace dfbench::engines {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kEndpointTimeout{10000};
// Keys per SCAN page and per pipelined batch of UNLINKs.
constexpr size_t kScanCount = 1000;

// The commands dfbench's own control traffic uses on an endpoint.
// DEL and KEYS stand in for UNLINK and SCAN where those are not offered.
constexpr std::array<const char*, 9> kControlCommands = {
    "INFO", "DBSIZE", "FLUSHALL", "SCAN", "KEYS", "UNLINK", "DEL", "CLUSTER", "CONFIG"};

std::string Where(const protocol::ServerEndpoint& e) {
  return e.address + ":" + std::to_string(e.port);
}

// The control commands the server does not offer (COMMAND INFO answers nil for a command it
// does not know, renamed ones included); ["COMMAND"] when it refuses COMMAND itself.
nlohmann::json UnavailableCommands(protocol::BlockingClient& client) {
  std::vector<std::string> ask = {"COMMAND", "INFO"};
  ask.insert(ask.end(), kControlCommands.begin(), kControlCommands.end());
  auto reply = client.Command(ask);
  nlohmann::json missing = nlohmann::json::array();
  if (!reply || reply->is_error() || reply->elements.size() != kControlCommands.size()) {
    missing.push_back("COMMAND");
    return missing;
  }
  for (size_t i = 0; i < kControlCommands.size(); ++i) {
    if (reply->elements[i].is_null()) missing.push_back(kControlCommands[i]);
  }
  return missing;
}

// What a reply says when it is no answer: its error, or that its shape is unknown.
std::string Refusal(const protocol::Reply& reply) {
  return reply.is_error() ? core::Trim(reply.str) : std::string("an unknown shape");
}

// Calls `page` with each page of keys under `pattern` (SCAN MATCH), until the cursor comes back.
// A server that does not offer SCAN (renamed, refused) is asked KEYS instead: one reply that
// walks the whole keyspace at once, which blocks the server that long, but leaves no key of the
// run behind.
core::Status ScanKeys(protocol::BlockingClient& client, const std::string& pattern,
                      const std::function<core::Status(std::vector<std::string>&)>& page) {
  // KEYS answers every key at once: handed on in pages of SCAN's size all the same.
  auto take = [&](protocol::Reply& list) -> core::Status {
    for (size_t at = 0; at < list.elements.size(); at += kScanCount) {
      std::vector<std::string> keys;
      const size_t end = std::min(list.elements.size(), at + kScanCount);
      keys.reserve(end - at);
      for (size_t i = at; i < end; ++i) keys.push_back(std::move(list.elements[i].str));
      if (auto st = page(keys); !st) return st;
    }
    return core::Ok();
  };
  std::string cursor = "0";
  do {
    auto reply =
        client.Command({"SCAN", cursor, "MATCH", pattern, "COUNT", std::to_string(kScanCount)});
    if (!reply) return tl::unexpected(reply.error());
    if (reply->is_error() && cursor == "0") {
      auto keys = client.Command({"KEYS", pattern});
      if (!keys) return tl::unexpected(keys.error());
      if (keys->type != protocol::ReplyType::kArray) {
        return core::Fail(core::ErrorKind::kFailure,
                          "SCAN answered " + Refusal(*reply) + "; KEYS answered " + Refusal(*keys));
      }
      return take(*keys);
    }
    if (reply->is_error() || reply->elements.size() != 2) {
      return core::Fail(core::ErrorKind::kFailure, "SCAN answered " + Refusal(*reply));
    }
    cursor = reply->elements[0].str;
    if (auto st = take(reply->elements[1]); !st) return st;
  } while (cursor != "0");
  return core::Ok();
}

// Removes `keys` in one pipeline of `verb` (UNLINK, DEL): one request per key, since in a
// cluster the keys of a page live in many slots. The first error reply, "" when none.
core::Result<std::string> RemoveKeys(protocol::BlockingClient& client, const char* verb,
                                     const std::vector<std::string>& keys) {
  std::vector<std::vector<std::string>> requests;
  requests.reserve(keys.size());
  for (const auto& key : keys) requests.push_back({verb, key});
  auto replies = client.Pipeline(requests);
  if (!replies) return tl::unexpected(replies.error());
  for (const auto& reply : *replies) {
    if (reply.is_error()) return core::Trim(reply.str);
  }
  return std::string();
}

// A SCAN pattern matching the keys that start with `prefix` (its glob characters escaped).
std::string PrefixPattern(const std::string& prefix) {
  std::string pattern;
  for (char c : prefix) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') pattern += '\\';
    pattern += c;
  }
  return pattern + "*";
}

}  // namespace

core::Result<RunningEngine> Attach(const EngineSpec& spec, const AttachOptions& options) {
  const protocol::ServerEndpoint& endpoint = options.endpoint;
  auto fail = [&](const std::string& why) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      core::Format("{} at {}: {}", spec.name, Where(endpoint), why));
  };
  auto client = protocol::ConnectTo(endpoint, kEndpointTimeout);
  if (!client) {
    // The reason names the address already.
    return core::Fail(client.error().kind, spec.name + ": " + client.error().message);
  }
  auto ping = client->Command({"PING"});
  if (!ping) return fail(ping.error().message);
  if (ping->is_error()) return fail("PING answered " + ping->str);

  nlohmann::json facts = nlohmann::json::object();
  facts["unavailable_commands"] = UnavailableCommands(*client);
  std::string version = spec.name + " (version unknown)";
  if (auto info = client->Command({"INFO", "server"}); info && !info->is_error()) {
    if (std::string named = VersionFromInfo(info->str); !named.empty()) version = named;
    AddReportedTuning(spec, info->str, &facts);
  } else if (info) {
    facts["info_refused"] = info->str;
  } else {
    return fail(info.error().message);
  }
  RunningEngine engine(nullptr, &spec, hosts::DaemonHandle{}, endpoint.address, endpoint.port,
                       endpoint, std::move(facts), StartOptions{});
  engine.version_ = std::move(version);
  engine.key_namespace_ = options.key_namespace;
  return engine;
}

core::Result<uint64_t> RunningEngine::KeyCount() {
  auto client = protocol::ConnectTo(control_, kEndpointTimeout);
  if (!client) return tl::unexpected(client.error());
  if (!key_namespace_.empty()) {
    uint64_t keys = 0;
    auto counted =
        ScanKeys(*client, PrefixPattern(key_namespace_), [&](std::vector<std::string>& page) {
          keys += page.size();
          return core::Ok();
        });
    if (!counted) return tl::unexpected(counted.error());
    return keys;
  }
  auto reply = client->Command({"DBSIZE"});
  if (!reply) return tl::unexpected(reply.error());
  if (reply->type != protocol::ReplyType::kInteger || reply->integer < 0) {
    return core::Fail(core::ErrorKind::kFailure, "DBSIZE: unexpected reply " + reply->str);
  }
  return static_cast<uint64_t>(reply->integer);
}

core::Status RunningEngine::RemoveNamespace() {
  auto client = protocol::ConnectTo(control_, kEndpointTimeout);
  if (!client) {
    return tl::unexpected(core::WithContext(client.error(), "cannot remove the run's keys"));
  }
  const std::string pattern = PrefixPattern(key_namespace_);
  // UNLINK frees in the background; a server that does not offer it (renamed, refused by an
  // ACL) gets DEL, which frees at once but removes the same keys.
  bool use_del = false;
  std::string unlink_refusal;
  auto removed = ScanKeys(*client, pattern, [&](std::vector<std::string>& page) -> core::Status {
    if (!use_del) {
      auto refused = RemoveKeys(*client, "UNLINK", page);
      if (!refused) return tl::unexpected(refused.error());
      if (refused->empty()) return core::Ok();
      unlink_refusal = *refused;
      use_del = true;
    }
    auto refused = RemoveKeys(*client, "DEL", page);
    if (!refused) return tl::unexpected(refused.error());
    if (refused->empty()) return core::Ok();
    return core::Fail(core::ErrorKind::kFailure,
                      "UNLINK answered " + unlink_refusal + "; DEL answered " + *refused);
  });
  if (removed) return core::Ok();
  // Say how many are left, when they can still be counted.
  std::string left = "some keys";
  uint64_t count = 0;
  if (ScanKeys(*client, pattern, [&](std::vector<std::string>& page) {
        count += page.size();
        return core::Ok();
      })) {
    left = core::Format("{} key(s)", count);
  }
  return core::Fail(removed.error().kind,
                    core::Format("{} at {}: {} of the run left under \"{}\": {}", spec_->name,
                                 Where(control_), left, key_namespace_, removed.error().message));
}

}  // namespace dfbench::engines
