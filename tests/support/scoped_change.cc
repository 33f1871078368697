#include "support/scoped_change.h"

#include <sys/mount.h>

#include <utility>

namespace dfbench::testing {

ScopedChange::ScopedChange(bool made, std::function<void()> undo)
    : made_(made), undo_(std::move(undo)) {}

ScopedChange::~ScopedChange() {
  if (made_) undo_();
}

ScopedChange MountTmpfs(const std::filesystem::path& dir, const std::string& size,
                        unsigned long flags) {
  std::filesystem::create_directories(dir);
  const bool mounted = mount("tmpfs", dir.c_str(), "tmpfs", flags, ("size=" + size).c_str()) == 0;
  return ScopedChange(mounted, [dir] { umount2(dir.c_str(), MNT_DETACH); });
}

}  // namespace dfbench::testing
