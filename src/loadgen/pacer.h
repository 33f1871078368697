// When one client's requests go out, and how many are left. Closed loop: each as soon as its
// connection has room, its latency timed from the moment it is handed to the kernel. Open
// loop: request k falls due at start + t0 + k * interval, moved to the start of the tick that
// holds it (ScheduleGrid), and is timed from there, so a late send is the generator's latency
// too (no coordinated omission). A run by requests ends at the client's budget, a run by time
// when the test time is over. Pure: every time is given.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "loadgen/schedule_grid.h"

namespace dfbench::loadgen {

// Times shared by all workers, on the steady clock in nanoseconds. Set by the coordinator
// once every worker has its connections up.
struct RunTimes {
  int64_t start_ns = 0;           // open-loop schedules start here
  int64_t measured_start_ns = 0;  // start + warm-up
  int64_t end_ns = 0;             // measured_start + test time; 0 when running by requests
};

class Pacer {
 public:
  struct Plan {
    uint64_t limit = UINT64_MAX;  // measured requests this client sends (by requests)
    bool by_time = false;         // ends at RunTimes::end_ns instead
    // Open loop (interval_ns > 0): request k is due at start + t0_ns + k * interval_ns.
    double interval_ns = 0;
    int64_t t0_ns = 0;
    ScheduleGrid grid;
  };

  Pacer() = default;
  explicit Pacer(const Plan& plan) : plan_(plan) {}
  void Start(const RunTimes& times) { times_ = times; }

  bool open_loop() const { return plan_.interval_ns > 0; }

  // Whether the client has requests left to send at `now`.
  bool More(int64_t now) const {
    if (!plan_.by_time) return issued_ < plan_.limit;
    return open_loop() ? UniformDue() < times_.end_ns : now < times_.end_ns;
  }
  // The origin of the next request when one may go at `now`: now (closed loop), or its due
  // time once due, which takes it from the schedule; nullopt while it is not due yet.
  std::optional<int64_t> Take(int64_t now) {
    if (!open_loop()) return now;
    const int64_t due = NextDue();
    if (due > now) return std::nullopt;
    ++k_;
    return due;
  }
  // A measured request was drawn (it counts against the budget).
  void Issued() { ++issued_; }
  // When the next request falls due (open loop); the instant the closed loop can send is now.
  int64_t NextDue() const { return plan_.grid.TickStart(times_.start_ns, UniformDue()); }

  // A request leaves at `now`, drawn with `origin`; `room_since` is when its connection last
  // got room for it. Closed loop: its origin becomes `now` (timed from the kernel's hand-off).
  // Open loop: how late the generator sent it (from when it was due and had room).
  std::optional<int64_t> Sent(int64_t* origin, int64_t now, int64_t room_since) const {
    if (!open_loop()) {
      *origin = now;
      return std::nullopt;
    }
    return now - std::max(*origin, room_since);
  }

  // At the end of a run by time, open loop: the measured requests that fell due and were never
  // sent (each one taken from the schedule).
  uint64_t TakeUnsent() {
    uint64_t unsent = 0;
    if (!open_loop() || !plan_.by_time) return 0;
    while (UniformDue() < times_.end_ns) {
      if (NextDue() >= times_.measured_start_ns) ++unsent;
      ++k_;
    }
    return unsent;
  }

 private:
  int64_t UniformDue() const {
    return times_.start_ns + plan_.t0_ns +
           static_cast<int64_t>(static_cast<double>(k_) * plan_.interval_ns);
  }

  Plan plan_;
  RunTimes times_;
  uint64_t issued_ = 0;  // measured requests drawn
  uint64_t k_ = 0;       // open loop: requests taken from the schedule
};

}  // namespace dfbench::loadgen
