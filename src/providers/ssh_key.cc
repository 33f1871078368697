#include "providers/ssh_key.h"

#include <fcntl.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/files.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;

void PutUint32(std::string* out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out->push_back(static_cast<char>((v >> shift) & 0xff));
}

void PutString(std::string* out, const std::string& s) {
  PutUint32(out, static_cast<uint32_t>(s.size()));
  *out += s;
}

// RFC 4251 mpint: big-endian two's complement, a zero byte in front of a set high bit.
void PutMpint(std::string* out, std::string bytes) {
  size_t first = bytes.find_first_not_of('\0');
  bytes = first == std::string::npos ? "" : bytes.substr(first);
  if (!bytes.empty() && (static_cast<unsigned char>(bytes[0]) & 0x80)) bytes.insert(0, 1, '\0');
  PutString(out, bytes);
}

std::string Base64(const std::string& data) {
  std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(data.data()),
                          static_cast<int>(data.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

core::Result<std::string> BigNumParam(EVP_PKEY* key, const char* name) {
  BIGNUM* bn = nullptr;
  if (EVP_PKEY_get_bn_param(key, name, &bn) != 1) {
    return core::Fail(core::ErrorKind::kEnvironment, std::string("cannot read RSA ") + name);
  }
  std::string bytes(static_cast<size_t>(BN_num_bytes(bn)), '\0');
  BN_bn2bin(bn, reinterpret_cast<unsigned char*>(bytes.data()));
  BN_free(bn);
  return bytes;
}

// Writes `content` to a new file created with mode 0600 and renames it over `path`.
core::Status WritePrivate(const fs::path& path, const std::string& content) {
  const fs::path tmp = path.string() + ".tmp";
  unlink(tmp.c_str());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot create " + tmp.string() + ": " + std::strerror(errno));
  }
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      unlink(tmp.c_str());
      return core::Fail(core::ErrorKind::kEnvironment, "cannot write " + tmp.string());
    }
    done += static_cast<size_t>(n);
  }
  fsync(fd);
  close(fd);
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    unlink(tmp.c_str());
    return core::Fail(core::ErrorKind::kEnvironment, "cannot create " + path.string());
  }
  return core::Ok();
}

}  // namespace

std::string OpenSshRsaPublicLine(const std::string& exponent, const std::string& modulus,
                                 const std::string& comment) {
  std::string blob;
  PutString(&blob, "ssh-rsa");
  PutMpint(&blob, exponent);
  PutMpint(&blob, modulus);
  return "ssh-rsa " + Base64(blob) + (comment.empty() ? "" : " " + comment);
}

core::Result<KeyPair> EnsureKeyPair(const fs::path& dir, const std::string& comment) {
  KeyPair pair{.private_key = dir / "id_rsa", .public_key = dir / "id_rsa.pub"};
  if (auto st = core::MakeDirs(dir); !st) return tl::unexpected(st.error());
  chmod(dir.c_str(), 0700);
  if (fs::exists(pair.private_key) && fs::exists(pair.public_key)) {
    auto line = core::ReadFile(pair.public_key);
    if (!line) return tl::unexpected(line.error());
    pair.public_line = line->substr(0, line->find('\n'));
    return pair;
  }
  std::unique_ptr<EVP_PKEY, void (*)(EVP_PKEY*)> key(EVP_RSA_gen(4096), &EVP_PKEY_free);
  if (!key) return core::Fail(core::ErrorKind::kEnvironment, "cannot generate an RSA key");
  std::unique_ptr<BIO, int (*)(BIO*)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  if (!bio || PEM_write_bio_PrivateKey_traditional(bio.get(), key.get(), nullptr, nullptr, 0,
                                                   nullptr, nullptr) != 1) {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot encode the RSA key");
  }
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  const std::string pem(data, static_cast<size_t>(size));
  auto e = BigNumParam(key.get(), OSSL_PKEY_PARAM_RSA_E);
  auto n = BigNumParam(key.get(), OSSL_PKEY_PARAM_RSA_N);
  if (!e || !n) return tl::unexpected(!e ? e.error() : n.error());
  pair.public_line = OpenSshRsaPublicLine(*e, *n, comment);
  if (auto st = WritePrivate(pair.private_key, pem); !st) return tl::unexpected(st.error());
  if (auto st = core::WriteFileAtomic(pair.public_key, pair.public_line + "\n", 0644); !st) {
    return tl::unexpected(st.error());
  }
  pair.generated = true;
  return pair;
}

}  // namespace dfbench::providers
