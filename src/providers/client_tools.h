// External load generators on a remote client host: memtier_benchmark and dfly_bench are used
// where they already are (on PATH or in ~/.local/bin), or built there from source as the
// reference builds them: memtier_benchmark from its release tarball (autoreconf, configure,
// make), dfly_bench from a git ref of Dragonfly (helio's blaze.sh, then ninja). Build
// dependencies come from the OS packages (Debian and Ubuntu); the binary is installed under the
// SSH user's ~/.local, the sources are built in the setup's work directory. A plain setup wants
// both, as the reference's does, but goes on without one it cannot have (no network, say): the
// tool is recorded as not installed, and the run that needs it says why (MissingToolNote).
//
// Planning is pure (PlanToolBuild: what the host offers in, the exact shell steps out), so the
// command lines are tested without a network; EnsureClientTools probes the host once per tool
// and runs a plan only when the tool is missing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load_generator.h"
#include "engines/install.h"
#include "hosts/host.h"
#include "state/provider_data.h"

namespace dfbench::providers {

// The memtier_benchmark release setup builds (the newest tag of RedisLabs/memtier_benchmark).
inline constexpr const char* kMemtierRelease = "2.3.0";

// The Dragonfly ref dfly_bench is built at unless --dfly-bench-ref names another (the
// reference's default).
inline constexpr const char* kDflyBenchDefaultRef = "main";

// How much setup wants one load generator on the client.
enum class ToolNeed {
  kNone,
  kIfBuildable,  // a plain setup: found or built when the client can; else recorded as missing
  kRequired,     // asked for by name: a client where it cannot be had fails the setup
};

// The load generators setup provides on the client, beside dfbench itself.
struct ClientTools {
  ToolNeed memtier = ToolNeed::kNone;     // memtier_benchmark kMemtierRelease
  ToolNeed dfly_bench = ToolNeed::kNone;  // dfly_bench built at dfly_bench_ref
  std::string dfly_bench_ref = kDflyBenchDefaultRef;
  bool any() const { return memtier != ToolNeed::kNone || dfly_bench != ToolNeed::kNone; }
};

enum class ClientTool { kMemtier, kDflyBench };

// What the client host offers for building one tool, learned in one round trip.
struct ToolHostOffer {
  engines::OsRelease os;
  std::string arch;                           // uname -m
  std::string home;                           // the SSH user's $HOME
  bool root = false;                          // uid 0
  bool sudo = false;                          // passwordless sudo works
  bool network = false;                       // github.com answers (the sources live there)
  std::vector<std::string> missing_packages;  // build dependencies not installed (dpkg)
};

// What `host` offers for building `tool` (one round trip). kEnvironment when it reports no
// home directory.
core::Result<ToolHostOffer> ProbeToolHost(hosts::Host& host, ClientTool tool);

// One build, step by step: each step is one shell command line, run in order, stopping at the
// first that fails.
struct ToolBuildPlan {
  std::string program;  // memtier_benchmark, dfly_bench
  std::string version;  // release (memtier) or git ref (dfly_bench)
  std::string source;   // tarball URL or git repository
  std::string binary;   // where the tool lands: <home>/.local/bin/<program>
  std::vector<std::string> steps;
  std::string reason;  // not empty: it cannot be built on this host (why, and what to do)
};

// The OS packages a build of `tool` needs (Debian/Ubuntu names).
std::vector<std::string> BuildPackages(ClientTool tool);

// kUsage unless `ref` is a plain git ref (letters, digits, . _ - /, not starting with - or .).
core::Status ValidateGitRef(const std::string& ref);

// Pure: the steps that build `tool` at `version` (a memtier release, a Dragonfly git ref) on a
// host offering `offer`, in `build_dir` (a directory of the setup's work directory).
ToolBuildPlan PlanToolBuild(ClientTool tool, const std::string& version, const ToolHostOffer& offer,
                            const std::string& build_dir);

// The plan's steps as one POSIX sh script (stops at the first failing step).
std::string BuildScript(const ToolBuildPlan& plan);

// Finds or builds the requested tools on `client`, returning what to record in
// provider_data.load_generators: per tool its method ("present" | "source"), binary, version
// (the release, or dfly_bench's git ref) and source; a tool found on the host records only
// method and binary. A kIfBuildable tool that cannot be had records method "missing", version
// and reason (a line on stderr says so) and the others go on; a kRequired one fails with
// kEnvironment naming the host, the tool and what to do.
core::Result<state::LoadGenerators> EnsureClientTools(hosts::Host& client,
                                                      const ClientTools& tools);

// For a run whose load generator `tool` is not on the client: the one line saying so with
// setup's reason, when `provider_data` records it as missing; nullopt otherwise (always for the
// built-in one, which setup uploads).
std::optional<std::string> MissingToolNote(const state::ProviderData& provider_data,
                                           core::LoadGenerator tool);

}  // namespace dfbench::providers
