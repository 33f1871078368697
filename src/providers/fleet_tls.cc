// Engines that serve TLS: the setup's certificates on the hosts that need them.
#include <algorithm>

#include "core/format.h"
#include "providers/provider.h"
#include "providers/setup_certificates.h"

namespace dfbench::providers {
namespace {

constexpr unsigned kPublicMode = 0644;
constexpr unsigned kKeyMode = 0600;

// The names the server certificate is for: every address the server host is known by here.
std::vector<std::string> ServerNames(const state::SetupState& setup, hosts::Host& server) {
  std::vector<std::string> names = {server.EngineAddress(), "127.0.0.1", "localhost"};
  if (const auto* facts = setup.FindHost(core::Role::Server())) {
    names.push_back(facts->address);
    names.push_back(facts->private_address);
  }
  std::vector<std::string> unique;
  for (auto& name : names) {
    if (!name.empty() && std::find(unique.begin(), unique.end(), name) == unique.end()) {
      unique.push_back(std::move(name));
    }
  }
  return unique;
}

// Uploads `files` (local path, name, mode) into <work dir>/tls/ on `host`; the paths there, in
// order.
core::Result<std::vector<std::string>> UploadTls(
    hosts::Host& host,
    const std::vector<std::tuple<std::filesystem::path, std::string, unsigned>>& files) {
  auto work = host.WorkDir();
  if (!work) return tl::unexpected(work.error());
  std::vector<std::string> paths;
  for (const auto& [local, name, mode] : files) {
    const std::string remote = *work + "/tls/" + name;
    if (auto st = host.Upload(local, remote, mode); !st) return tl::unexpected(st.error());
    paths.push_back(remote);
  }
  return paths;
}

}  // namespace

core::Status EquipTls(const state::SetupState& setup, Fleet* fleet) {
  if (!fleet->endpoints.empty()) {
    return core::Fail(core::ErrorKind::kUsage,
                      "--tls starts engines that serve TLS; an endpoint setup's servers speak TLS "
                      "when their URL says rediss://");
  }
  auto certs = EnsureSetupCertificates(state::SetupDir(setup.id) / "tls",
                                       ServerNames(setup, *fleet->server));
  if (!certs) return tl::unexpected(certs.error());
  auto server = UploadTls(*fleet->server, {{certs->ca_cert, "ca.crt", kPublicMode},
                                           {certs->server_cert, "server.crt", kPublicMode},
                                           {certs->server_key, "server.key", kKeyMode}});
  if (!server) return tl::unexpected(server.error());
  FleetTls tls;
  tls.engine.files = {.cert = (*server)[1], .key = (*server)[2], .ca = (*server)[0]};
  auto control = protocol::TlsContext::Create({.enabled = true,
                                               .cert = certs->client_cert.string(),
                                               .key = certs->client_key.string(),
                                               .cacert = certs->ca_cert.string()});
  if (!control) return tl::unexpected(control.error());
  tls.engine.control = std::move(*control);
  std::vector<std::shared_ptr<hosts::Host>> clients = fleet->clients;
  if (clients.empty()) clients.push_back(fleet->client);
  for (const auto& client : clients) {
    auto paths = UploadTls(*client, {{certs->ca_cert, "ca.crt", kPublicMode},
                                     {certs->client_cert, "client.crt", kPublicMode},
                                     {certs->client_key, "client.key", kKeyMode}});
    if (!paths) return tl::unexpected(paths.error());
    const protocol::TlsOptions options{
        .enabled = true, .cert = (*paths)[1], .key = (*paths)[2], .cacert = (*paths)[0]};
    // One command line serves every client host: their work directories must agree.
    if (tls.client.enabled && tls.client.cacert != options.cacert) {
      return core::Fail(core::ErrorKind::kEnvironment,
                        core::Format("{} keeps its files in {}, another client in {}: the load "
                                     "generators' TLS files must be at one path",
                                     client->Name(), options.cacert, tls.client.cacert));
    }
    tls.client = options;
  }
  fleet->tls = std::move(tls);
  return core::Ok();
}

}  // namespace dfbench::providers
