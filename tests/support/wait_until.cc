#include "support/wait_until.h"

#include <algorithm>
#include <thread>

namespace dfbench::testing {

::testing::AssertionResult WaitUntil(const std::function<bool()>& condition,
                                     std::chrono::milliseconds timeout, std::string_view what) {
  using std::chrono::milliseconds;
  const auto start = std::chrono::steady_clock::now();
  // Short pauses first, so a condition that holds soon costs little; longer ones later, so a
  // slow one does not keep a CPU busy that the awaited process needs.
  milliseconds pause(1);
  while (true) {
    if (condition()) return ::testing::AssertionSuccess();
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited >= timeout) {
      return ::testing::AssertionFailure()
             << "gave up waiting for " << what << " after "
             << std::chrono::duration_cast<milliseconds>(waited).count() << " ms";
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, milliseconds(50));
  }
}

}  // namespace dfbench::testing
