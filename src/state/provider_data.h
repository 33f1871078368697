// What the providers record of a setup beside its hosts and engines: state.json's
// "provider_data". Each object is present only once a provider has recorded it (a setup that
// failed early holds less), so the records are optional where the file may lack them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/role.h"
#include "results/json_fields.h"

namespace dfbench::state {

// A host reached over SSH: given by the user (ssh provider) or provisioned (aws).
struct SshHostRecord {
  core::Role role;
  std::string address;          // how dfbench reaches it: a name or an address
  std::string private_address;  // engine traffic; empty: the address sshd saw it reached on
};

// How the hosts of a setup are logged in to ("ssh"): recorded the same way by every provider of
// SSH hosts, so that `dfbench ssh` and `info` work for each.
struct SshRecord {
  std::string user;
  int port = 22;
  std::string key_path;
  bool key_generated = false;  // the pair under <setup>/ssh/, removed by destroy
  std::vector<SshHostRecord> hosts;
};

// How one engine got onto the server ("installs": one per engine name).
struct InstallRecord {
  std::string method;  // release, build, upload, apt, present, ...
  std::string source;  // where it came from: a URL, a package, a path
};

// An external load generator setup provided on the client ("load_generators").
struct LoadGeneratorRecord {
  std::string method;   // present | source | missing
  std::string binary;   // where it is on the client ("" when missing)
  std::string version;  // the release, or dfly_bench's git ref (present: "")
  std::string source;   // what it was built from (source only)
  std::string reason;   // why it is missing (missing only)
};

struct LoadGenerators {
  std::optional<LoadGeneratorRecord> dfly_bench;
  std::optional<LoadGeneratorRecord> memtier;
};

// What --tune-network did to the server's NIC ("tune_network"). The counts are there only when
// the steering script ran to its end.
struct NetworkTuning {
  bool applied = false;
  std::string interface;
  std::vector<int> io_cpus;
  std::optional<int> irqs;
  std::optional<int> rps_queues;
  std::optional<int> xps_queues;
  std::string error;  // why nothing was steered
};

// One EC2 instance of an aws setup's stack.
struct AwsInstanceRecord {
  core::Role role;
  std::string id;
  std::string type;
  std::string arch;  // x86_64 | arm64
  std::string public_ip;
  std::string private_ip;
};

// An aws setup's stack ("aws").
struct AwsRecord {
  std::string stack_name;
  std::string stack_id;  // "" before CreateStack, and once a failed stack is known to be gone
  // The ClientRequestToken of a CreateStack that was sent and whose stack is not known yet
  // (its reply lost): a stack may exist. "" before the call and once AWS said yes or no.
  std::string create_token;
  std::string account;   // "" until the checks before launching learned it
  std::string owner;     // the caller's ARN, as the stack's dfbench:owner tag says
  std::string ssh_cidr;  // the only addresses SSH is open to
  std::string ubuntu_version;
  std::vector<AwsInstanceRecord> instances;
};

// The keys a run writes under a prefix of its own on an endpoint ("run_keys"): recorded before
// its first request, forgotten once they are removed (at the end of the run, else by the next
// command's recovery or destroy). A removal that could not finish says what it left.
struct RunKeysRecord {
  std::string prefix;
  uint64_t keys_left = 0;  // counted by the last removal that could not finish
  std::string error;       // why it could not ("": none tried yet, or the run still going)

  bool operator==(const RunKeysRecord&) const = default;
};

// An engine served by an endpoint the setup does not run ("endpoints", by engine name). Never
// its password: where each command reads it.
struct EndpointRecord {
  bool allow_flush = false;  // FLUSHALL allowed; else the run's keys go under a namespace
  std::string cacert;        // TLS: the CA to verify the server with ("": the system's)
  std::string cert;          // TLS: a client certificate, and its key
  std::string key;
  std::string password_env;             // the environment variable holding the password ("": none)
  std::string password_file;            // the file holding it ("": none)
  std::vector<RunKeysRecord> run_keys;  // prefixes whose keys may still be on the server
  bool skip_verify = false;
  std::string sni;
  std::string url;  // redis[s]://[user@]host:port, without the password
};

// state.json's "provider_data". Its objects are written with their keys in alphabetical order,
// as they were when they were free-form (see kAlphabeticalKeys in results/key_order.h).
struct ProviderData {
  static constexpr bool kAlphabeticalKeys = true;

  std::optional<AwsRecord> aws;
  // The port engines listen on (0: a free one at each start); absent in setups recorded before
  // it was.
  std::optional<int> engine_port;
  std::optional<std::map<std::string, EndpointRecord>> endpoints;  // by engine name
  std::optional<std::map<std::string, InstallRecord>> installs;    // by engine name
  std::optional<LoadGenerators> load_generators;
  std::optional<SshRecord> ssh;
  std::optional<NetworkTuning> tune_network;
};

// Field lists in the file's key order. A host's keys follow the setup's "hosts" (role, address,
// private_address): the file orders objects by the key they are found under.
void Fields(auto& v, results::FieldsOf<SshHostRecord> auto& x) {
  DFBENCH_FIELDS(role, address, private_address)
}

void Fields(auto& v, results::FieldsOf<SshRecord> auto& x) {
  DFBENCH_FIELDS(hosts, key_generated, key_path, port, user)
}

void Fields(auto& v, results::FieldsOf<InstallRecord> auto& x) {
  DFBENCH_FIELDS(method, source)
}

void Fields(auto& v, results::FieldsOf<LoadGeneratorRecord> auto& x) {
  DFBENCH_OPTIONAL_FIELDS(binary)
  DFBENCH_FIELDS(method)
  DFBENCH_OPTIONAL_FIELDS(reason, source, version)
}

void Fields(auto& v, results::FieldsOf<LoadGenerators> auto& x) {
  DFBENCH_OPTIONAL_FIELDS(dfly_bench, memtier)
}

void Fields(auto& v, results::FieldsOf<NetworkTuning> auto& x) {
  DFBENCH_FIELDS(applied)
  DFBENCH_OPTIONAL_FIELDS(error)
  DFBENCH_FIELDS(interface, io_cpus)
  DFBENCH_OPTIONAL_FIELDS(irqs, rps_queues, xps_queues)
}

void Fields(auto& v, results::FieldsOf<AwsInstanceRecord> auto& x) {
  DFBENCH_FIELDS(arch, id, private_ip, public_ip, role, type)
}

void Fields(auto& v, results::FieldsOf<AwsRecord> auto& x) {
  DFBENCH_OPTIONAL_FIELDS(account, create_token)
  DFBENCH_FIELDS(instances)
  DFBENCH_OPTIONAL_FIELDS(owner, ssh_cidr, stack_id)
  DFBENCH_FIELDS(stack_name, ubuntu_version)
}

void Fields(auto& v, results::FieldsOf<RunKeysRecord> auto& x) {
  DFBENCH_OPTIONAL_FIELDS(error, keys_left)
  DFBENCH_FIELDS(prefix)
}

void Fields(auto& v, results::FieldsOf<EndpointRecord> auto& x) {
  DFBENCH_FIELDS(allow_flush, cacert, cert, key, password_env, password_file)
  DFBENCH_OPTIONAL_FIELDS(run_keys)
  DFBENCH_FIELDS(skip_verify, sni, url)
}

void Fields(auto& v, results::FieldsOf<ProviderData> auto& x) {
  DFBENCH_OPTIONAL_FIELDS(aws, endpoints, engine_port, installs, load_generators, ssh, tune_network)
}

}  // namespace dfbench::state
