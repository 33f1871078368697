// `dfbench cache list|add|prune`: the engine versions installed on this machine.
#include <cstdio>
#include <set>

#include "cli/commands.h"
#include "core/format.h"
#include "core/log.h"
#include "core/standard_output.h"
#include "core/table.h"
#include "core/text.h"
#include "engines/engine_cache.h"
#include "engines/local_build.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

namespace fs = std::filesystem;

// The cache directories the engines of live (not destroyed) setups run from.
std::set<fs::path> DirsInUse() {
  std::set<fs::path> dirs;
  for (const auto& s : state::ListSetups()) {
    if (s.status == state::SetupStatus::kDestroyed) continue;
    for (const auto& e : s.engines) dirs.insert(fs::path(e.binary).parent_path());
  }
  return dirs;
}

std::string Size(uintmax_t bytes) {
  return core::Format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
}

int RunList(const std::string& engine) {
  const auto in_use = DirsInUse();
  core::Table table(
      {"ENGINE", "VERSION", "SOURCE", "CHECKSUM", "SHA256", "SIZE", "IN USE", "DIRECTORY"});
  for (const auto& e : engines::ListCache(state::EngineCacheDir())) {
    if (!engine.empty() && e.engine != engine) continue;
    const bool used = in_use.count(e.dir) > 0;
    if (!e.complete) {
      table.AddRow({e.engine, e.name, "-", "-", "-", Size(e.bytes), "no", e.dir.string()});
      continue;
    }
    const std::string sha256 = e.manifest.value("sha256", "");
    const std::string origin = engines::CachedOrigin(e.manifest);
    table.AddRow({e.engine, e.name, origin.empty() ? "-" : origin,
                  e.manifest.value("checksum", "-"), sha256.empty() ? "-" : sha256.substr(0, 12),
                  Size(e.bytes), used ? "yes" : "no", e.dir.string()});
  }
  if (table.empty()) {
    std::fprintf(stderr, "dfbench: no engines cached under %s\n", state::EngineCacheDir().c_str());
    return 0;
  }
  std::string out = table.Render();
  core::WriteStdout(out);
  return 0;
}

int RunAdd(const std::string& engine, const std::string& path, bool force) {
  const engines::EngineSpec* spec = engines::FindEngine(engine);
  if (!spec) {
    ExitWith(core::ErrorKind::kUsage,
             "cache add " + engine + ": not an engine (dragonfly, redis, valkey or memcached)");
  }
  auto added = OrExit(
      engines::AddLocalBuild(state::EngineCacheDir(), *spec, path,
                             force ? engines::OnCached::kReplace : engines::OnCached::kRefuse));
  // The label is the build's own --version text.
  const std::string label = core::Printable(added.manifest.value("label", ""));
  std::printf("added %s %s to %s (sha256 %s)\n", engine.c_str(), label.c_str(),
              added.dir.string().c_str(), added.manifest.value("sha256", "").c_str());
  core::Notef(
      "setups use it when {} is not on PATH and neither --{}_binary nor --{}_version is given; "
      "--{}_version {} picks it by name",
      spec->program, engine, engine, engine, label);
  return 0;
}

int RunPrune(const std::string& engine, bool all, bool dry_run) {
  const auto in_use = DirsInUse();
  uintmax_t freed = 0;
  int removed = 0;
  for (const auto& e : engines::ListCache(state::EngineCacheDir())) {
    if (!engine.empty() && e.engine != engine) continue;
    // Leftovers of interrupted installs always go; a version only when no setup runs it (or
    // with --all), so that pruning never breaks a setup.
    const bool unused = in_use.count(e.dir) == 0;
    if (e.complete && !(all || unused)) continue;
    if (e.complete && !unused) {
      core::Notef("{} {} is used by a setup: removing it anyway (--all)", e.engine, e.name);
    }
    std::printf("%s %s/%s (%s)\n", dry_run ? "would remove" : "removed", e.engine.c_str(),
                e.name.c_str(), Size(e.bytes).c_str());
    if (!dry_run) {
      std::error_code ec;
      fs::remove_all(e.dir, ec);
      if (ec) {
        core::Notef("cannot remove {}: {}", e.dir.string(), ec.message());
        return 5;
      }
    }
    freed += e.bytes;
    ++removed;
  }
  core::Notef("{} {} entr{} ({})", dry_run ? "would prune" : "pruned", removed,
              removed == 1 ? "y" : "ies", Size(freed));
  return 0;
}

}  // namespace

void AddCache(CLI::App* sub, Action* action) {
  auto engine = std::make_shared<std::string>();
  auto all = std::make_shared<bool>(false);
  auto dry_run = std::make_shared<bool>(false);

  CLI::App* list = sub->add_subcommand("list", "List the cached engine versions");
  list->add_option("--engine", *engine, "Only this engine's versions");
  list->callback([engine, action] { *action = [engine] { return RunList(*engine); }; });

  auto path = std::make_shared<std::string>();
  auto force = std::make_shared<bool>(false);
  CLI::App* add = sub->add_subcommand(
      "add", "Copy a build of an engine on this machine into the cache, for setups to find");
  add->add_option("engine", *engine, "dragonfly, redis, valkey or memcached")->required();
  add->add_option("path", *path, "The engine's executable (dragonfly, redis-server, ...)")
      ->required();
  AddBoolFlag(add, "--force", force.get(), "Replace a cached build of the same version");
  add->callback([engine, path, force, action] {
    *action = [engine, path, force] { return RunAdd(*engine, *path, *force); };
  });

  CLI::App* prune = sub->add_subcommand(
      "prune", "Remove cached versions no setup uses, and leftovers of interrupted installs");
  prune->add_option("--engine", *engine, "Only this engine's versions");
  AddBoolFlag(prune, "--all", all.get(), "Also remove versions that setups use");
  AddBoolFlag(prune, "--dry-run", dry_run.get(), "Say what would go, remove nothing");
  prune->callback([engine, all, dry_run, action] {
    *action = [engine, all, dry_run] { return RunPrune(*engine, *all, *dry_run); };
  });

  sub->callback([sub, action] {
    if (sub->get_subcommands().empty()) {
      *action = [] {
        ExitWith(core::ErrorKind::kUsage, "cache needs a subcommand: list, add or prune");
        return 2;
      };
    }
  });
}

}  // namespace dfbench::cli
