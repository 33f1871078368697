// A temporary directory that removes itself (and everything below it) when it goes away.
//
//   dfbench::testing::ScopedTempDir dir("drivers");  // /tmp/dfbench-drivers-XXXXXX
//   hosts::LocalHost host(dir / "work");
#pragma once

#include <filesystem>
#include <string>

namespace dfbench::testing {

class ScopedTempDir {
 public:
  // Creates <temp>/dfbench-<name>-XXXXXX, unique even across concurrent test processes.
  // Aborts the test binary when it cannot (a test without its directory means nothing).
  explicit ScopedTempDir(const std::string& name);
  ScopedTempDir(ScopedTempDir&& other) noexcept;
  ScopedTempDir& operator=(ScopedTempDir&& other) noexcept;
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;
  ~ScopedTempDir();

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::filesystem::path& part) const { return path_ / part; }

 private:
  void Remove();
  std::filesystem::path path_;
};

}  // namespace dfbench::testing
