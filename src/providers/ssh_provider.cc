#include "providers/ssh_provider.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "engines/install.h"
#include "hosts/leftovers.h"
#include "hosts/ssh_host.h"
#include "providers/net_tune.h"
#include "providers/ssh_key.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;

using Installs = std::map<std::string, state::InstallRecord>;  // by engine name

fs::path SshDir(const std::string& id) {
  return state::SetupDir(id) / "ssh";
}

// Numbered progress banners on stderr, worded as the reference's: "[2/4] Uploading dfbench...".
class Steps {
 public:
  Steps(int total, int done = 0) : done_(done), total_(total) {}
  void Begin(const std::string& what) {
    std::fprintf(stderr, "[%d/%d] %s...\n", ++done_, total_, what.c_str());
  }
  int done() const { return done_; }

 private:
  int done_ = 0;
  int total_;
};

// The banners ProvisionSshHosts prints: log in, upload dfbench, load generators when asked,
// install, and tune when asked.
int HostSteps(const SetupRequest& request) {
  return 3 + (request.client_tools.any() ? 1 : 0) + (request.tune_network ? 1 : 0);
}

std::string Describe(const ClientTools& tools) {
  std::string out;
  if (tools.memtier != ToolNeed::kNone) out = std::string("memtier_benchmark ") + kMemtierRelease;
  if (tools.dfly_bench != ToolNeed::kNone) {
    out += (out.empty() ? "" : ", ") + std::string("dfly_bench at ") + tools.dfly_bench_ref;
  }
  return out;
}

std::string Names(const std::vector<const engines::EngineSpec*>& specs) {
  std::string out;
  for (const auto* s : specs) out += (out.empty() ? "" : ", ") + s->name;
  return out;
}

core::Result<SshLogin> ReadSshLogin(const state::SetupState& s) {
  if (!s.provider_data.ssh) {
    return core::Fail(
        core::ErrorKind::kUsage,
        "setup \"" + s.id + "\" (" + state::ToString(s.provider) + " provider) has no SSH hosts");
  }
  return *s.provider_data.ssh;
}

hosts::SshEndpoint EndpointOf(const SshLogin& r, const RemoteHostSpec& h) {
  return {.user = r.user, .host = h.address, .port = r.port, .key_path = r.key_path};
}

core::Result<std::unique_ptr<hosts::SshHost>> ConnectHost(const std::string& setup_id,
                                                          const SshLogin& r,
                                                          const RemoteHostSpec& h,
                                                          std::chrono::seconds timeout) {
  hosts::SshEndpoint e = EndpointOf(r, h);
  e.connect_timeout = timeout;
  return hosts::SshHost::Connect({.role = h.role,
                                  .endpoint = e,
                                  .private_address = h.private_address,
                                  .setup_id = setup_id,
                                  .local_dir = SshDir(setup_id)});
}

// Logs in to `h`, trying again for up to `wait` (sshd or the key still coming up on a new
// machine); one attempt when `wait` is zero.
core::Result<std::unique_ptr<hosts::SshHost>> ConnectWhenUp(const std::string& setup_id,
                                                            const SshLogin& login,
                                                            const RemoteHostSpec& h,
                                                            std::chrono::seconds wait,
                                                            core::Clock& clock) {
  const auto deadline = clock.Now() + wait;
  for (;;) {
    auto host = ConnectHost(setup_id, login, h, std::chrono::seconds(10));
    if (host || core::InterruptRequested()) return host;
    if (clock.Now() >= deadline) {
      if (wait.count() == 0) return host;
      return core::Fail(host.error().kind, h.role.Name() + " (" + login.user + "@" + h.address +
                                               ") did not accept SSH within " +
                                               std::to_string(wait.count()) +
                                               " s: " + host.error().message);
    }
    core::Notef("{} is not reachable yet, trying again: {}", h.role.Name(), host.error().message);
    if (!core::SleepUnlessInterrupted(std::chrono::seconds(5), clock)) {
      return core::Fail(core::ErrorKind::kInterrupted,
                        "interrupted while waiting for " + h.role.Name() + " to accept SSH");
    }
  }
}

void PrintKeyInstructions(const KeyPair& pair, const SshLogin& r) {
  std::string where;
  for (const auto& h : r.hosts) where += (where.empty() ? "" : ", ") + h.address;
  core::Notef("add this public key to ~/.ssh/authorized_keys of {} on each host ({}):", r.user,
              where);
  std::fprintf(stderr, "%s\n", pair.public_line.c_str());
  core::Notef("for example: ssh-copy-id -i {} {}@<host>", pair.public_key.string(), r.user);
}

std::string DescribeFacts(const results::HostFacts& f) {
  std::string nic = f.nic.empty() ? "NIC queues unknown"
                                  : "NIC " + f.nic + " (" + std::to_string(f.rx_queues) +
                                        " RX queue" + (f.rx_queues == 1 ? "" : "s") + ")";
  return f.name + ", " + std::to_string(f.vcpus) + " vCPUs, " + f.arch + ", " + f.os + ", " + nic;
}

// Finds or installs one engine on one host; records it in `installs`.
core::Result<state::EngineInstall> Install(hosts::Host& host, const engines::EngineSpec& spec,
                                           const engines::InstallRequest& request,
                                           Installs* installs) {
  auto done = engines::EnsureInstalled(host, spec, request);
  if (!done) return tl::unexpected(done.error());
  core::Notef("[{}] {} on {} ({}: {})", spec.name, done->version, host.Name(), done->method,
              done->source);
  (*installs)[spec.name] = {.method = done->method, .source = done->source};
  return InstalledRecord(spec, *done);
}

}  // namespace

core::Status SshProvider::CheckRequest(const SetupRequest& request) {
  if (request.ssh.key_path.empty()) return core::Ok();
  // ReadFile checks the type before it opens the file (a FIFO nobody writes would never open)
  // and refuses one past its cap; a private key is a few KiB.
  auto key = core::ReadFile(request.ssh.key_path);
  if (!key) return core::Fail(core::ErrorKind::kUsage, "--ssh-key " + key.error().message);
  return core::Ok();
}

core::Status SshProvider::Provision(state::SetupState* s, const SetupRequest& request) {
  s->provider = Kind();
  SshLogin login{.user = request.ssh.user, .port = request.ssh.port, .hosts = request.ssh.hosts};
  bool has_server = false, has_client = false;
  for (const auto& h : login.hosts) {
    has_server |= h.role == core::Role::Server();
    has_client |= h.role == core::Role::Client();
  }
  if (!has_server || !has_client || login.user.empty()) {
    return core::Fail(core::ErrorKind::kUsage,
                      "the ssh provider needs --server HOST, --client HOST and --ssh-user USER");
  }
  Steps steps((request.ssh.key_path.empty() ? 1 : 0) + HostSteps(request));
  KeyPair pair;
  if (request.ssh.key_path.empty()) {
    std::error_code exists_ec;
    steps.Begin(fs::exists(SshDir(s->id) / "id_rsa", exists_ec) ? "Reusing the SSH key pair"
                                                                : "Generating SSH key pair");
    auto made = EnsureKeyPair(SshDir(s->id), "dfbench-" + s->id);
    if (!made) return tl::unexpected(made.error());
    pair = *made;
    login.key_path = pair.private_key.string();
    login.key_generated = true;
    core::Notef("setup {}: {} the SSH key pair {}", s->id, pair.generated ? "generated" : "reusing",
                login.key_path);
    if (pair.generated) PrintKeyInstructions(pair, login);
  } else {
    std::error_code ec;
    auto absolute = fs::absolute(request.ssh.key_path, ec);
    login.key_path = ec ? request.ssh.key_path : absolute.lexically_normal().string();
    if (!fs::is_regular_file(login.key_path, ec)) {
      return core::Fail(core::ErrorKind::kUsage,
                        "--ssh-key " + request.ssh.key_path + ": no such file");
    }
  }
  auto explain = [&](core::Error* e) {
    if (login.key_generated && e->message.find("Permission denied") != std::string::npos) {
      if (!pair.generated) PrintKeyInstructions(pair, login);
      e->message += "\nthe hosts do not accept the key " + login.key_path + " yet: add " +
                    login.key_path + ".pub to ~/.ssh/authorized_keys of " + login.user +
                    " on each host, then run the same setup command again (the key is kept)";
    }
  };
  return ProvisionSshHosts(s, request, login, std::chrono::seconds(0), explain, steps.done());
}

namespace {

// The hosts of a setup, logged in to, by role.
struct LoggedInHosts {
  std::vector<std::unique_ptr<hosts::SshHost>> all;
  hosts::SshHost* server = nullptr;
  std::vector<hosts::SshHost*> clients;  // the first client first
  std::vector<hosts::SshHost*> replicas;
};

// Logs in to every host of `login` (waiting up to `login_wait` for each) and records its facts
// in s->hosts.
core::Result<LoggedInHosts> LogInToHosts(
    state::SetupState* s, const SshLogin& login, std::chrono::seconds login_wait,
    const std::function<void(core::Error*)>& explain_login_failure, Steps& steps,
    core::Clock& clock) {
  LoggedInHosts out;
  s->hosts.clear();
  std::string roles;
  for (const auto& h : login.hosts) roles += (roles.empty() ? "" : ", ") + h.role.Name();
  steps.Begin("Logging in to the hosts (" + roles + ")");
  for (const auto& h : login.hosts) {
    core::Notef("setup {}: logging in to {} ({}@{})", s->id, h.role.Name(), login.user, h.address);
    auto host = ConnectWhenUp(s->id, login, h, login_wait, clock);
    if (!host) {
      core::Error e = host.error();
      if (explain_login_failure) explain_login_failure(&e);
      return tl::unexpected(e);
    }
    auto facts = (*host)->Facts(h.role);
    if (!facts) return tl::unexpected(facts.error());
    core::Notef("{}: {}", (*host)->Name(), DescribeFacts(*facts));
    s->hosts.push_back(*facts);
    if (h.role == core::Role::Server()) out.server = host->get();
    if (h.role.IsClient()) out.clients.push_back(host->get());
    if (h.role.IsReplica()) out.replicas.push_back(host->get());
    out.all.push_back(std::move(*host));
  }
  return out;
}

// The load generator is this very binary: uploaded now so that runs start at once; the other
// load generators asked for are installed beside it. On every client host.
core::Status PrepareClients(state::SetupState* s, const SetupRequest& request,
                            const std::vector<hosts::SshHost*>& clients, Steps& steps) {
  const std::string where = clients.size() == 1 ? "the client" : "the clients";
  steps.Begin("Uploading dfbench to " + where);
  for (auto* client : clients) {
    auto dfbench = client->DfbenchBinary();
    if (!dfbench) return tl::unexpected(dfbench.error());
    core::Notef("{}: dfbench ready at {}", client->Name(), *dfbench);
  }
  if (request.client_tools.any()) {
    steps.Begin("Installing load generators on " + where + " (" + Describe(request.client_tools) +
                ")");
    for (auto* client : clients) {
      auto tools = EnsureClientTools(*client, request.client_tools);
      if (!tools) return tl::unexpected(tools.error());
      // The first client's record stands for all: they are asked for the same tools.
      if (client == clients.front()) s->provider_data.load_generators = *tools;
    }
  }
  return core::Ok();
}

// Each engine on the server (and on the replicas, for those that replicate), recorded in
// s->engines; one that is missing is skipped when the request allows it.
core::Status InstallEngines(state::SetupState* s, const SetupRequest& request,
                            const LoggedInHosts& hosts, Steps& steps) {
  Installs installs;
  s->engines.clear();
  steps.Begin("Installing engines on the server" +
              std::string(hosts.replicas.empty() ? "" : " and replicas") + " (" +
              Names(request.engines) + ")");
  for (const auto* spec : request.engines) {
    engines::InstallRequest install;
    if (auto v = request.versions.find(spec->name); v != request.versions.end()) {
      install.version = v->second;
    }
    if (auto it = request.binaries.find(spec->name); it != request.binaries.end()) {
      install.explicit_binary = it->second;
    }
    auto done = Install(*hosts.server, *spec, install, &installs);
    if (!done) {
      if (done.error().kind == core::ErrorKind::kInterrupted || core::InterruptRequested()) {
        return core::Fail(core::ErrorKind::kInterrupted, "interrupted during setup");
      }
      if (!request.skip_missing_engines || !install.explicit_binary.empty()) {
        return tl::unexpected(done.error());
      }
      core::Note("skipping " + spec->name + ": " + done.error().message);
      continue;
    }
    s->engines.push_back(*done);
    if (!spec->on_replicas) continue;
    for (auto* replica : hosts.replicas) {
      Installs replica_installs;
      auto on_replica = Install(*replica, *spec, install, &replica_installs);
      if (!on_replica) return tl::unexpected(on_replica.error());
    }
  }
  s->provider_data.installs = installs;
  if (s->engines.empty()) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "no engine to benchmark on " + hosts.server->Name());
  }
  return core::Ok();
}

void TuneServerNetwork(state::SetupState* s, hosts::SshHost& server, Steps& steps) {
  steps.Begin("Tuning the network on the server");
  const auto* facts = s->FindHost(core::Role::Server());
  state::NetworkTuning tuned = TuneNetwork(server, *facts, server.is_root());
  if (tuned.applied) {
    core::Notef("{}: network tuned: {} steered to CPUs {}", server.Name(), tuned.interface,
                nlohmann::json(tuned.io_cpus).dump());
  } else {
    core::Notef("{}: network tuning skipped: {}", server.Name(), tuned.error);
  }
  s->provider_data.tune_network = tuned;
}

}  // namespace

core::Status ProvisionSshHosts(state::SetupState* s, const SetupRequest& request,
                               const SshLogin& login, std::chrono::seconds login_wait,
                               const std::function<void(core::Error*)>& explain_login_failure,
                               int steps_done, core::Clock& clock) {
  // Recorded before logging in, so that destroy knows the key even if setup fails.
  s->provider_data.ssh = login;
  s->provider_data.engine_port = request.engine_port > 0 ? request.engine_port : kRemoteEnginePort;
  Steps steps(steps_done + HostSteps(request), steps_done);
  auto hosts = LogInToHosts(s, login, login_wait, explain_login_failure, steps, clock);
  if (!hosts) return tl::unexpected(hosts.error());
  if (request.on_installing) {
    if (auto st = request.on_installing(); !st) return st;
  }
  if (auto st = PrepareClients(s, request, hosts->clients, steps); !st) return st;
  if (auto st = InstallEngines(s, request, *hosts, steps); !st) return st;
  if (request.tune_network) TuneServerNetwork(s, *hosts->server, steps);
  return core::Ok();
}

core::Result<Fleet> SshProvider::Connect(const state::SetupState& s) {
  auto rec = ReadSshLogin(s);
  if (!rec) return tl::unexpected(rec.error());
  Fleet fleet;
  for (const auto& h : rec->hosts) {
    auto host = ConnectHost(s.id, *rec, h, std::chrono::seconds(10));
    if (!host) return tl::unexpected(host.error());
    std::shared_ptr<hosts::Host> shared = std::move(*host);
    if (h.role == core::Role::Server()) fleet.server = shared;
    if (h.role.IsClient()) fleet.clients.push_back(shared);
    if (h.role.IsReplica()) fleet.replicas.push_back(shared);
  }
  if (!fleet.clients.empty()) fleet.client = fleet.clients.front();
  if (!fleet.server || !fleet.client) {
    return core::Fail(core::ErrorKind::kUsage,
                      "setup \"" + s.id + "\" records no server or no client host");
  }
  // Setups recorded before the port was: the reference's fixed one.
  fleet.engine_port = RecordedEnginePort(s) > 0 ? RecordedEnginePort(s) : kRemoteEnginePort;
  return fleet;
}

core::Status SshProvider::Destroy(state::SetupState* s) {
  auto rec = ReadSshLogin(*s);
  std::string failures;
  Steps steps(2);
  steps.Begin("Stopping what dfbench left running and removing ~/.dfbench-work/" + s->id +
              "/ on the hosts");
  if (rec) {
    for (const auto& h : rec->hosts) {
      auto host = ConnectHost(s->id, *rec, h, std::chrono::seconds(5));
      if (!host) {
        core::Notef("{} is unreachable, its ~/.dfbench-work/{} stays: {}", h.role.Name(), s->id,
                    host.error().message);
        continue;
      }
      if (auto st = (*host)->RemoveWorkDir(); !st) {
        failures += (failures.empty() ? "" : "; ") + st.error().message;
      }
    }
  }
  if (!failures.empty()) return core::Fail(core::ErrorKind::kEnvironment, failures);
  // The key pair (when generated) and the connection sockets go; a key of the user's stays.
  steps.Begin(rec && rec->key_generated ? "Removing local SSH key files"
                                        : "Removing local SSH connection files");
  std::error_code ec;
  fs::remove_all(SshDir(s->id), ec);
  if (ec) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot remove " + SshDir(s->id).string() + ": " + ec.message());
  }
  return core::Ok();
}

core::Status SshProvider::StopLeftovers(const state::SetupState& s) {
  auto rec = ReadSshLogin(s);
  if (!rec) return core::Ok();  // never got as far as recording hosts
  std::string failures;
  for (const auto& h : rec->hosts) {
    auto host = ConnectHost(s.id, *rec, h, std::chrono::seconds(5));
    if (!host) {
      core::Notef("{} is unreachable; what runs there stays: {}", h.role.Name(),
                  host.error().message);
      continue;
    }
    if (auto st = hosts::StopLeftovers(**host); !st) {
      failures += (failures.empty() ? "" : "; ") + st.error().message;
    }
  }
  if (!failures.empty()) return core::Fail(core::ErrorKind::kEnvironment, failures);
  return core::Ok();
}

core::Status SshProvider::InstallEngine(state::SetupState* s, Fleet& fleet,
                                        const engines::EngineSpec& spec,
                                        const engines::VersionSpec& version) {
  engines::InstallRequest request{.version = version};
  Installs installs = s->provider_data.installs.value_or(Installs{});
  auto done = Install(*fleet.server, spec, request, &installs);
  if (!done) return tl::unexpected(done.error());
  if (spec.on_replicas) {
    for (auto& replica : fleet.replicas) {
      Installs ignored;
      auto on_replica = Install(*replica, spec, request, &ignored);
      if (!on_replica) return tl::unexpected(on_replica.error());
    }
  }
  s->provider_data.installs = installs;
  RecordEngine(s, *done);
  return core::Ok();
}

std::vector<core::Role> SshRoles(const state::SetupState& s) {
  std::vector<core::Role> roles;
  auto rec = ReadSshLogin(s);
  if (!rec) return roles;
  for (const auto& h : rec->hosts) roles.push_back(h.role);
  return roles;
}

core::Result<hosts::SshEndpoint> LoginEndpoint(const state::SetupState& s, std::string_view role) {
  auto rec = ReadSshLogin(s);
  if (!rec) {
    return core::Fail(core::ErrorKind::kUsage, "setup \"" + s.id + "\" uses the " +
                                                   state::ToString(s.provider) +
                                                   " provider: there is no host to log in to");
  }
  std::string roles;
  for (const auto& h : rec->hosts) {
    if (h.role.Name() == role) return EndpointOf(*rec, h);
    roles += (roles.empty() ? "" : ", ") + h.role.Name();
  }
  return core::Fail(core::ErrorKind::kUsage, "setup \"" + s.id + "\" has no " + std::string(role) +
                                                 " (its hosts: " + roles + ")");
}

}  // namespace dfbench::providers
