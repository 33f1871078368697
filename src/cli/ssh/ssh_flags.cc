#include "cli/ssh/ssh_flags.h"

#include "cli/flag_ranges.h"
#include "hosts/ssh_command.h"
#include "providers/provider.h"

namespace dfbench::cli {

void AddSshFlags(CLI::App* sub, SshFlags* f) {
  const FlagGroup group(sub,
                        "Hosts over SSH (--provider ssh; aws takes --ssh-user and --tune-network)");
  sub->add_option("--server", f->server, "The engine host: a name or an address");
  sub->add_option("--client", f->clients,
                  "A load generator host (repeat for several: a run splits its load among them "
                  "and merges their histograms)");
  sub->add_option("--replica", f->replicas, "A replica host (repeat for several)");
  sub->add_option("--server-private-ip", f->server_private_ip,
                  "Address engines bind to and clients use (default: the server's address as "
                  "its sshd sees it)");
  sub->add_option("--client-private-ip", f->client_private_ips,
                  "A client's address for engine traffic (recorded; in --client order)");
  sub->add_option("--replica-private-ip", f->replica_private_ips,
                  "Private address of each --replica, in order");
  sub->add_option("--ssh-user", f->user,
                  "User on every host (root, or one with passwordless sudo; aws: default ubuntu)");
  sub->add_option("--ssh-key", f->key,
                  "Private key (default: a 4096-bit RSA pair generated under the setup's ssh/)");
  AddRangedOption(sub, "--ssh-port", &f->port, NumberKind::kInteger, "SSH port of every host");
  AddBoolFlag(sub, "--tune-network", &f->tune_network,
              "Steer the server NIC's IRQs and RPS/XPS onto the top CPUs (needs root; a "
              "failure is reported, not fatal)");
}

void ApplySshFlags(const SshFlags& f, scenarios::SetupOptions* o) {
  o->tune_network = f.tune_network;
  if (state::LaunchesHosts(o->provider)) {
    o->ssh.user = f.user;  // empty: the provider's (Ubuntu AMIs log in as ubuntu)
    return;
  }
  if (!state::IsRemote(o->provider)) return;
  if (f.server.empty() || f.clients.empty() || f.user.empty()) {
    ExitWith(core::ErrorKind::kUsage,
             "--provider ssh needs --server HOST, --client HOST and --ssh-user USER");
  }
  if (f.replica_private_ips.size() > f.replicas.size()) {
    ExitWith(core::ErrorKind::kUsage, "more --replica-private-ip than --replica");
  }
  if (f.client_private_ips.size() > f.clients.size()) {
    ExitWith(core::ErrorKind::kUsage, "more --client-private-ip than --client");
  }
  o->ssh.user = f.user;
  o->ssh.key_path = f.key;
  o->ssh.port = f.port;
  o->ssh.hosts = {{core::Role::Server(), f.server, f.server_private_ip}};
  for (size_t i = 0; i < f.clients.size(); ++i) {
    o->ssh.hosts.push_back({core::Role::Client(static_cast<int>(i)), f.clients[i],
                            i < f.client_private_ips.size() ? f.client_private_ips[i] : ""});
  }
  for (size_t i = 0; i < f.replicas.size(); ++i) {
    o->ssh.hosts.push_back({core::Role::Replica(static_cast<int>(i)), f.replicas[i],
                            i < f.replica_private_ips.size() ? f.replica_private_ips[i] : ""});
  }
  for (const auto& h : o->ssh.hosts) {
    hosts::SshEndpoint e{.user = f.user, .host = h.address, .port = f.port};
    OrExit(hosts::ValidateEndpoint(e));
    if (!h.private_address.empty()) {
      e.host = h.private_address;
      OrExit(hosts::ValidateEndpoint(e));
    }
  }
}

}  // namespace dfbench::cli
