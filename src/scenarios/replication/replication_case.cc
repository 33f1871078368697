#include "scenarios/replication/replication_case.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "core/format.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "drivers/builtin_driver.h"
#include "drivers/dfly_bench_replication.h"
#include "drivers/tool_runner.h"
#include "hosts/ssh_command.h"
#include "protocol/blocking_client.h"
#include "results/schema.h"
#include "scenarios/frame/background_load.h"
#include "scenarios/frame/engine_control.h"
#include "scenarios/frame/engine_turn.h"
#include "scenarios/replication/replication_series.h"
#include "scenarios/replication/replication_signals.h"

namespace dfbench::scenarios {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kSyncPoll{50};
constexpr std::chrono::seconds kWatchPoll{2};
// From the replica's start (or REPLICAOF) to the start of its full sync: a replica that cannot
// reach its master says so in a minute, not at the end of the whole sync's deadline.
constexpr std::chrono::seconds kLinkTimeout{60};
// From the load's end until the replica holds as many keys as its master.
constexpr std::chrono::seconds kCatchUpTimeout{30};
// How long dfly_bench may take to exit and write its report once its test time is over.
constexpr std::chrono::seconds kDflyBenchExitGrace{30};
// The built-in load runs on this long after the test time's last second, so that the generator,
// started a moment after we noted its start, has closed that second when it is stopped.
constexpr std::chrono::seconds kLastSecondMargin{1};

core::Result<protocol::Reply> Ask(const engines::RunningEngine& engine,
                                  const std::vector<std::string>& args) {
  auto client = protocol::BlockingClient::Connect(engine.control().address, engine.control().port,
                                                  kEngineControlTimeout);
  if (!client) return tl::unexpected(client.error());
  auto reply = client->Command(args);
  if (!reply) return tl::unexpected(reply.error());
  if (reply->is_error()) {
    return core::Fail(core::ErrorKind::kFailure, args.front() + ": " + reply->str);
  }
  return reply;
}

std::string InfoReplication(const engines::RunningEngine& engine) {
  auto reply = Ask(engine, {"INFO", "replication"});
  return reply ? reply->str : std::string();
}

// "qps=1000" -> "qps-1000": file-name form of a case.
std::string CaseFileName(const std::string& name) {
  std::string s = name;
  std::replace(s.begin(), s.end(), '=', '-');
  return s;
}

class CaseRun {
 public:
  CaseRun(const ReplicationCaseSetting& s, const ReplicationCaseSpec& c,
          results::ReplicationCase* out)
      : s_(s),
        o_(s.options),
        c_(c),
        out_(out),
        label_(s.spec.name + " " + c.name),
        dfly_bench_(s.options.load_generator == core::LoadGenerator::kDflyBench) {}

  bool Run() {
    out_->run_name = c_.name;
    out_->engine = s_.spec.name;
    out_->master_flags = o_.master_flags;
    out_->replica_flags = o_.replica_flags;
    stem_ = s_.spec.name + "-" + CaseFileName(c_.name);

    // The master's turn records its build in the case (the row every kind of result embeds).
    core::Notef("[{}] starting the master", label_);
    auto master = EngineTurn::Start(s_.fleet, s_.install, s_.spec,
                                    engines::Tuning{.extra_args = o_.master_flags}, out_);
    if (!master) return NotStarted("master: " + std::exchange(out_->error, {}));
    const drivers::Target target = master->target();
    if (!Preload(target)) return Ended(*master, nullptr);
    // The reference's sentinel, set once the preload is done and before the replica starts.
    if (auto r = Ask(master->engine().seed(), {"SET", "READY", "true"}); !r) {
      return Failed("master: " + r.error().message, &*master);
    }

    // The built-in load starts right before the sync does (Redis and Valkey: their replica is
    // already up when the load starts and is then told its master; Dragonfly's replica gets its
    // master at start) and runs through it, so that what clients see during the sync is kept
    // (sync_series); the case's series is the test time that follows the stable sync, as the
    // reference's. dfly_bench's load starts after the sync, as in the reference.
    const bool replicaof_at_start = s_.spec.replicaof_at_start;
    std::optional<EngineTurn> replica;
    auto start_replica = [&] {
      auto started = StartReplica(master->engine().seed());
      if (started) replica.emplace(std::move(*started));
    };
    if (!replicaof_at_start) {
      start_replica();
      if (!replica) return Ended(*master, nullptr);
    }
    std::unique_ptr<BackgroundLoad> load;
    if (!dfly_bench_) {
      load = StartLoad(target);
      if (!load) return Ended(*master, replica ? &*replica : nullptr);
    }
    if (replicaof_at_start) {
      start_replica();
    } else if (!PointAtMaster(replica->engine().seed(), master->engine().seed())) {
      replica.reset();  // stopped as it goes
    }
    if (replica && WaitForSync(master->engine().seed(), replica->engine().seed(), load.get())) {
      if (dfly_bench_) load = StartLoad(target);
      if (load) Watch(master->engine().seed(), replica->engine().seed(), *load);
    }
    if (load) Collect(*load);
    if (replica && out_->termination_reason == results::kTerminationTimeout) {
      WaitForCatchUp(master->engine().seed(), replica->engine().seed());
    }
    return Ended(*master, replica ? &*replica : nullptr);
  }

 private:
  core::Result<BackgroundLoad> LaunchLoad(const drivers::Target& target) {
    if (dfly_bench_) {
      auto report = drivers::ScratchReportPath(*s_.fleet.client, "dfly_bench");
      if (!report) return tl::unexpected(report.error());
      return BackgroundLoad::StartProgram(
          *s_.fleet.client,
          drivers::DflyBenchLoadArgs(Shape(target, *report), c_.qps_per_connection, o_.ratio,
                                     o_.test_time),
          *report, s_.fleet.client_cpus);
    }
    // Bounded should nobody stop it; it is stopped once the case is over.
    core::Load load = core::kReplicationLoad;
    load.ratio = o_.ratio;
    load.data_size = o_.value_size;
    load.key_maximum = o_.preload_keys - 1;
    core::Pass pass = core::Pass::Time(o_.sync_timeout + o_.test_time + std::chrono::minutes(1));
    pass.rate_per_sec = static_cast<double>(c_.TotalRate());
    return BackgroundLoad::Start(*s_.fleet.client, target, load, pass, s_.fleet.client_cpus);
  }

  std::unique_ptr<BackgroundLoad> StartLoad(const drivers::Target& target) {
    load_start_ = Clock::now();  // a moment before the generator's own start
    auto bg = LaunchLoad(target);
    if (!bg) {
      Failed("load: " + bg.error().message);
      return nullptr;
    }
    out_->load_args = bg->args();
    core::Notef("[{}] load: {}", label_,
                c_.qps_per_connection > 0
                    ? core::Format("{} ops/s in total ({} per connection x {})", c_.TotalRate(),
                                   c_.qps_per_connection, ReplicationCaseSpec::Connections())
                    : std::string("closed loop (maxload)"));
    return std::make_unique<BackgroundLoad>(std::move(*bg));
  }

  drivers::DflyBenchShape Shape(const drivers::Target& target, const std::string& report) const {
    return {.binary = o_.dfly_bench_binary,
            .target = target,
            .key_maximum = o_.preload_keys,
            .value_size = o_.value_size,
            .report_path = report};
  }

  // Records a failure; returns false when it was an interrupt.
  bool Failed(const std::string& why, EngineTurn* master = nullptr) {
    End(FailureReason(), why);
    if (master) return Ended(*master, nullptr);
    return !core::InterruptRequested();
  }
  // Records the failure of an engine's turn to start, which the turn has said already.
  bool NotStarted(const std::string& why) {
    Record(FailureReason(), why);
    return !core::InterruptRequested();
  }
  static const char* FailureReason() {
    return core::InterruptRequested() ? results::kTerminationCancelled : results::kTerminationError;
  }

  void End(const char* reason, const std::string& why = "") {
    if (Record(reason, why))
      core::Notef("[{}] {}{}", label_, reason, why.empty() ? "" : ": " + why);
  }
  // False when the case had ended already: the first reason wins.
  bool Record(const char* reason, const std::string& why) {
    if (!out_->termination_reason.empty()) return false;
    out_->termination_reason = reason;
    out_->error = why;
    return true;
  }

  // The replica stopped, then the master: FLUSHALL ASYNC (a synchronous one can block for long
  // after a heavy run) and stop.
  bool Ended(EngineTurn& master, EngineTurn* replica) {
    if (replica) replica->Stop();
    if (master.engine().Alive()) {
      if (auto r = Ask(master.engine().seed(), {"FLUSHALL", "ASYNC"}); !r) {
        core::Notef("[{}] {}", label_, r.error().message);
      }
    }
    master.Stop();
    if (core::InterruptRequested()) End(results::kTerminationCancelled, "interrupted");
    return !core::InterruptRequested();
  }

  bool Preload(const drivers::Target& target) {
    const auto start = Clock::now();
    if (dfly_bench_ ? !PreloadWithDflyBench(target) : !PreloadWithBuiltin(target)) return false;
    core::Notef("[{}] preloaded: {} s of writes over keys 0..{} with {} bytes in {:.1f} s", label_,
                o_.preload_time.count(), o_.preload_keys - 1, o_.value_size,
                std::chrono::duration<double>(Clock::now() - start).count());
    return true;
  }

  // The reference's preload: --preload-time (30 s) of dfly_bench writes over the key range.
  bool PreloadWithDflyBench(const drivers::Target& target) {
    auto report = drivers::ScratchReportPath(*s_.fleet.client, "dfly_bench");
    if (!report) return Failed("preload: " + report.error().message), false;
    const auto argv = drivers::DflyBenchPreloadArgs(Shape(target, *report), o_.preload_time);
    out_->preload_args = hosts::ShellJoinForDisplay(argv);
    const auto raw = s_.raw_dir / (stem_ + "-preload.json");
    auto out = drivers::RunKeepingStdout(*s_.fleet.client, argv, s_.fleet.client_cpus,
                                         o_.preload_time + std::chrono::minutes(2), raw);
    if (!out) return Failed("preload: " + out.error().message), false;
    if (!out->status.ok()) {
      return Failed("preload: dfly_bench failed (" + out->status.Describe() + ")"), false;
    }
    if (auto st = s_.fleet.client->Fetch(*report, raw); !st) {
      return Failed("preload: " + st.error().message), false;
    }
    return true;
  }

  // The reference's preload with the built-in generator: writes of random keys over
  // 0..preload_keys-1 for the preload time, closed loop, in its shape (4 threads x 15
  // connections, pipeline 10). Time-boxed, so a large range ends up partly written, as there.
  bool PreloadWithBuiltin(const drivers::Target& target) {
    core::Load fill = core::kReplicationPreload;
    fill.data_size = o_.value_size;
    fill.command = "SET __key__ __data__";
    fill.key_maximum = o_.preload_keys - 1;
    const core::Pass time = core::Pass::Time(o_.preload_time);
    const auto raw = s_.raw_dir / (stem_ + "-preload.json");
    out_->preload_args = hosts::ShellJoinForDisplay(
        drivers::BuiltinDriver::BuildArgs("dfbench", target, fill, time, raw.filename().string()));
    drivers::BuiltinDriver driver;
    auto pass = driver.Run(*s_.fleet.client, target, fill, time, s_.fleet.client_cpus, raw);
    if (!pass) {
      Failed("preload: " + pass.error().message);
      return false;
    }
    if (pass->errors > 0) {
      Failed(core::Format("preload: {} error replies (see {})", pass->errors, raw.string()));
      return false;
    }
    return true;
  }

  // Starts the replica of `master`: Dragonfly with its master on its command line, so its sync
  // starts here; Redis and Valkey up and empty, told their master later (PointAtMaster).
  std::optional<EngineTurn> StartReplica(const engines::RunningEngine& master) {
    engines::Tuning tuning{.extra_args = o_.replica_flags};
    const bool at_start = s_.spec.replicaof_at_start;
    if (at_start) {
      const auto args = engines::ReplicaOfArgs(master.address(), master.port());
      tuning.extra_args.insert(tuning.extra_args.end(), args.begin(), args.end());
    }
    core::Notef("[{}] starting the replica on {}", label_, s_.fleet.replicas.front()->Name());
    sync_start_ = Clock::now();
    auto replica = EngineTurn::StartReplica(s_.fleet, s_.install, s_.spec, tuning,
                                            /*flush=*/!at_start, &replica_record_);
    if (!replica) NotStarted("replica: " + replica_record_.error);
    return replica;
  }

  // REPLICAOF: the sync starts here.
  bool PointAtMaster(engines::RunningEngine& replica, engines::RunningEngine& master) {
    sync_start_ = Clock::now();
    auto r = Ask(replica, {"REPLICAOF", master.address(), std::to_string(master.port())});
    if (!r) Failed("replica: " + r.error().message);
    return r.has_value();
  }

  // Polls the replica until it is in stable sync; records sync_duration_ms. Each phase it
  // enters is said with its time; a deadline that passes fails the case with what INFO showed.
  bool WaitForSync(engines::RunningEngine& master, engines::RunningEngine& replica,
                   BackgroundLoad* load) {
    const SyncDeadlines deadlines{.linked = std::min(kLinkTimeout, o_.sync_timeout),
                                  .stable = o_.sync_timeout};
    ReplicaPhase shown = ReplicaPhase::kNoAnswer;
    bool full_sync_seen = false;
    for (;;) {
      const std::string info = InfoReplication(replica);
      const ReplicaPhase phase = ReadReplicaPhase(info);
      const auto elapsed =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sync_start_);
      if (phase == ReplicaPhase::kStableSync) break;
      if (phase != shown && phase != ReplicaPhase::kNoAnswer) {
        core::Notef("[{}] replica: {} after {} ms", label_, PhaseName(phase), elapsed.count());
        shown = phase;
      }
      full_sync_seen = full_sync_seen || phase == ReplicaPhase::kFullSync;
      if (!replica.Alive()) {
        End(results::kTerminationReplicaDisconnect, "the replica exited during its full sync");
        return false;
      }
      if (!Healthy(master, load)) return false;
      if (auto expired = ExpiredSyncWait(info, full_sync_seen, elapsed, deadlines);
          !expired.empty()) {
        Failed(expired);
        return false;
      }
      if (!core::SleepUnlessInterrupted(kSyncPoll)) return false;
    }
    sync_end_ = Clock::now();
    out_->sync_duration_ms = static_cast<double>(
        std::chrono::duration_cast<std::chrono::milliseconds>(sync_end_ - sync_start_).count());
    core::Notef("[{}] full sync done in {} ms; {} s of load follow", label_, out_->sync_duration_ms,
                o_.test_time.count());
    return true;
  }

  // Once the load has stopped: polls DBSIZE of both until the replica holds as many keys as its
  // master, and says how long that took, or what each held when kCatchUpTimeout passed. A
  // replica that lags only says so: the case's figures stand.
  void WaitForCatchUp(engines::RunningEngine& master, engines::RunningEngine& replica) {
    const auto start = Clock::now();
    for (;;) {
      const KeyCounts keys{.master = KeyCount(master), .replica = KeyCount(replica)};
      const auto waited = Clock::now() - start;
      if (CaughtUp(keys)) {
        core::Notef("[{}] replica caught up: {} keys on both, {} ms after the load's end", label_,
                    keys.master,
                    std::chrono::duration_cast<std::chrono::milliseconds>(waited).count());
        return;
      }
      if (!replica.Alive() || !master.Alive()) {
        core::Notef("[{}] no catch-up: the {} exited", label_,
                    replica.Alive() ? "master" : "replica");
        return;
      }
      if (waited >= kCatchUpTimeout) {
        core::Notef("[{}] {}", label_, CatchUpExpired(keys, kCatchUpTimeout));
        return;
      }
      if (!core::SleepUnlessInterrupted(kSyncPoll)) return;
    }
  }

  static int64_t KeyCount(const engines::RunningEngine& engine) {
    auto reply = Ask(engine, {"DBSIZE"});
    return reply && reply->type == protocol::ReplyType::kInteger ? reply->integer : -1;
  }

  // `load` may be null (none running yet).
  bool Healthy(engines::RunningEngine& master, BackgroundLoad* load) {
    if (!master.Alive()) {
      Failed("the master exited: " + master.LogTail());
      return false;
    }
    if (load && !load->Alive()) {
      Failed("the load generator ended early");
      return false;
    }
    return true;
  }

  // The test time under load, INFO replication of the master every 2 s: a replica that drops
  // ends the case. The built-in load, started before the sync, runs until the test time's last
  // whole second after the sync is over (SplitAtSync); dfly_bench for its own test time.
  void Watch(engines::RunningEngine& master, engines::RunningEngine& replica,
             BackgroundLoad& load) {
    const auto end =
        dfly_bench_
            ? Clock::now() + o_.test_time
            : load_start_ +
                  std::chrono::seconds(static_cast<int64_t>(std::ceil(SyncEndOnLoadAxis()))) +
                  o_.test_time + kLastSecondMargin;
    for (auto now = Clock::now(); now < end; now = Clock::now()) {
      const auto step = std::min<Clock::duration>(kWatchPoll, end - now);
      if (!core::SleepUnlessInterrupted(
              std::chrono::duration_cast<std::chrono::milliseconds>(step))) {
        return;
      }
      // dfly_bench stops by itself at the end of its test time, maybe just before we look.
      const bool near_end = Clock::now() + std::chrono::seconds(1) >= end;
      if (!Healthy(master, near_end && dfly_bench_ ? nullptr : &load)) return;
      const auto replicas = ConnectedReplicas(InfoReplication(master));
      if (!replica.Alive() || (replicas && *replicas == 0)) {
        End(results::kTerminationReplicaDisconnect, "the master lost its replica");
        return;
      }
    }
    End(results::kTerminationTimeout);
  }

  void Collect(BackgroundLoad& load) {
    // dfly_bench writes its report as it exits on its own: give it the time to.
    if (dfly_bench_) {
      const auto deadline = Clock::now() + kDflyBenchExitGrace;
      while (load.Alive() && Clock::now() < deadline) {
        if (!core::SleepUnlessInterrupted(std::chrono::milliseconds(200))) break;
      }
      if (load.Alive() && !core::InterruptRequested()) {
        core::Notef("[{}] dfly_bench still running {} s after its test time; stopping it", label_,
                    kDflyBenchExitGrace.count());
      }
    }
    auto outcome = load.Finish(s_.raw_dir / (stem_ + "-load.json"));
    if (!outcome) {
      Failed("load: " + outcome.error().message);
      return;
    }
    SplitSeries split = SplitAtSync(outcome->series, SyncEndOnLoadAxis(),
                                    static_cast<size_t>(o_.test_time.count()));
    out_->series = std::move(split.sustained);
    out_->sync_series = std::move(split.sync_window);
    // A case that ran to its end with its requests failing measured nothing: it fails.
    const std::string failure =
        results::TrialFailure({.ops = outcome->ops, .errors = outcome->errors}, o_.max_error_pct);
    if (!failure.empty() && out_->termination_reason == results::kTerminationTimeout) {
      out_->termination_reason.clear();
      Failed("load: " + failure);
    }
  }

  // When the replica reported stable sync, in seconds since the load started: 0 for dfly_bench
  // (started after it), infinity when the sync never ended.
  double SyncEndOnLoadAxis() const {
    if (dfly_bench_) return 0;
    if (sync_end_ == Clock::time_point{}) return std::numeric_limits<double>::infinity();
    return std::chrono::duration<double>(sync_end_ - load_start_).count();
  }

  const ReplicationCaseSetting& s_;
  const ReplicationOptions& o_;
  const ReplicationCaseSpec& c_;
  results::ReplicationCase* out_;
  std::string label_;  // "redis qps=1000"
  std::string stem_;   // "redis-qps-1000"
  Clock::time_point sync_start_;
  Clock::time_point sync_end_;  // unset until the sync is over
  Clock::time_point load_start_;
  const bool dfly_bench_;
  // The replica's turn records here: a case's row is its master's; a replica that would not
  // start fails the case with this error.
  results::EngineRecord replica_record_;
};

}  // namespace

bool RunReplicationCase(const ReplicationCaseSetting& s, const ReplicationCaseSpec& c,
                        results::ReplicationCase* out) {
  return CaseRun(s, c, out).Run();
}

}  // namespace dfbench::scenarios
