#include "support/scoped_temp_dir.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dfbench::testing {

ScopedTempDir::ScopedTempDir(const std::string& name) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / ("dfbench-" + name + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) {
    std::fprintf(stderr, "ScopedTempDir: mkdtemp %s: %s\n", pattern.c_str(), std::strerror(errno));
    std::abort();
  }
  path_ = pattern;
}

ScopedTempDir::ScopedTempDir(ScopedTempDir&& other) noexcept : path_(std::move(other.path_)) {
  other.path_.clear();
}

ScopedTempDir& ScopedTempDir::operator=(ScopedTempDir&& other) noexcept {
  if (this != &other) {
    Remove();
    path_ = std::move(other.path_);
    other.path_.clear();
  }
  return *this;
}

ScopedTempDir::~ScopedTempDir() {
  Remove();
}

void ScopedTempDir::Remove() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
  path_.clear();
}

}  // namespace dfbench::testing
