#include "core/interrupt.h"

#include <algorithm>
#include <atomic>
#include <csignal>

namespace dfbench::core {
namespace {

std::atomic<int> g_signal{0};
std::atomic<bool> g_handled{false};

void OnSignal(int sig) {
  g_signal.store(sig);
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // A dropped SSH session to the machine running dfbench: the same orderly stop, so what is
  // still running (a stack, an engine) is named or cleaned up as on Ctrl+C.
  sigaction(SIGHUP, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

bool InterruptRequested() {
  return g_signal.load() != 0;
}

int InterruptSignal() {
  return g_signal.load();
}

bool SleepUnlessInterrupted(std::chrono::milliseconds duration, Clock& clock) {
  const auto deadline = clock.Now() + duration;
  while (!InterruptRequested()) {
    const auto now = clock.Now();
    if (now >= deadline) return true;
    clock.SleepFor(
        std::min<std::chrono::nanoseconds>(deadline - now, std::chrono::milliseconds(50)));
  }
  return false;
}

void MarkInterruptHandled() {
  g_handled.store(true);
}

bool InterruptHandled() {
  return g_handled.load();
}

void ResetInterruptForTesting() {
  g_signal.store(0);
  g_handled.store(false);
}

}  // namespace dfbench::core
