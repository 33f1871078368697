#include "cli/run_memory/run_memory_flags.h"

#include <chrono>

#include "cli/flag_ranges.h"
#include "cli/load_flags.h"
#include "core/units.h"

namespace dfbench::cli {
namespace {

std::chrono::seconds MemorySeconds(const std::string& text, const std::string& flag) {
  return std::chrono::duration_cast<std::chrono::seconds>(
      OrExitWithContext(flag, core::ParseDuration(text)));
}

// The options scenarios::CheckMemoryOptions names, by the flag AddRunMemoryFlags registers for
// each.
constexpr FlagOfOption kRunMemoryFlagOfOption[] = {{"keys", "--keys"},
                                                   {"data_size", "--value-size"},
                                                   {"trials", "--trials"},
                                                   {"test_time", "--test-time"},
                                                   {"snapshot_delay", "--snapshot-delay"},
                                                   {"update_rate", "--update-rate"}};

}  // namespace

scenarios::MemoryOptions ToRunMemoryOptions(const RunMemoryFlags& f) {
  scenarios::MemoryOptions o;
  o.engines = ParseEngines(f.target.engines);
  o.keys = OrExitWithContext("--keys", core::ParseCount(f.keys));
  o.snapshot =
      f.snapshot == "none" ? scenarios::SnapshotMode::kNone : scenarios::SnapshotMode::kBgsave;
  o.snapshot_dir = f.snapshot_dir;
  o.snapshot_delay = MemorySeconds(f.snapshot_delay, "--snapshot-delay");
  o.snapshot_timeout = MemorySeconds(f.snapshot_timeout, "--snapshot-timeout");
  o.update_rate =
      static_cast<double>(OrExitWithContext("--update-rate", core::ParseCount(f.update_rate)));
  o.test_time = MemorySeconds(f.test_time, "--test-time");
  o.load = f.load;
  o.trials = f.trials;
  o.max_error_pct = f.max_error_pct;
  o.cooldown = ToCooldown(f.cooldown);
  o.tuning = ToTuning(f.tuning);
  OrExitNamingFlags(scenarios::CheckMemoryOptions(o), kRunMemoryFlagOfOption);
  return o;
}

void AddRunMemoryFlags(CLI::App* sub, RunMemoryFlags* f) {
  using enum NumberKind;
  AddRangedOption(sub, "--keys", &f->keys, kCount, "Keys to populate (e.g. 500k, 5M)");
  AddChoiceFlag(sub, "--snapshot", &f->snapshot, {"bgsave", "none"},
                "bgsave: a BGSAVE under the update traffic (memcached: none); none: no snapshot");
  sub->add_option("--snapshot-dir", f->snapshot_dir,
                  "Existing directory on the server host for the snapshot files (default: one "
                  "per engine and run in dfbench's work directory); removed afterwards");
  AddRangedOption(sub, "--snapshot-delay", &f->snapshot_delay, kDuration,
                  "Update traffic before the BGSAVE (shorter than --test-time)");
  AddRangedOption(sub, "--snapshot-timeout", &f->snapshot_timeout, kDuration,
                  "How long a BGSAVE may run before the trial fails as stuck (e.g. "
                  "30m); 0: 2m plus keys x value size at 4 MiB/s");
  AddRangedOption(sub, "--update-rate", &f->update_rate, kCount,
                  "Update requests per second in all (open loop, e.g. 20k); 0: closed loop");
  AddRangedOption(sub, "--test-time", &f->test_time, kDuration,
                  "How long the update traffic runs (e.g. 60s)");
  AddRatioFlag(sub, "--memtier-ratio,--ratio", &f->load.ratio,
               "SET:GET ratio of the traffic over the populated keys");
  AddLoadFlags(sub, &f->load, LoadFlagsOf::kRunMemory);
  AddMaxErrorPctFlag(sub, &f->max_error_pct);
  AddTurnFlags(sub, &f->trials, &f->cooldown, &f->output, &f->tuning, Topologies::kOneProcess);
}

}  // namespace dfbench::cli
