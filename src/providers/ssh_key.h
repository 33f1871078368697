// The SSH key pair of a setup: 4096-bit RSA, generated locally, private half never leaves this
// machine.
#pragma once

#include <filesystem>
#include <string>

#include "core/error.h"

namespace dfbench::providers {

struct KeyPair {
  std::filesystem::path private_key;  // <dir>/id_rsa, mode 0600
  std::filesystem::path public_key;   // <dir>/id_rsa.pub
  std::string public_line;            // "ssh-rsa AAAA... <comment>"
  bool generated = false;             // false: an existing pair was reused
};

// The key pair in `dir` (created 0700): reused when both files exist, else generated. The
// private key (traditional PEM) is created with mode 0600 (O_EXCL, then renamed into place), so
// its bytes are never readable by anyone else; the public key is in OpenSSH's format.
core::Result<KeyPair> EnsureKeyPair(const std::filesystem::path& dir, const std::string& comment);

// "ssh-rsa <base64 blob> <comment>" for an RSA key given as big-endian public exponent and
// modulus bytes (no leading zero bytes needed). Pure; exposed for tests.
std::string OpenSshRsaPublicLine(const std::string& exponent, const std::string& modulus,
                                 const std::string& comment);

}  // namespace dfbench::providers
