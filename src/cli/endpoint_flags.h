// The flags of setup and quickstart that name servers dfbench does not run (--provider
// endpoint): the endpoints, where later commands read the password, TLS, and whether flushing
// is allowed.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "scenarios/setup/lifecycle.h"

namespace dfbench::cli {

struct EndpointFlags {
  std::vector<std::string> endpoints;  // [ENGINE=]redis[s]://[[user]:pass@]host[:port]
  std::string password_env;
  std::string password_file;
  bool allow_flush = false;
  std::string cacert;
  std::string cert;
  std::string key;
  std::string sni;
  bool tls_skip_verify = false;
};

void AddEndpointFlags(CLI::App* sub, EndpointFlags* flags);
// The setup option a benchmark's errors name (a shared endpoint refuses a command the run would
// send unless the setup allows flushing), by the flag that set it.
inline constexpr FlagOfOption kEndpointFlagOfOption[] = {{"allow_flush", "--allow-flush"}};

// Fills o->endpoint for the endpoint provider (ResolveProvider refused these flags elsewhere);
// exits with kUsage when --provider endpoint has no --endpoint.
void ApplyEndpointFlags(const EndpointFlags& flags, scenarios::SetupOptions* o);

}  // namespace dfbench::cli
