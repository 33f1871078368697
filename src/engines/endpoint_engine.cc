// A server dfbench did not start (an endpoint): met, counted and cleaned up without ever being
// started, stopped or flushed unless that was allowed. Managed services rename or refuse
// commands; what this needs of them is asked for and, when refused, recorded, not fatal.
#include <array>

#include "core/format.h"
#include "engines/engine.h"
#include "protocol/server_endpoint.h"

namespace dfbench::engines {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kEndpointTimeout{10000};
// Keys per SCAN page and per pipelined batch of UNLINKs.
constexpr int kScanCount = 1000;

// The commands dfbench's own control traffic uses on an endpoint.
constexpr std::array<const char*, 7> kControlCommands = {"INFO",   "DBSIZE",  "FLUSHALL", "SCAN",
                                                         "UNLINK", "CLUSTER", "CONFIG"};

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

// Calls `page` with each page of keys under `pattern` (SCAN MATCH), until the cursor comes back.
core::Status ScanKeys(protocol::BlockingClient& client, const std::string& pattern,
                      const std::function<core::Status(std::vector<std::string>&)>& page) {
  std::string cursor = "0";
  do {
    auto reply =
        client.Command({"SCAN", cursor, "MATCH", pattern, "COUNT", std::to_string(kScanCount)});
    if (!reply) return tl::unexpected(reply.error());
    if (reply->is_error() || reply->elements.size() != 2) {
      return core::Fail(core::ErrorKind::kFailure,
                        "SCAN answered " + (reply->is_error() ? reply->str : "an unknown shape"));
    }
    cursor = reply->elements[0].str;
    std::vector<std::string> keys;
    keys.reserve(reply->elements[1].elements.size());
    for (auto& key : reply->elements[1].elements) keys.push_back(std::move(key.str));
    if (auto st = page(keys); !st) return st;
  } while (cursor != "0");
  return core::Ok();
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
  // One UNLINK per key: in a cluster the keys of a page live in many slots.
  auto removed = ScanKeys(
      *client, PrefixPattern(key_namespace_), [&](std::vector<std::string>& page) -> core::Status {
        std::vector<std::vector<std::string>> unlinks;
        unlinks.reserve(page.size());
        for (auto& key : page) unlinks.push_back({"UNLINK", std::move(key)});
        auto replies = client->Pipeline(unlinks);
        if (!replies) return tl::unexpected(replies.error());
        for (const auto& reply : *replies) {
          if (reply.is_error()) {
            return core::Fail(core::ErrorKind::kFailure, "UNLINK answered " + reply.str);
          }
        }
        return core::Ok();
      });
  if (!removed) {
    return core::Fail(removed.error().kind,
                      core::Format("{} at {}: removing the keys under \"{}\": {}", spec_->name,
                                   Where(control_), key_namespace_, removed.error().message));
  }
  return core::Ok();
}

}  // namespace dfbench::engines
