// One load-generating thread: its own epoll loop, connections, counters and histograms.
// Nothing is shared on the hot path; the coordinator reads a few relaxed atomics for the
// progress line and takes finished seconds from the mailbox.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loadgen/config.h"
#include "loadgen/stats.h"
#include "loadgen/workload.h"

namespace dfbench::loadgen {

// Where to connect (resolved once by the runner).
struct Target {
  sockaddr_storage addr{};
  socklen_t addr_len = 0;
};

// Times shared by all workers, on the steady clock in nanoseconds. Set by the coordinator
// once every worker has its connections up.
struct RunTimes {
  int64_t start_ns = 0;           // open-loop schedules start here
  int64_t measured_start_ns = 0;  // start + warm-up
  int64_t end_ns = 0;             // measured_start + test time; 0 when running by requests
};

class Worker {
 public:
  Worker(const Config& config, const Workload& workload, const Target& target, int index,
         uint64_t random_base);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Phase 1 (on the worker thread): opens every connection and authenticates. Returns when
  // all are ready or failed.
  void Connect();
  // Phase 2: runs the load until done, the test time ends, or an interrupt.
  void Run(const RunTimes& times);

  ThreadStats& stats() { return stats_; }
  SeriesMailbox& mailbox() { return mailbox_; }
  // Connections that came up in Connect(); the rest failed (see first_error()).
  int connected() const { return connected_; }
  const std::string& first_error() const { return first_error_; }
  bool all_connections_lost() const { return all_lost_; }

  // Progress, for the coordinator (relaxed; approximate while running).
  std::atomic<uint64_t> progress_ops{0};
  std::atomic<uint64_t> progress_errors{0};
  std::atomic<bool> finished{false};

 private:
  struct Conn;
  enum class Phase : uint8_t { kWarmup, kMeasured };

  void StartConnect(Conn& c, int64_t now);
  void OnConnected(Conn& c, int64_t now);
  void ConnectFailed(Conn& c, int64_t now, const std::string& why);
  void Lost(Conn& c, int64_t now, const std::string& why);
  void HandleEvent(Conn& c, uint32_t events);
  void ReadReplies(Conn& c);
  void Issue(Conn& c, int64_t now);
  void Flush(Conn& c);
  void FlushQueued();
  void SetWantWrite(Conn& c, bool want);
  bool MoreToIssue(const Conn& c, int64_t now) const;
  bool Done(const Conn& c, int64_t now) const;
  int64_t NextDue(const Conn& c) const;
  void Rollover(int64_t second);
  // Run's steps: whether to stop (an interrupt, the end of a timed run: `drain_deadline` set)
  // and the second's rollover; the connections' upkeep (reconnects, timeouts, open-loop
  // requests that fell due), lowering `wake` to the next due time, true when every connection
  // is done; what was left unanswered or unsent at the end, and the sockets closed.
  void CheckClock(int64_t now, int64_t* drain_deadline);
  bool KeepConnections(int64_t now, int64_t* wake, bool* any_alive);
  void CountLeftovers();
  void OnReply(Conn& c, int64_t now, uint32_t slot, uint8_t phase, int64_t origin_ns,
               int64_t sent_ns, int kind, std::string_view error_text);
  int64_t Wait(int64_t timeout_ns);  // epoll; returns the number of events

  const Config& config_;
  const Workload& workload_;
  const Target target_;
  const int index_;
  RunTimes times_;
  int epfd_ = -1;
  std::vector<std::unique_ptr<Conn>> conns_;
  std::unique_ptr<char[]> read_buf_;
  size_t read_cap_ = 0;
  std::string auth_request_;
  bool stopping_ = false;  // no new requests (interrupt or time over)
  bool interrupted_ = false;
  bool all_lost_ = false;
  bool rescan_ = false;
  bool batching_ = false;  // Issue() queues connections for FlushQueued() instead of sending
  std::vector<Conn*> flush_queue_;  // a connection went idle or was lost: check completion soon
  int connected_ = 0;
  std::string first_error_;
  std::vector<uint32_t> scan_counts_;
  std::vector<bool> is_get_;  // per slot: GET replies count hits and misses  // replies per slot in
                              // one read, for RX attribution

  ThreadStats stats_;
  SeriesMailbox mailbox_;
  std::unique_ptr<SecondBlock> block_;
  uint64_t total_ok_ = 0;
  uint64_t total_errors_ = 0;
};

}  // namespace dfbench::loadgen
