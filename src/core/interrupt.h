// SIGINT/SIGTERM/SIGHUP become a flag that long waits poll, so every exit path unwinds through the
// RAII guards that stop engines and restore the setup's status.
#pragma once

#include <chrono>

#include "core/clock.h"

namespace dfbench::core {

// Installs handlers for SIGINT, SIGTERM and SIGHUP that only record the signal. Call once, early.
void InstallInterruptHandlers();

// True once SIGINT, SIGTERM or SIGHUP arrived.
bool InterruptRequested();

// The signal that arrived (SIGINT, SIGTERM or SIGHUP), or 0.
int InterruptSignal();

// Sleeps for `duration` on `clock` in short slices; returns false (early) if an interrupt
// arrived.
bool SleepUnlessInterrupted(std::chrono::milliseconds duration, Clock& clock = RealClock());

// A command that answers an interrupt by finishing on its own terms (loadgen, as memtier: stop
// the load, report what ran, exit 0) says so; its exit code then stands.
void MarkInterruptHandled();
bool InterruptHandled();

// For tests: clears the flag.
void ResetInterruptForTesting();

}  // namespace dfbench::core
