#include "providers/endpoint_provider.h"

#include <chrono>
#include <cstdlib>

#include "core/files.h"
#include "core/format.h"
#include "core/log.h"
#include "core/text.h"
#include "core/time_format.h"
#include "engines/deployment.h"
#include "hosts/local_host.h"
#include "protocol/server_url.h"

namespace dfbench::providers {
namespace {

using core::ErrorKind;

std::filesystem::path EndpointWorkDir(const std::string& id) {
  return state::SetupDir(id) / "work";
}

// The password `record` says where to read ("" when it names no place).
core::Result<std::string> ReadPassword(const std::string& engine,
                                       const state::EndpointRecord& record) {
  if (!record.password_file.empty()) {
    auto text = core::ReadFile(record.password_file);
    if (!text) {
      return core::Fail(ErrorKind::kUsage, core::Format("the password of endpoint {}: {}", engine,
                                                        text.error().message));
    }
    // A file written by `echo` ends with a newline that is not part of the password.
    std::string password = *text;
    while (!password.empty() && (password.back() == '\n' || password.back() == '\r')) {
      password.pop_back();
    }
    if (password.empty()) {
      return core::Fail(ErrorKind::kUsage, core::Format("the password of endpoint {}: {} is empty",
                                                        engine, record.password_file));
    }
    return password;
  }
  if (!record.password_env.empty()) {
    const char* value = std::getenv(record.password_env.c_str());
    // An empty variable is a mistake, not a password: no server takes an empty one.
    if (value == nullptr || *value == '\0') {
      return core::Fail(ErrorKind::kUsage,
                        core::Format("endpoint {} ({}) needs its password: set {} ({}; dfbench "
                                     "keeps no password)",
                                     engine, record.url, record.password_env,
                                     value == nullptr ? "it is unset" : "it is empty"));
    }
    return std::string(value);
  }
  return std::string();
}

// How dfbench reaches the endpoint `record` names, with `password`.
core::Result<protocol::ServerEndpoint> EndpointOf(const state::EndpointRecord& record,
                                                  std::string password) {
  auto url = protocol::ParseServerUrl(record.url);
  if (!url) return tl::unexpected(url.error());
  // A recorded URL holds no password: the lone word before '@' (Redacted) is its user.
  if (url->bare_userinfo) std::swap(url->user, url->password);
  protocol::ServerEndpoint endpoint{.address = url->host,
                                    .port = url->port,
                                    .user = url->user,
                                    .password = std::move(password),
                                    .db = url->db};
  if (url->tls) {
    auto tls = protocol::TlsContext::Create({.enabled = true,
                                             .cert = record.cert,
                                             .key = record.key,
                                             .cacert = record.cacert,
                                             .sni = record.sni,
                                             .skip_verify = record.skip_verify});
    if (!tls) return tl::unexpected(tls.error());
    endpoint.tls = std::move(*tls);
  }
  return endpoint;
}

// One endpoint of a request, ready to be met: its record and how to reach it. Everything that
// can be refused without reaching the server is refused here (the URL, the password and its
// file, the TLS files), so that CheckRequest refuses it before a setup is recorded.
struct Prepared {
  state::EndpointRecord record;
  protocol::ServerEndpoint endpoint;
  bool url_password = false;  // the password came in the URL (and is not recorded)
};

core::Result<Prepared> Prepare(const EndpointRequest::Named& named, const EndpointRequest& asked) {
  auto url = protocol::ParseServerUrl(named.url);
  if (!url) return core::Fail(ErrorKind::kUsage, "--endpoint: " + url.error().message);
  // With the password in a file or the environment, "rediss://bench@host" names the user
  // (a URL alone reads a lone word as the password, as redis-cli does). A password written
  // after a ':' stays a password: it is never sent or recorded as a user name.
  const bool password_elsewhere = !asked.password_file.empty() || !asked.password_env.empty();
  if (password_elsewhere && url->bare_userinfo) {
    std::swap(url->user, url->password);
  } else if (password_elsewhere && !url->password.empty()) {
    return core::Fail(ErrorKind::kUsage,
                      "--endpoint " + protocol::Redacted(*url) +
                          ": the URL holds a password and --password-file or --password-env "
                          "names another; give it once");
  }
  Prepared out{.record = {.allow_flush = asked.allow_flush,
                          .cacert = asked.tls.cacert,
                          .cert = asked.tls.cert,
                          .key = asked.tls.key,
                          .password_env = asked.password_env,
                          .password_file = asked.password_file,
                          .skip_verify = asked.tls.skip_verify,
                          .sni = asked.tls.sni,
                          .url = protocol::Redacted(*url)}};
  state::EndpointRecord& record = out.record;
  if (!url->password.empty() && record.password_file.empty() && record.password_env.empty()) {
    record.password_env = kEndpointPasswordEnv;
    out.url_password = true;
  }
  std::string password = url->password;
  if (password.empty()) {
    auto read = ReadPassword(named.engine.empty() ? record.url : named.engine, record);
    if (!read) return tl::unexpected(read.error());
    password = std::move(*read);
  }
  auto endpoint = EndpointOf(record, std::move(password));
  if (!endpoint) return tl::unexpected(endpoint.error());
  out.endpoint = std::move(*endpoint);
  return out;
}

// The engine the server at `endpoint` says it is (INFO server).
core::Result<const engines::EngineSpec*> EngineAt(const protocol::ServerEndpoint& endpoint,
                                                  const std::string& url) {
  // The first contact, at loadgen's connect timeout: a server that never answers (a plain one
  // behind a rediss:// URL never finishes the handshake) is reported in seconds.
  auto client = protocol::ConnectTo(endpoint, std::chrono::seconds(5));
  if (!client) return tl::unexpected(client.error());
  auto info = client->Command({"INFO", "server"});
  if (!info) return tl::unexpected(info.error());
  const std::string name = info->is_error() ? "" : engines::EngineFromInfo(info->str);
  if (name.empty()) {
    return core::Fail(ErrorKind::kUsage,
                      "--endpoint " + url +
                          ": its INFO names no engine; name it: --endpoint redis=URL (or "
                          "valkey=, dragonfly=)");
  }
  return engines::FindEngine(name);
}

// Removes the keys under `run`'s prefix from the endpoint `record` names (every primary of a
// cluster); what is left, and why, recorded in `run` when that cannot finish.
core::Status RemoveRunPrefix(const std::string& engine, const state::EndpointRecord& record,
                             state::RunKeysRecord* run) {
  auto fail = [&](const core::Error& e) -> core::Status {
    run->error = e.message;
    return tl::unexpected(e);
  };
  const engines::EngineSpec* spec = engines::FindEngine(engine);
  if (spec == nullptr) return fail({ErrorKind::kUsage, "unknown engine " + engine});
  auto password = ReadPassword(engine, record);
  if (!password) return fail(password.error());
  auto endpoint = EndpointOf(record, std::move(*password));
  if (!endpoint) return fail(endpoint.error());
  auto met =
      engines::Deployment::Attach(*spec, {.endpoint = *endpoint, .key_namespace = run->prefix});
  if (!met) return fail(met.error());
  // Stop, for an endpoint, is the removal of the prefix's keys.
  auto removed = met->OnEach(&engines::RunningEngine::Stop);
  if (removed) return core::Ok();
  uint64_t left = 0;
  for (auto& process : met->processes()) {
    if (auto keys = process.KeyCount()) left += *keys;
  }
  run->keys_left = left;
  return fail(removed.error());
}

// The engine of an endpoint: the one it is named as (with a warning line when its INFO names
// another: the results will carry the name given), else the one its INFO names.
core::Result<const engines::EngineSpec*> EngineOfEndpoint(const std::string& name,
                                                          const protocol::ServerEndpoint& endpoint,
                                                          const std::string& url) {
  if (name.empty()) return EngineAt(endpoint, url);
  const engines::EngineSpec* spec = engines::FindEngine(name);
  auto found = EngineAt(endpoint, url);
  // A server that cannot be reached is reported now, not met again at every timeout of Attach.
  if (!found && found.error().kind == ErrorKind::kEnvironment) {
    return tl::unexpected(found.error());
  }
  if (found && spec != nullptr && *found != nullptr && (*found)->name != spec->name) {
    core::Notef(
        "warning: --endpoint {}={}: the server's INFO says it is {}; it is recorded as {}, "
        "as named",
        name, url, (*found)->name, spec->name);
  }
  return spec;
}

}  // namespace

core::Status EndpointProvider::RemoveRunKeys(state::SetupState* state) {
  if (!state->provider_data.endpoints) return core::Ok();
  core::Status first = core::Ok();
  for (auto& [engine, record] : *state->provider_data.endpoints) {
    std::vector<state::RunKeysRecord> kept;
    for (auto& run : record.run_keys) {
      auto st = RemoveRunPrefix(engine, record, &run);
      if (st) continue;
      if (first) first = tl::unexpected(st.error());
      kept.push_back(std::move(run));
    }
    record.run_keys = std::move(kept);
  }
  return first;
}

bool EndpointProvider::ForgetRunKeys(state::SetupState* state) {
  if (!state->provider_data.endpoints) return false;
  bool forgot = false;
  for (auto& [engine, record] : *state->provider_data.endpoints) {
    for (const auto& run : record.run_keys) {
      // A count is known only when a removal that reached the server could not finish.
      const std::string keys = run.keys_left > 0 ? core::Format("{} key(s)", run.keys_left)
                                                 : std::string("an unknown number of keys");
      core::Notef(
          "warning: {} at {} may still hold {} under \"{}\", which the destroyed setup no "
          "longer records{}",
          engine, record.url, keys, run.prefix, run.error.empty() ? "" : " (" + run.error + ")");
      forgot = true;
    }
    record.run_keys.clear();
  }
  return forgot;
}

core::Status EndpointProvider::CheckRequest(const SetupRequest& request) {
  for (const auto& named : request.endpoint.endpoints) {
    if (auto prepared = Prepare(named, request.endpoint); !prepared) {
      return tl::unexpected(prepared.error());
    }
  }
  return core::Ok();
}

core::Status EndpointProvider::Provision(state::SetupState* state, const SetupRequest& request) {
  const EndpointRequest& asked = request.endpoint;
  if (asked.endpoints.empty()) {
    return core::Fail(ErrorKind::kUsage,
                      "--provider endpoint needs --endpoint [ENGINE=]redis[s]://HOST:PORT");
  }
  hosts::LocalHost host(EndpointWorkDir(state->id));
  auto facts = host.Facts(core::Role::Client());
  if (!facts) return tl::unexpected(facts.error());
  state->provider = Kind();
  state->hosts = {*facts};
  state->engines.clear();
  std::map<std::string, state::EndpointRecord> records;
  for (const auto& named : asked.endpoints) {
    auto prepared = Prepare(named, asked);
    if (!prepared) return tl::unexpected(prepared.error());
    state::EndpointRecord& record = prepared->record;
    const protocol::ServerEndpoint& endpoint = prepared->endpoint;
    if (prepared->url_password) {
      core::Notef("{}: the password in the URL is not kept; later commands read it from ${}",
                  record.url, kEndpointPasswordEnv);
    }
    auto engine = EngineOfEndpoint(named.engine, endpoint, record.url);
    if (!engine) return tl::unexpected(engine.error());
    const engines::EngineSpec* spec = *engine;
    if (spec == nullptr || spec->protocol != core::Protocol::kRedis) {
      return core::Fail(ErrorKind::kUsage, "--endpoint " + named.engine + "=" + record.url +
                                               ": an endpoint serves dragonfly, redis or valkey");
    }
    if (records.count(spec->name)) {
      return core::Fail(ErrorKind::kUsage,
                        "--endpoint: two endpoints for " + spec->name +
                            "; name each one's engine (ENGINE=URL), one endpoint per engine");
    }
    auto met = engines::Attach(*spec, {.endpoint = endpoint});
    if (!met) return tl::unexpected(met.error());
    core::Notef("{}: {} at {}", spec->name, met->version(), record.url);
    state->engines.push_back(state::EngineInstall{.name = spec->name,
                                                  .binary = "",
                                                  .version = met->version(),
                                                  .status = state::InstallStatus::kInstalled,
                                                  .origin = "endpoint"});
    records[spec->name] = std::move(record);
  }
  state->provider_data.endpoints = std::move(records);
  return core::Ok();
}

core::Result<std::optional<std::filesystem::path>> EndpointProvider::DryRun(
    const std::string& setup_id, const SetupRequest& request) const {
  // Meeting an endpoint reads from it (PING, AUTH, SELECT, INFO, COMMAND) and writes nothing.
  state::SetupState scratch{.id = setup_id};
  if (auto st = EndpointProvider().Provision(&scratch, request); !st) {
    return tl::unexpected(st.error());
  }
  return std::nullopt;
}

core::Result<Fleet> EndpointProvider::Connect(const state::SetupState& state) {
  if (state.provider != Kind()) {
    return core::Fail(ErrorKind::kUsage, "setup \"" + state.id + "\" belongs to the " +
                                             state::ToString(state.provider) +
                                             " provider, not endpoint");
  }
  auto host = std::make_shared<hosts::LocalHost>(EndpointWorkDir(state.id));
  Fleet fleet{.server = host, .client = host};
  const std::string key_namespace =
      core::Format("dfbench:{}:{}:", state.id, core::FormatTimestampId(clock_->WallNow()));
  for (const auto& [engine, record] :
       state.provider_data.endpoints.value_or(std::map<std::string, state::EndpointRecord>{})) {
    auto password = ReadPassword(engine, record);
    if (!password) return tl::unexpected(password.error());
    auto endpoint = EndpointOf(record, std::move(*password));
    if (!endpoint) return tl::unexpected(endpoint.error());
    fleet.endpoints[engine] =
        EngineEndpoint{.attach = {.endpoint = std::move(*endpoint),
                                  .key_namespace = record.allow_flush ? "" : key_namespace},
                       .url = record.url};
  }
  return fleet;
}

core::Status EndpointProvider::Destroy(state::SetupState* state) {
  if (auto st = RemoveRunKeys(state); !st) {
    return core::Fail(st.error().kind,
                      st.error().message +
                          "; the setup keeps the prefix until its keys can be removed (" +
                          state::DestroyCommand(state->id) + " --force forgets it)");
  }
  std::error_code ec;
  std::filesystem::remove_all(EndpointWorkDir(state->id), ec);
  if (ec) {
    return core::Fail(ErrorKind::kEnvironment,
                      "cannot remove " + EndpointWorkDir(state->id).string() + ": " + ec.message());
  }
  return core::Ok();
}

core::Status EndpointProvider::InstallEngine(state::SetupState* state, Fleet& fleet,
                                             const engines::EngineSpec& spec,
                                             const engines::VersionSpec& version) {
  (void)state;
  (void)fleet;
  return core::Fail(ErrorKind::kUsage,
                    "--" + spec.name + "_version " + version.value +
                        ": an endpoint runs the version its service runs; dfbench installs "
                        "nothing there");
}

}  // namespace dfbench::providers
