#include "hosts/digest.h"

#include <openssl/evp.h>

#include <cstdio>
#include <memory>

namespace dfbench::hosts {

core::Result<std::string> Sha256File(const std::filesystem::path& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot read " + path.string());
  }
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    return core::Fail(core::ErrorKind::kEnvironment, "SHA-256 is unavailable");
  }
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), file.get())) > 0) {
    EVP_DigestUpdate(ctx.get(), buf, n);
  }
  if (std::ferror(file.get())) {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot read " + path.string());
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  std::string hex;
  char two[3];
  for (unsigned i = 0; i < len; ++i) {
    std::snprintf(two, sizeof(two), "%02x", md[i]);
    hex += two;
  }
  return hex;
}

}  // namespace dfbench::hosts
