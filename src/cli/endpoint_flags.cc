#include "cli/endpoint_flags.h"

#include "cli/flags.h"
#include "protocol/server_url.h"

namespace dfbench::cli {
namespace {

// "redis=rediss://..." -> {"redis", "rediss://..."}; a URL alone -> {"", URL}. A '=' after the
// scheme's ':' belongs to the URL (a password may hold one).
providers::EndpointRequest::Named SplitNamed(const std::string& value) {
  const size_t eq = value.find('=');
  const size_t colon = value.find(':');
  if (eq == std::string::npos || (colon != std::string::npos && colon < eq)) return {"", value};
  return {value.substr(0, eq), value.substr(eq + 1)};
}

}  // namespace

void AddEndpointFlags(CLI::App* sub, EndpointFlags* f) {
  const FlagGroup group(sub, "Servers you run (--provider endpoint)");
  sub->add_option("--endpoint", f->endpoints,
                  "A server to benchmark as [ENGINE=]redis[s]://[[USER]:PASS@]HOST[:PORT], one "
                  "per engine (repeat; without ENGINE=, the engine its INFO names). dfbench "
                  "never starts, stops or installs it");
  sub->add_option("--password-file", f->password_file,
                  "File holding the endpoints' password, read by every command (never copied)");
  sub->add_option("--password-env", f->password_env,
                  std::string("Environment variable holding the endpoints' password, read by "
                              "every command (default, when the URL has one: ") +
                      providers::kEndpointPasswordEnv + ")");
  AddBoolFlag(sub, "--allow-flush", &f->allow_flush,
              "The endpoints are the runs' to empty (FLUSHALL); without it each run writes "
              "under a key prefix of its own and removes those keys when it ends");
  sub->add_option("--cacert", f->cacert,
                  "rediss://: CA certificate to verify the endpoints with (default: the system's)");
  sub->add_option("--cert", f->cert, "rediss://: client certificate, for endpoints that ask");
  sub->add_option("--key", f->key, "rediss://: the client certificate's private key");
  sub->add_option("--sni", f->sni, "rediss://: server name sent in the TLS handshake");
  AddBoolFlag(sub, "--tls-skip-verify", &f->tls_skip_verify,
              "rediss://: do not verify the endpoints' certificates");
}

void ApplyEndpointFlags(const EndpointFlags& f, scenarios::SetupOptions* o) {
  if (o->provider != state::ProviderKind::kEndpoint) return;
  if (f.endpoints.empty()) {
    ExitWith(core::ErrorKind::kUsage,
             "--provider endpoint needs --endpoint [ENGINE=]redis[s]://HOST:PORT");
  }
  providers::EndpointRequest& r = o->endpoint;
  bool any_tls = false;
  for (const auto& value : f.endpoints) {
    r.endpoints.push_back(SplitNamed(value));
    auto url = protocol::ParseServerUrl(r.endpoints.back().url);
    // Refused here, so that a dry run says what the setup would refuse.
    if (!url) ExitWith(core::ErrorKind::kUsage, "--endpoint: " + url.error().message);
    any_tls = any_tls || url->tls;
  }
  // TLS files for servers that speak no TLS would be ignored: a mistyped scheme, most likely.
  for (const auto& [flag, given] :
       std::vector<std::pair<const char*, bool>>{{"--cacert", !f.cacert.empty()},
                                                 {"--cert", !f.cert.empty()},
                                                 {"--key", !f.key.empty()},
                                                 {"--sni", !f.sni.empty()},
                                                 {"--tls-skip-verify", f.tls_skip_verify}}) {
    if (given && !any_tls) {
      ExitWith(core::ErrorKind::kUsage, std::string(flag) +
                                            " applies to rediss:// endpoints, and every "
                                            "--endpoint here is redis:// (no TLS)");
    }
  }
  r.password_env = f.password_env;
  r.password_file = f.password_file;
  r.allow_flush = f.allow_flush;
  r.tls = {.cert = f.cert,
           .key = f.key,
           .cacert = f.cacert,
           .sni = f.sni,
           .skip_verify = f.tls_skip_verify};
  // The endpoints are what is benchmarked: the engine list follows them.
  o->engines.clear();
}

}  // namespace dfbench::cli
