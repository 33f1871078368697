// Where the hosts come from: this machine (local), hosts the user owns (ssh), or a fleet
// provisioned in AWS. A provider turns a setup request into recorded state, and recorded
// state back into a Fleet of Hosts.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aws/template.h"
#include "core/error.h"
#include "engines/engine.h"
#include "engines/install.h"
#include "hosts/host.h"
#include "hosts/ssh_command.h"
#include "providers/client_tools.h"
#include "state/state.h"

namespace dfbench::providers {

// An engine the setup does not run (the endpoint provider): how dfbench meets it, and the URL
// it was given as, without its password, for records.
struct EngineEndpoint {
  engines::AttachOptions attach;
  std::string url;
};

// What a fleet's engines serve TLS with (EquipTls): the files on the server host and this
// machine's control context, and what the load generators on the client hosts connect with.
struct FleetTls {
  engines::EngineTls engine;
  protocol::TlsOptions client;  // enabled; paths on the client hosts
};

// The hosts of one setup. On the local provider server and client are the same machine and
// the roles are kept apart by CPU pinning.
struct Fleet {
  std::shared_ptr<hosts::Host> server;
  std::shared_ptr<hosts::Host> client;  // the first load generator host
  // Every load generator host, `client` first (empty: `client` alone).
  std::vector<std::shared_ptr<hosts::Host>> clients;
  std::vector<std::shared_ptr<hosts::Host>> replicas;
  std::vector<int> server_cpus;  // CPUs engines are pinned to (empty = no pinning)
  std::vector<int> client_cpus;  // CPUs load generators are pinned to (empty = no pinning)
  std::vector<std::vector<int>> replica_cpus;  // per replica, as server_cpus (may be shorter)
  int engine_port = 0;  // the port engines listen on; 0: a free one at each start
  // engine name -> the endpoint that serves it (endpoint provider).
  std::map<std::string, EngineEndpoint> endpoints;
  // Set (EquipTls): engines started on this fleet serve TLS alone.
  std::optional<FleetTls> tls;
};

// Readies `fleet` for engines that serve TLS: the setup's certificates (made once under
// <setup>/tls by EnsureSetupCertificates, the server's addresses as names), the server's
// certificate and key uploaded to the server host, the CA and the client certificate and key to
// every client host (keys readable by their owner alone), under each host's work directory.
// kUsage for an endpoint setup (its servers' TLS is theirs: rediss://); kEnvironment when a
// file cannot be made or uploaded.
core::Status EquipTls(const state::SetupState& setup, Fleet* fleet);

// The port engines listen on when --port is not given: the reference's 6379 on remote hosts
// (its replication and security rules assume it), a free one on this machine.
inline constexpr int kRemoteEnginePort = 6379;

// A host reached over SSH: given by the user (ssh provider) or provisioned (aws); recorded as
// it is asked for.
using RemoteHostSpec = state::SshHostRecord;

// How to reach the hosts of an SSH setup.
struct SshRequest {
  std::vector<RemoteHostSpec> hosts;
  std::string user;
  std::string key_path;  // empty: a 4096-bit RSA pair is generated under <setup>/ssh/
  int port = 22;
};

// The fleet to provision in AWS: one CloudFormation stack (aws/template.h).
struct AwsRequest {
  std::string region = "us-east-1";
  std::string region_source = "default";  // where the region came from (aws::Region::source)
  std::string ssh_cidr;  // "" = this machine's public address /32, learned at setup
  aws::InstanceSpec server{"c6i.2xlarge", aws::Arch::kX86_64};
  aws::InstanceSpec client{"c5.2xlarge", aws::Arch::kX86_64};
  aws::InstanceSpec replica{"c6i.2xlarge", aws::Arch::kX86_64};
  int replicas = 0;
  int clients = 1;  // client instances (--client-count)
  std::string ubuntu_version = "22.04";
  std::chrono::seconds stack_timeout{1800};  // CreateStack until CREATE_COMPLETE
  std::chrono::seconds ssh_wait{600};        // new instances until sshd takes the key
};

// The stack's plan for a request (what aws::RenderTemplate renders).
aws::FleetPlan FleetPlanOf(const AwsRequest& request, const std::string& setup_id,
                           const std::string& public_key);

// What results record of the machines of a setup: the region, account and instance types of an
// aws setup; empty strings for the other providers.
struct FleetLabels {
  std::string region;
  std::string aws_account;
  std::string server_instance;
  std::string client_instance;
  std::string replica_instance;  // the first replica's
};
FleetLabels RecordedFleetLabels(const state::SetupState& state);
// The stack an aws setup records, "dfbench-<id>" in one that records none.
std::string RecordedStackName(const state::SetupState& state);

// Servers the setup does not run (--provider endpoint), one per engine.
struct EndpointRequest {
  struct Named {
    std::string engine;  // "": the engine INFO server names
    std::string url;     // redis[s]://[[user]:password@]host[:port]
  };
  std::vector<Named> endpoints;
  // Where every later command reads the password (the URL's is used by setup alone): a file,
  // else an environment variable; both "": DFBENCH_ENDPOINT_PASSWORD when the URL has one.
  std::string password_file;
  std::string password_env;
  protocol::TlsOptions tls;  // cacert, cert, key, sni, skip_verify; rediss:// turns it on
  bool allow_flush = false;  // FLUSHALL allowed; else each run's keys under its own prefix
};

// The environment variable a later command reads an endpoint's password from when the URL gave
// it to setup and no other place was named.
inline constexpr const char* kEndpointPasswordEnv = "DFBENCH_ENDPOINT_PASSWORD";

struct SetupRequest {
  std::vector<const engines::EngineSpec*> engines;
  std::map<std::string, std::string> binaries;  // engine name -> explicit binary path
  // quickstart: an engine not found on PATH is skipped with a line on stderr (an explicit
  // binary that does not work is always an error);
  // setup: it is an error.
  bool skip_missing_engines = false;
  bool pin_cpus = true;      // local: split the CPUs between server and client
  int local_replicas = 0;    // local: replica engines on this machine (replica roles)
  SshRequest ssh;            // ssh provider; aws: the login user (empty: ubuntu)
  AwsRequest aws;            // aws provider
  EndpointRequest endpoint;  // endpoint provider
  // engine name -> --<engine>_version: the version to install into the host's engine cache (an
  // engine without one: the one on the host, else what the provider installs by default).
  std::map<std::string, engines::VersionSpec> versions;
  bool tune_network = false;  // steer the server NIC onto the top CPUs (non-fatal)
  ClientTools client_tools;   // ssh, aws: external load generators found or built on the client
  // Called by Provision as it starts finding or installing engines, so that the caller records
  // the "installing" status; an error stops Provision. May be empty.
  std::function<core::Status()> on_installing;
  int engine_port = 0;  // --port; 0: the provider's default
};

// The state.json record of an engine found or installed on the server.
state::EngineInstall InstalledRecord(const engines::EngineSpec& spec,
                                     const engines::InstalledEngine& installed);

// The engine port a setup records (provider_data.engine_port), 0 when none.
int RecordedEnginePort(const state::SetupState& state);

// What every provider records in SetupState by Provision:
// - provider_data.engine_port: the port engines listen on (0: a free one at each start).
// - hosts: facts per role. The server and the client (and replicas); their `cpus` are the CPUs
//   the role is pinned to on its host (empty = all). The local provider records one machine
//   twice, as server and client with disjoint `cpus`, when it splits the CPUs; otherwise
//   one entry with the local role.
// - engines: one EngineInstall with status "installed" per usable requested engine. Engines
//   skipped under skip_missing_engines are not recorded.
class Provider {
 public:
  virtual ~Provider() = default;
  virtual state::ProviderKind Kind() const = 0;
  std::string Name() const { return state::ToString(Kind()); }
  // Provisions (or locates) hosts and engines, recording facts, engines and versions in
  // `state`. Does not save it; the caller owns the status transitions.
  virtual core::Status Provision(state::SetupState* state, const SetupRequest& request) = 0;
  // kUsage for a request Provision would refuse before reaching anything (a malformed URL, a
  // file that cannot be read): run before the setup is recorded, so that a refused setup
  // leaves none behind. The default takes every request.
  virtual core::Status CheckRequest(const SetupRequest& request) {
    (void)request;
    return core::Ok();
  }
  // Hosts for a recorded setup.
  virtual core::Result<Fleet> Connect(const state::SetupState& state) = 0;
  // Releases what Provision acquired. Idempotent.
  virtual core::Status Destroy(state::SetupState* state) = 0;
  // Stops what a dead dfbench command of this setup left running on its hosts (engines, what
  // they forked, load generators) and removes what it wrote there (hosts::StopLeftovers). The
  // default, for a provider without hosts of its own, does nothing.
  virtual core::Status StopLeftovers(const state::SetupState& state) {
    (void)state;
    return core::Ok();
  }
  // Removes the keys runs wrote under prefixes of their own on servers the setup shares with
  // others (the endpoint provider's `run_keys`), and forgets each prefix whose keys are gone;
  // one that cannot be emptied stays recorded with the keys it still holds and why. The first
  // such failure (kFailure: the server refused; kEnvironment: it could not be reached) once
  // every prefix was tried. The default, for a provider whose servers are the setup's own,
  // does nothing.
  virtual core::Status RemoveRunKeys(state::SetupState* state) {
    (void)state;
    return core::Ok();
  }
  // Forgets the prefixes RemoveRunKeys could not empty (`destroy --force`, their server gone),
  // each named on stderr in one warning line with the keys it may still hold and where. Whether
  // any was forgotten. The default, for a provider without such prefixes, forgets nothing.
  virtual bool ForgetRunKeys(state::SetupState* state) {
    (void)state;
    return false;
  }
  // Installs `spec` at `version` (--<engine>_version) on the fleet's server (and its replicas
  // where the engine runs there) and records it in `state` (RecordEngine; the caller saves).
  virtual core::Status InstallEngine(state::SetupState* state, Fleet& fleet,
                                     const engines::EngineSpec& spec,
                                     const engines::VersionSpec& version) = 0;
  // The roles of a setup a person logs in to over SSH, in order (server, client, replica-0,
  // ...); none when its hosts are not reached over SSH. Read from what the setup recorded, the
  // same for every provider.
  std::vector<core::Role> LoginRoles(const state::SetupState& state) const;
  // How a person logs in to the role named `role` (`dfbench ssh`, `info`). kUsage naming the
  // roles when there is no such role, or when the setup's hosts are not reached over SSH.
  core::Result<hosts::SshEndpoint> LoginEndpoint(const state::SetupState& state,
                                                 std::string_view role) const;
  // What setup checks and prepares before it changes anything, alone (--dry-run), with the
  // errors setup would give: the file it saved for the user to read (aws: the stack's
  // template), nullopt when it saves none (endpoint: each endpoint met, read-only).
  virtual core::Result<std::optional<std::filesystem::path>> DryRun(
      const std::string& setup_id, const SetupRequest& request) const;
};

// Records `install` in `state`, in place of an earlier record of the same engine.
void RecordEngine(state::SetupState* state, const state::EngineInstall& install);

// The provider of that kind.
std::unique_ptr<Provider> MakeProvider(state::ProviderKind kind);

}  // namespace dfbench::providers
