// The TLS certificates of a setup whose engines serve TLS: a CA of the setup's own and, signed
// by it, a certificate for the server (its addresses and names as subject alternative names;
// good for client authentication too, as a node is a client of its peers on the cluster bus)
// and one for clients that servers asking for client certificates accept. PEM files in one
// directory, keys readable by the owner only; made once, kept with the setup.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/error.h"

namespace dfbench::providers {

struct SetupCertificates {
  std::filesystem::path ca_cert, server_cert, server_key, client_cert, client_key;
};

// The certificates under `dir`: made there (P-256 keys, valid for ten years) unless all are
// there already and serve for a day from `now` (readable, valid, each key its certificate's,
// signed by the CA); otherwise made again, with a line saying why. `server_names` are IP
// addresses or DNS names (at least one). kEnvironment when OpenSSL or the files fail.
core::Result<SetupCertificates> EnsureSetupCertificates(
    const std::filesystem::path& dir, const std::vector<std::string>& server_names,
    core::SystemTime now = core::RealClock().WallNow());

}  // namespace dfbench::providers
