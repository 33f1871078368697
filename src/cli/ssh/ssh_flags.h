// Flags of setups on hosts reached over SSH (setup, quickstart): which hosts, how to log in,
// network tuning.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "scenarios/setup/lifecycle.h"

namespace dfbench::cli {

struct SshFlags {
  std::string server;
  std::vector<std::string> clients;  // the hosts of core::Role::Client(0), (1), ...
  std::vector<std::string> replicas;
  std::string server_private_ip;
  std::vector<std::string> client_private_ips;
  std::vector<std::string> replica_private_ips;
  std::string user;
  std::string key;
  int port = 22;
  bool tune_network = false;
};

void AddSshFlags(CLI::App* sub, SshFlags* flags);

// Fills the setup options for the provider ResolveProvider chose (which refused the flags it
// does not take): ssh needs --server, --client and --ssh-user; aws takes --ssh-user and
// --tune-network. Throws ExitError(kUsage) with one line.
void ApplySshFlags(const SshFlags& flags, scenarios::SetupOptions* options);

}  // namespace dfbench::cli
