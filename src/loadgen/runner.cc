// Run(): pre-flight check, worker threads, the coordinator loop (time series, progress line)
// and the assembly of the report.
#include <netdb.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <latch>
#include <random>
#include <thread>

#include "core/interrupt.h"
#include "loadgen/client_stats_csv.h"
#include "loadgen/clock.h"
#include "loadgen/live_metrics.h"
#include "loadgen/loadgen.h"
#include "loadgen/progress.h"
#include "loadgen/start_at.h"
#include "loadgen/stat_rows.h"
#include "loadgen/stats.h"
#include "loadgen/worker.h"
#include "loadgen/workload.h"
#include "protocol/blocking_client.h"

namespace dfbench::loadgen {
namespace {

using core::ErrorKind;
using core::Fail;

core::Result<SlotMap> FetchSlotMap(const Config& c, protocol::BlockingClient& client) {
  auto reply = client.Command({"CLUSTER", "SLOTS"});
  if (!reply) return tl::unexpected(reply.error());
  auto map = ParseClusterSlots(*reply, c.server);
  if (!map) return tl::unexpected(core::WithContext(map.error(), "--cluster-mode: " + c.Where()));
  return map;
}

// The control connection of the preflight: TCP (with TLS when asked) or the Unix socket.
core::Result<protocol::BlockingClient> ConnectControl(const Config& c,
                                                      const protocol::TlsContext* tls) {
  constexpr auto kTimeout = std::chrono::seconds(5);
  if (!c.unix_socket.empty()) return protocol::BlockingClient::ConnectUnix(c.unix_socket, kTimeout);
  return protocol::BlockingClient::Connect(c.server, c.port, kTimeout, tls, c.AiFamily());
}

// What a refused connection setup (HELLO or AUTH) means, in one line.
core::Error SetupRefused(const Config& c, const std::string& command, const std::string& reply) {
  if (command == "SELECT") {
    return {ErrorKind::kEnvironment, "server at " + c.Where() + " refused database " +
                                         std::to_string(c.select_db) + ": " + reply};
  }
  if (reply.rfind("NOPROTO", 0) == 0) {
    return {ErrorKind::kEnvironment, "server at " + c.Where() + " does not speak RESP" +
                                         std::to_string(c.resp_version) + ": " + reply};
  }
  if (c.resp_version > 0 && reply.rfind("ERR unknown command", 0) == 0) {
    return {ErrorKind::kEnvironment,
            "server at " + c.Where() + " has no HELLO (RESP3 came with Redis 6): " + reply};
  }
  return {ErrorKind::kEnvironment, "authentication to " + c.Where() + " failed: " + reply};
}

// One blocking connection proves the server is there and accepts our credentials, so those
// failures end the run with one clear line instead of a storm of per-connection errors. In
// cluster mode it also reads the slot map (empty otherwise).
core::Result<SlotMap> Preflight(const Config& c, const protocol::TlsContext* tls) {
  auto client = ConnectControl(c, tls);
  if (!client) return tl::unexpected(client.error());
  if (c.protocol == Protocol::kMemcacheText) {
    auto lines = client->MemcacheCommand("version");
    if (!lines) {
      return Fail(ErrorKind::kEnvironment,
                  "server at " + c.Where() +
                      " does not answer the memcache text protocol: " + lines.error().message);
    }
    if (lines->empty() || lines->back().rfind("VERSION", 0) != 0) {
      return Fail(ErrorKind::kEnvironment,
                  "server at " + c.Where() + " does not answer the memcache text protocol");
    }
    return SlotMap{};
  }
  for (const auto& command : c.ConnectionSetup()) {
    auto reply = client->Command(command);
    if (!reply) return tl::unexpected(reply.error());
    if (reply->is_error()) return tl::unexpected(SetupRefused(c, command.front(), reply->str));
  }
  auto reply = client->Command({"PING"});
  if (!reply) {
    return Fail(ErrorKind::kEnvironment,
                "server at " + c.Where() + " does not answer RESP: " + reply.error().message);
  }
  if (reply->is_error()) {
    if (reply->str.rfind("NOAUTH", 0) == 0) {
      return Fail(ErrorKind::kEnvironment,
                  "server at " + c.Where() + " requires a password (-a): " + reply->str);
    }
    return Fail(ErrorKind::kEnvironment,
                "server at " + c.Where() + " rejected PING: " + reply->str);
  }
  if (c.cluster_mode) return FetchSlotMap(c, *client);
  return SlotMap{};
}

// The cluster's primaries as the seed node sees them, each resolved.
core::Result<std::vector<Target>> ResolveNodes(const Config& c, const SlotMap& map) {
  if (!c.unix_socket.empty()) {
    auto target = UnixTarget(c.unix_socket);
    if (!target) return tl::unexpected(target.error());
    return std::vector<Target>{*target};
  }
  if (!c.cluster_mode) {
    auto target = ResolveTarget(c.server, c.port, c.AiFamily());
    if (!target) return tl::unexpected(target.error());
    return std::vector<Target>{*target};
  }
  std::vector<Target> targets;
  for (const auto& node : map.nodes) {
    auto target = ResolveTarget(node.host, node.port, c.AiFamily());
    if (!target) return tl::unexpected(target.error());
    targets.push_back(*target);
  }
  return targets;
}

// Drains every worker's mailbox into the collector, each second folded into the report's rows,
// and finishes the seconds all are past.
void Collect(std::vector<std::unique_ptr<Worker>>& workers, const StatRows& rows,
             SeriesCollector* series) {
  int64_t min_second = INT64_MAX;
  for (auto& w : workers) {
    // Read the second first: blocks for earlier seconds are posted before it moves on.
    min_second = std::min(min_second, w->mailbox().current_second.load(std::memory_order_acquire));
    for (auto& block : w->mailbox().Take()) {
      FoldIntoRows(rows, &block->slots);
      series->Add(std::move(block));
    }
  }
  series->FinishBefore(min_second);
}

SectionStats MakeSection(const Slot* slot, const SlotStats& stats,
                         const LatencyHistogram* uncorrected, const Config& config) {
  SectionStats s;
  if (slot != nullptr) {
    s.section = slot->section;
    s.type = slot->type;
    s.has_hits = slot->kind == Slot::Kind::kGet;
  } else {
    s.section = "Totals";
    s.type = "TOTALS";
    s.has_hits = config.commands.empty();
  }
  const SlotCounters& c = stats.counters;
  s.count = c.count;
  s.errors = c.errors;
  s.hits = c.hits;
  s.misses = c.misses;
  s.bytes_rx = c.bytes_rx;
  s.bytes_tx = c.bytes_tx;
  s.moved = c.moved;
  s.ask = c.ask;
  s.latency = Summarize(stats.latency, c.latency_sum_ns, config.load.percentiles);
  s.histogram = stats.latency.ToHdr();
  if (uncorrected != nullptr) {
    // The uncorrected histogram keeps no separate exact sum; its mean is exact too.
    s.uncorrected = Summarize(*uncorrected, uncorrected->mean_ns() * uncorrected->count(),
                              config.load.percentiles);
  }
  return s;
}

// The calling thread's run delay so far (ns waiting on a run queue, /proc/thread-self/schedstat's
// second field); 0 where the kernel does not keep it.
int64_t ThreadRunDelayNs() {
  std::FILE* f = std::fopen("/proc/thread-self/schedstat", "r");
  if (f == nullptr) return 0;
  unsigned long long on_cpu = 0, delay = 0;
  const int read = std::fscanf(f, "%llu %llu", &on_cpu, &delay);
  std::fclose(f);
  return read == 2 ? static_cast<int64_t>(delay) : 0;
}

// Many connections need many descriptors: raise the soft limit to the hard one.
void RaiseFileLimit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

// The worker threads: each connects, waits for the go signal, then runs its share of the load.
// Stays where it is built (its threads refer to it).
class WorkerPool {
 public:
  WorkerPool(const Config& config, const Workload& workload, const std::vector<Target>& targets,
             const SlotMap* cluster, const protocol::TlsContext* tls, const RunTimes& times)
      : connected_(config.load.threads) {
    const uint64_t random_base = config.randomize ? std::random_device{}() * 0x100000001ull : 0;
    for (int i = 0; i < config.load.threads; ++i) {
      workers_.push_back(
          std::make_unique<Worker>(config, workload, targets, cluster, tls, i, random_base));
    }
    for (auto& w : workers_) {
      threads_.emplace_back([this, &times, w = w.get()] {
        w->Connect();
        connected_.count_down();
        go_.wait();
        if (abort_) return;
        const int64_t delay_before = ThreadRunDelayNs();
        w->Run(times);
        w->stats().run_delay_ns = ThreadRunDelayNs() - delay_before;
      });
    }
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() {
    if (!released_) Abort();
    Join();
  }

  // Waits until every worker tried to connect; the connections that are up.
  int WaitConnected() {
    connected_.wait();
    int up = 0;
    for (auto& w : workers_) up += w->connected();
    connect_error_ = FirstError();
    return up;
  }
  // The first error of a worker, in worker order: the one seen while connecting, if any.
  std::string FirstError() const {
    if (!connect_error_.empty()) return connect_error_;
    for (const auto& w : workers_) {
      if (!w->first_error().empty()) return w->first_error();
    }
    return "";
  }
  // Releases the workers (the run times must be set by now), or ends them without load.
  void Go() {
    released_ = true;
    go_.count_down();
  }
  void Abort() {
    abort_ = true;
    Go();
    Join();
  }
  void Join() {
    for (auto& t : threads_) {
      if (t.joinable()) t.join();
    }
  }
  bool AllFinished() const {
    for (const auto& w : workers_) {
      if (!w->finished.load(std::memory_order_acquire)) return false;
    }
    return true;
  }
  // Workers still running (memtier's active threads).
  int Running() const {
    int running = 0;
    for (const auto& w : workers_) running += !w->finished.load(std::memory_order_acquire);
    return running;
  }
  std::vector<std::unique_ptr<Worker>>& workers() { return workers_; }

 private:
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
  std::latch connected_;
  std::latch go_{1};
  bool released_ = false;
  bool abort_ = false;
  std::string connect_error_;
};

// Why the load cannot start: interrupted, or no connection at all (kEnvironment).
core::Status CheckConnections(const Config& config, int nodes, WorkerPool& pool) {
  const int up = pool.WaitConnected();
  // A staircase's late clients connect when their step comes.
  const int wanted =
      config.load.threads * static_cast<int>(config.Staircase().ClientsAt(0)) * nodes;
  if (up == 0 || core::InterruptRequested()) {
    pool.Abort();
    if (core::InterruptRequested()) {
      return Fail(ErrorKind::kInterrupted, "interrupted before the load started");
    }
    return Fail(ErrorKind::kEnvironment,
                "no connection to " + config.Where() + " could be opened: " + pool.FirstError());
  }
  if (up < wanted) {
    std::fprintf(stderr,
                 "dfbench: warning: only %d of %d connections opened (%s); the rest "
                 "keep retrying\n",
                 up, wanted, pool.FirstError().c_str());
  }
  return core::Ok();
}

// The schedule from now: warm-up, then the measured window (open-ended when by requests).
RunTimes StartClock(const Config& config) {
  RunTimes times;
  times.start_ns = NowNs();
  times.measured_start_ns = times.start_ns + config.pass.warmup_time.count() * 1000;
  times.end_ns =
      config.by_time() ? times.measured_start_ns + config.pass.test_time.count() * 1000 : 0;
  return times;
}

// What the progress line shows now: the live reply count and the finished seconds' figures.
ProgressSample Sample(const Config& config, const RunTimes& times, WorkerPool& pool,
                      const SeriesCollector& series) {
  ProgressSample s;
  s.elapsed_s =
      static_cast<double>(std::max<int64_t>(NowNs() - times.measured_start_ns, 0)) / kNsPerSec;
  for (auto& w : pool.workers()) {
    s.ops += w->progress_ops.load(std::memory_order_relaxed);
    if (config.error_replies_are_ops) s.ops += w->progress_errors.load(std::memory_order_relaxed);
    s.active_threads += w->finished.load(std::memory_order_acquire) ? 0 : 1;
  }
  for (const auto& slot : series.SlotTotals()) {
    s.bytes += slot.counters.bytes_rx + slot.counters.bytes_tx;
    s.replies += slot.counters.count;
    s.latency_sum_ns += slot.counters.latency_sum_ns;
  }
  if (const SeriesPoint* last = series.LastFinished()) {
    s.seconds = static_cast<uint64_t>(series.LastFinishedSecond() + 1);
    s.last_ops = last->latency.count;
    s.last_bytes = last->bytes_rx + last->bytes_tx;
    s.last_latency_ms = last->latency.avg_ms;
  }
  return s;
}

// Until every worker is done: collects the time series and keeps memtier's progress line
// current.
void Coordinate(const Config& config, const RunTimes& times, WorkerPool& pool, const StatRows& rows,
                SeriesCollector* series, Progress* progress, LiveMetrics* metrics) {
  const auto interrupted = [&] {
    if (core::InterruptSignal() != SIGINT) return;
    const int64_t elapsed_ns = std::max<int64_t>(NowNs() - times.measured_start_ns, 0);
    progress->Interrupted(static_cast<double>(elapsed_ns) / kNsPerSec);
  };
  while (true) {
    const bool all_finished = pool.AllFinished();
    Collect(pool.workers(), rows, series);
    interrupted();
    if (all_finished) break;
    const int64_t now = NowNs();
    metrics->Publish(*series, pool.Running(), now - times.measured_start_ns);
    metrics->Serve();
    if (now > times.measured_start_ns) progress->Update(Sample(config, times, pool, *series));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  pool.Join();
  Collect(pool.workers(), rows, series);
  metrics->Publish(*series, 0, NowNs() - times.measured_start_ns);
  progress->Finish(Sample(config, times, pool, *series));
}

// The per-thread counters that are not per slot: warm-up, connections, error samples, and
// whether every connection was lost. The open-loop uncorrected histograms per slot, merged.
std::vector<LatencyHistogram> MergeThreadCounters(const Config& config, size_t slots,
                                                  int64_t measured_start_ns, WorkerPool& pool,
                                                  Report* report, int64_t* last_reply_ns,
                                                  int64_t* stopped_ns) {
  std::vector<LatencyHistogram> uncorrected(config.open_loop() ? slots : 0);
  LatencyHistogram send_lag;
  bool all_lost = true;
  int64_t cut_ns = INT64_MAX;
  for (auto& w : pool.workers()) {
    ThreadStats& ts = w->stats();
    for (size_t i = 0; i < uncorrected.size(); ++i) uncorrected[i].Merge(ts.uncorrected[i]);
    send_lag.Merge(ts.send_lag);
    report->warmup_count += ts.warmup_count;
    report->connection_errors += ts.connection_errors;
    report->reconnects += ts.reconnects;
    report->tls_handshakes += ts.tls_handshakes;
    report->pushes += ts.pushes;
    report->unanswered += ts.unanswered;
    report->lost_requests += ts.lost_requests;
    if (ts.cut_ns != 0 && ts.cut_ns < cut_ns) {
      cut_ns = ts.cut_ns;
      report->ended_early = ts.cut_reason;
    }
    *stopped_ns = std::max(*stopped_ns, ts.stopped_ns);
    for (const auto& e : ts.error_samples) {
      if (report->error_samples.size() < 5 &&
          std::find(report->error_samples.begin(), report->error_samples.end(), e) ==
              report->error_samples.end()) {
        report->error_samples.push_back(e);
      }
    }
    *last_reply_ns = std::max(*last_reply_ns, ts.last_reply_ns);
    report->client_cpu.run_delay_sec += static_cast<double>(ts.run_delay_ns) / kNsPerSec;
    all_lost = all_lost && w->all_connections_lost();
  }
  if (all_lost) report->aborted_reason = "all connections lost: " + pool.FirstError();
  if (report->interrupted) {
    report->ended_early.clear();  // an interrupt says so itself
  } else {
    if (report->ended_early.empty() && (all_lost || report->lost_requests > 0)) {
      // Lost while draining, or unanswered at the drain's end though the server still answered.
      report->ended_early =
          all_lost ? "all connections lost"
                   : std::to_string(report->lost_requests) + " requests were never answered";
      cut_ns = *stopped_ns;
    }
    if (!report->ended_early.empty()) {
      report->ended_at_sec =
          static_cast<double>(std::max<int64_t>(cut_ns - measured_start_ns, 0)) / kNsPerSec;
    }
  }
  if (config.open_loop()) {
    report->send_lag =
        Summarize(send_lag, send_lag.mean_ns() * send_lag.count(), config.load.percentiles);
  }
  return uncorrected;
}

// The measured window runs from its start to the last reply (exact, not rounded); its
// duration in ns. A window that ended early runs on to when the generator stopped (the test
// time's end at most): the time the server did not answer is part of it.
int64_t SetWindow(const Config& config, const RunTimes& times,
                  std::chrono::system_clock::time_point wall_start, int64_t last_reply_ns,
                  int64_t stopped_ns, Report* report) {
  int64_t end_ns = last_reply_ns;
  if (!report->ended_early.empty()) {
    end_ns = std::max(end_ns, config.by_time() ? std::min(stopped_ns, times.end_ns) : stopped_ns);
  }
  if (end_ns <= times.measured_start_ns) end_ns = NowNs();
  const int64_t duration_ns = std::max<int64_t>(end_ns - times.measured_start_ns, 1);
  const int64_t warmup_ns = config.pass.warmup_time.count() * 1000;
  report->duration_ms = static_cast<double>(duration_ns) / 1e6;
  const auto measured_wall_start = wall_start + std::chrono::nanoseconds(warmup_ns);
  report->start_epoch_us =
      std::chrono::duration_cast<std::chrono::microseconds>(measured_wall_start.time_since_epoch())
          .count();
  report->start_epoch_ms = report->start_epoch_us / 1000;
  report->finish_epoch_ms =
      report->start_epoch_ms + static_cast<int64_t>(std::llround(report->duration_ms));
  report->warmup_duration_ms = static_cast<double>(warmup_ns) / 1e6;
  return duration_ns;
}

// One section per row (a command name, or a --command) and the totals, with their time series.
void FillSections(const Config& config, const Workload& workload, const StatRows& rows,
                  SeriesCollector& series,
                  const std::vector<LatencyHistogram>& per_slot_uncorrected, int64_t duration_ns,
                  Report* report) {
  const size_t slots = rows.size();
  const std::vector<SlotStats>& merged = series.SlotTotals();
  const std::vector<LatencyHistogram> uncorrected = FoldIntoRows(rows, per_slot_uncorrected);
  SlotStats total;
  LatencyHistogram total_uncorrected;
  for (size_t i = 0; i < slots; ++i) {
    total.counters.Add(merged[i].counters);
    total.latency.Merge(merged[i].latency);
  }
  for (const auto& h : uncorrected) total_uncorrected.Merge(h);
  // Seconds 0..n-1 of the window; the last reply falls in second duration / 1 s.
  const size_t seconds = static_cast<size_t>(duration_ns / kNsPerSec + 1);
  auto per_slot_series = series.PerSlot(seconds);
  for (size_t i = 0; i < slots; ++i) {
    SectionStats s = MakeSection(&workload.slots[rows.first_slot[i]], merged[i],
                                 uncorrected.empty() ? nullptr : &uncorrected[i], config);
    s.series = std::move(per_slot_series[i]);
    report->sections.push_back(std::move(s));
  }
  report->totals =
      MakeSection(nullptr, total, uncorrected.empty() ? nullptr : &total_uncorrected, config);
  report->totals.series = series.Totals(seconds);
}

// CPU time (user + system) this process has used so far, in seconds.
double ProcessCpuSec() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto sec = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; };
  return sec(ru.ru_utime) + sec(ru.ru_stime);
}

// CPUs the workers can run on: one per thread at most, within this process's affinity.
int UsableCpus(const Config& config) {
  cpu_set_t set;
  CPU_ZERO(&set);
  const int allowed = sched_getaffinity(0, sizeof(set), &set) == 0
                          ? CPU_COUNT(&set)
                          : static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, std::min(config.load.threads, allowed));
}

}  // namespace

// --client-stats: every client's file, thread by thread (memtier_benchmark.cpp run_benchmark).
std::vector<ClientStatsFile> ClientFiles(const Config& config, const Workload& workload, int run,
                                         WorkerPool& pool) {
  std::vector<ClientStatsFile> files;
  if (config.client_stats.empty()) return files;
  const ClientCsvLayout layout =
      MakeClientCsvLayout(workload, !config.commands.empty(), config.cluster_mode);
  for (size_t t = 0; t < pool.workers().size(); ++t) {
    for (auto& file : ClientStatsFiles(pool.workers()[t]->client_tallies(), layout,
                                       config.client_stats, run, static_cast<int>(t))) {
      files.push_back(std::move(file));
    }
  }
  return files;
}

core::Result<Report> Run(const Config& config, int run) {
  if (auto st = Validate(config); !st) return tl::unexpected(st.error());
  RaiseFileLimit();
  auto workload = BuildWorkload(config);
  if (!workload) return tl::unexpected(workload.error());
  std::shared_ptr<const protocol::TlsContext> tls;
  if (config.tls.enabled) {
    auto context = protocol::TlsContext::Create(config.tls);
    if (!context) return tl::unexpected(context.error());
    tls = std::move(*context);
  }
  auto slot_map = Preflight(config, tls.get());
  if (!slot_map) return tl::unexpected(slot_map.error());
  auto targets = ResolveNodes(config, *slot_map);
  if (!targets) return tl::unexpected(targets.error());

  Progress progress(config, run, stderr);
  progress.Preparing();
  RunTimes times;
  WorkerPool pool(config, *workload, *targets, config.cluster_mode ? &*slot_map : nullptr,
                  tls.get(), times);
  const int nodes = static_cast<int>(targets->size());
  if (auto st = CheckConnections(config, nodes, pool); !st) return tl::unexpected(st.error());
  const StatRows rows = MakeStatRows(*workload, config.stats_breakdown);
  auto metrics = LiveMetrics::Open(config, *workload, rows, nodes);
  if (!metrics) return tl::unexpected(metrics.error());
  WaitForStart(config.pass.start_at_us, config.pass.warmup_time);
  const auto wall_start = core::RealClock().WallNow();
  progress.StaircasePattern();
  times = StartClock(config);
  const double cpu_start_sec = ProcessCpuSec();
  progress.Launching();
  pool.Go();
  metrics->Started();
  SeriesCollector series(rows.size(), config.load.percentiles);
  Coordinate(config, times, pool, rows, &series, &progress, &*metrics);
  // Warm-up included: it runs at the same rate, and whether the generator itself was the limit
  // is what this tells.
  const ClientCpu cpu{.cpu_sec = ProcessCpuSec() - cpu_start_sec,
                      .wall_sec = static_cast<double>(NowNs() - times.start_ns) / kNsPerSec,
                      .usable_cpus = UsableCpus(config)};

  Report report;
  report.interrupted = core::InterruptRequested();
  int64_t last_reply_ns = 0, stopped_ns = 0;
  const auto uncorrected =
      MergeThreadCounters(config, workload->slots.size(), times.measured_start_ns, pool, &report,
                          &last_reply_ns, &stopped_ns);
  const int64_t duration_ns =
      SetWindow(config, times, wall_start, last_reply_ns, stopped_ns, &report);
  FillSections(config, *workload, rows, series, uncorrected, duration_ns, &report);
  report.open_loop = config.open_loop();
  report.target_rate = config.pass.rate_per_sec;
  report.achieved_rate = static_cast<double>(report.totals.count) / report.seconds();
  report.errors = report.totals.errors;
  report.client_cpu.cpu_sec = cpu.cpu_sec;
  report.client_cpu.wall_sec = cpu.wall_sec;
  report.client_cpu.usable_cpus = cpu.usable_cpus;
  for (const auto& node : slot_map->nodes) {
    report.cluster_nodes.push_back(node.host + ":" + std::to_string(node.port));
  }
  report.client_stats = ClientFiles(config, *workload, run, pool);
  metrics->Finished(report);
  return report;
}

}  // namespace dfbench::loadgen
