// A change a test makes to this machine (a mount, a file attribute, an environment variable),
// undone when it goes out of scope, however the test ends.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace dfbench::testing {

class ScopedChange {
 public:
  // `made`: whether the change took; `undo` runs at the end only then. Neither copied nor moved,
  // so it runs once: return one from a function by constructing it in the return statement.
  ScopedChange(bool made, std::function<void()> undo);
  ~ScopedChange();
  ScopedChange(const ScopedChange&) = delete;
  ScopedChange& operator=(const ScopedChange&) = delete;

  bool made() const { return made_; }

 private:
  bool made_;
  std::function<void()> undo_;
};

// A tmpfs of `size` ("8m") mounted on `dir` (created when missing) with mount(2) `flags`
// (MS_RDONLY), detached at the end. Needs root: not made otherwise.
ScopedChange MountTmpfs(const std::filesystem::path& dir, const std::string& size,
                        unsigned long flags = 0);

}  // namespace dfbench::testing
