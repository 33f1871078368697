// Flags of setups on hosts reached over SSH (setup, quickstart): which hosts, how to log in,
// network tuning, and the Dragonfly build to install.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "scenarios/lifecycle.h"

namespace dfbench::cli {

struct SshFlags {
  std::string server;
  std::string client;
  std::vector<std::string> replicas;
  std::string server_private_ip;
  std::string client_private_ip;
  std::vector<std::string> replica_private_ips;
  std::string user;
  std::string key;
  int port = 22;
  bool tune_network = false;
  std::string dragonfly_version;  // setup only (quickstart takes it from the run flags)
};

// `with_version`: also --dragonfly_version (setup; quickstart has it among its run flags).
void AddSshFlags(CLI::App* sub, SshFlags* flags, bool with_version);

// Fills the setup options for the provider ResolveProvider chose (which refused the flags it
// does not take): ssh needs --server, --client and --ssh-user; aws takes --ssh-user,
// --tune-network and --dragonfly_version. Throws ExitError(kUsage) with one line.
void ApplySshFlags(const SshFlags& flags, scenarios::SetupOptions* options);

}  // namespace dfbench::cli
