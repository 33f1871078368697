#include "providers/client_tools.h"

#include <algorithm>

#include "core/log.h"
#include "hosts/remote_facts.h"
#include "hosts/ssh_command.h"

namespace dfbench::providers {
namespace {

// $1: the build dependencies, space-separated. What the host offers for a build.
constexpr const char* kProbeScript = R"sh(echo @@home; printf '%s\n' "$HOME"
echo @@uid; id -u
echo @@arch; uname -m
echo @@os; cat /etc/os-release 2>/dev/null
echo @@sudo; sudo -n true >/dev/null 2>&1 && echo yes
echo @@dpkg; command -v dpkg-query >/dev/null 2>&1 && echo yes
echo @@net
if command -v curl >/dev/null 2>&1; then
  curl -s -o /dev/null --connect-timeout 5 --max-time 15 https://github.com && echo yes
else
  getent hosts github.com >/dev/null 2>&1 && echo yes
fi
echo @@installed
dpkg-query -W -f='${Package} ${Status}\n' $1 2>/dev/null | sed -n 's/ install ok installed$//p'
exit 0
)sh";

// $0 log, $1 script: the build with its output in a log on the host; its tail on failure.
constexpr const char* kBuildWrapper =
    R"sh(mkdir -p "$(dirname "$0")" && sh -c "$1" >"$0" 2>&1; s=$?; [ $s -eq 0 ] || tail -n 15 "$0" >&2; exit $s)sh";

constexpr const char* kMemtierTarballs =
    "https://github.com/RedisLabs/memtier_benchmark/archive/refs/tags/";
constexpr const char* kDragonflyRepository = "https://github.com/dragonflydb/dragonfly.git";

struct ToolInfo {
  std::string program;
  std::string binary_flag;  // how a user points at a build instead
};

ToolInfo InfoOf(ClientTool tool) {
  if (tool == ClientTool::kMemtier) {
    return {"memtier_benchmark", "--memtier-binary PATH"};
  }
  return {"dfly_bench", "--dfly-bench-binary PATH"};
}

std::string Quoted(const std::vector<std::string>& argv) {
  return hosts::ShellJoinForDisplay(argv);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    if (nl > pos) out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

std::string Join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

// The last few distinct lines a failed build printed, without the shell's "+ step" traces.
std::string WhyItFailed(const std::string& log_tail) {
  std::vector<std::string> lines;
  for (const auto& line : Lines(log_tail)) {
    if (line.rfind("+ ", 0) == 0) continue;
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
  if (lines.size() > 3) lines.erase(lines.begin(), lines.end() - 3);
  return Join(lines, "; ");
}

// apt-get update and install of the missing build dependencies (none when all are there).
void AppendPackageSteps(const ToolHostOffer& offer, std::vector<std::string>* steps) {
  if (offer.missing_packages.empty()) return;
  std::vector<std::string> apt = {"env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o",
                                  "DPkg::Lock::Timeout=300"};
  auto with = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = apt;
    argv.insert(argv.end(), args.begin(), args.end());
    return Quoted(hosts::PrivilegedArgv(offer.root, std::move(argv)));
  };
  steps->push_back(with({"update", "-q"}));
  std::vector<std::string> install = {"install", "-y", "-q", "--no-install-recommends"};
  install.insert(install.end(), offer.missing_packages.begin(), offer.missing_packages.end());
  steps->push_back(with(std::move(install)));
}

// Why the host cannot get the sources or the build dependencies; "" when it can.
std::string PackageProblem(const ToolHostOffer& offer, const ToolInfo& info) {
  const std::string instead =
      "install " + info.program + " there yourself, or pass " + info.binary_flag;
  if (!offer.network) {
    return "it cannot reach github.com, where the source is: " + instead;
  }
  if (offer.missing_packages.empty()) return "";
  if (!engines::IsDebianLike(offer.os)) {
    return "it is not Debian or Ubuntu (" +
           (offer.os.pretty.empty() ? "unknown OS" : offer.os.pretty) +
           "), so its build dependencies cannot be installed: " + instead;
  }
  if (!offer.root && !offer.sudo) {
    return "installing its build dependencies (" + Join(offer.missing_packages, " ") +
           ") needs root or passwordless sudo: install them, or " + instead;
  }
  return "";
}

void PlanMemtier(const ToolHostOffer& offer, const std::string& dir, ToolBuildPlan* plan) {
  const std::string name = "memtier_benchmark-" + plan->version;
  const std::string tarball = dir + "/" + name + ".tar.gz";
  const std::string src = dir + "/" + name;
  plan->source = kMemtierTarballs + plan->version + ".tar.gz";
  AppendPackageSteps(offer, &plan->steps);
  auto in_src = [&](const std::string& command) {
    return "cd " + Quoted({src}) + " && " + command;
  };
  plan->steps.push_back(Quoted({"rm", "-rf", src, tarball}) + " && " +
                        Quoted({"mkdir", "-p", dir}));
  plan->steps.push_back(Quoted(
      {"curl", "-fsSL", "--retry", "2", "--connect-timeout", "20", "-o", tarball, plan->source}));
  plan->steps.push_back(Quoted({"tar", "-xzf", tarball, "-C", dir}));
  plan->steps.push_back(in_src("autoreconf -ivf"));
  plan->steps.push_back(in_src(Quoted({"./configure", "--prefix=" + offer.home + "/.local"})));
  plan->steps.push_back(in_src("make -j\"$(nproc)\""));
  plan->steps.push_back(in_src("make install"));
  plan->steps.push_back(Quoted({plan->binary, "--version"}));
}

void PlanDflyBench(const ToolHostOffer& offer, const std::string& dir, ToolBuildPlan* plan) {
  if (offer.arch != "x86_64" && offer.arch != "aarch64") {
    plan->reason = "Dragonfly builds on x86_64 and aarch64 only, the host is " +
                   (offer.arch.empty() ? std::string("of an unknown architecture") : offer.arch) +
                   ": pass --dfly-bench-binary PATH";
    return;
  }
  std::string label = plan->version;
  std::replace(label.begin(), label.end(), '/', '-');
  const std::string src = dir + "/dragonfly-" + label;
  const std::string& ref = plan->version;
  plan->source = std::string(kDragonflyRepository) + "@" + ref;
  AppendPackageSteps(offer, &plan->steps);
  plan->steps.push_back(Quoted({"rm", "-rf", src}) + " && " + Quoted({"mkdir", "-p", dir}));
  // A shallow clone of a branch or tag with its submodules; a commit (or a failed submodule)
  // falls back to a full clone, as the reference does.
  plan->steps.push_back(
      Quoted({"git", "clone", "--depth", "1", "--branch", ref, "--recurse-submodules",
              "--shallow-submodules", kDragonflyRepository, src}) +
      " || { " + Quoted({"rm", "-rf", src}) + " && " +
      Quoted({"git", "clone", kDragonflyRepository, src}) + " && " +
      Quoted({"git", "-C", src, "checkout", ref}) + " && " +
      Quoted({"git", "-C", src, "submodule", "update", "--init", "--recursive"}) + "; }");
  plan->steps.push_back("cd " + Quoted({src}) +
                        " && ./helio/blaze.sh -release -DWITH_AWS=OFF -DWITH_GCP=OFF");
  plan->steps.push_back("cd " + Quoted({src + "/build-opt"}) + " && ninja dfly_bench");
  plan->steps.push_back(
      Quoted({"mkdir", "-p", offer.home + "/.local/bin"}) + " && " +
      Quoted({"install", "-m", "755", src + "/build-opt/dfly_bench", plan->binary}));
}

}  // namespace

core::Result<ToolHostOffer> ProbeToolHost(hosts::Host& host, ClientTool tool) {
  auto r = host.Run({.argv = {"sh", "-c", kProbeScript, "sh", Join(BuildPackages(tool), " ")},
                     .timeout = std::chrono::seconds(60)});
  if (!r) return tl::unexpected(r.error());
  auto s = hosts::SplitSections(r->out);
  auto first = [](const std::string& text) { return text.substr(0, text.find('\n')); };
  ToolHostOffer offer;
  offer.os = engines::ParseOsRelease(s["os"]);
  offer.arch = first(s["arch"]);
  offer.home = first(s["home"]);
  offer.root = first(s["uid"]) == "0";
  offer.sudo = first(s["sudo"]) == "yes";
  offer.network = first(s["net"]) == "yes";
  const std::vector<std::string> installed = Lines(s["installed"]);
  // Without dpkg nothing is known to be installed: every dependency counts as missing.
  for (const auto& p : BuildPackages(tool)) {
    if (std::find(installed.begin(), installed.end(), p) == installed.end()) {
      offer.missing_packages.push_back(p);
    }
  }
  if (offer.home.empty() || offer.home.front() != '/') {
    return core::Fail(core::ErrorKind::kEnvironment, host.Name() + " reports no home directory");
  }
  return offer;
}

namespace {

// A tool setup may go without: why it could not be had.
state::LoadGeneratorRecord Missing(const std::string& version, const std::string& reason) {
  return {.method = "missing", .version = version, .reason = reason};
}

core::Result<state::LoadGeneratorRecord> EnsureTool(hosts::Host& host, ClientTool tool,
                                                    const std::string& version, ToolNeed need) {
  const ToolInfo info = InfoOf(tool);
  if (auto found = host.Which(info.program)) {
    core::Notef("{}: {} found at {}", host.Name(), info.program, *found);
    return state::LoadGeneratorRecord{.method = "present", .binary = *found};
  }
  auto work = host.WorkDir();
  if (!work) return tl::unexpected(work.error());
  auto offer = ProbeToolHost(host, tool);
  if (!offer) return tl::unexpected(offer.error());
  const std::string dir = *work + "/build";
  const ToolBuildPlan plan = PlanToolBuild(tool, version, *offer, dir);
  if (!plan.reason.empty()) {
    if (need == ToolNeed::kIfBuildable) {
      core::Notef("{}: {} not installed: {}", host.Name(), info.program, plan.reason);
      return Missing(version, plan.reason);
    }
    return core::Fail(core::ErrorKind::kEnvironment,
                      info.program + " is not installed on " + host.Name() +
                          " and cannot be built there: " + plan.reason);
  }
  const std::string log = dir + "/" + info.program + ".log";
  core::Notef("{}: building {} {} from {} (log: {})", host.Name(), info.program, version,
              plan.source, log);
  auto r = host.Run({.argv = {"sh", "-c", kBuildWrapper, log, BuildScript(plan)},
                     .timeout = std::chrono::minutes(tool == ClientTool::kMemtier ? 30 : 120)});
  if (!r) return tl::unexpected(core::WithContext(r.error(), "building " + info.program));
  if (!r->status.ok()) {
    const std::string failure = r->status.Describe() + "; log: " + log +
                                "): " + WhyItFailed(r->err) +
                                " — install it there yourself, or pass " + info.binary_flag;
    if (need == ToolNeed::kIfBuildable) {
      const std::string why = "its build failed (" + failure;
      core::Notef("{}: {} not installed: {}", host.Name(), info.program, why);
      return Missing(version, why);
    }
    return core::Fail(
        core::ErrorKind::kEnvironment,
        "building " + info.program + " " + version + " on " + host.Name() + " failed (" + failure);
  }
  return state::LoadGeneratorRecord{
      .method = "source", .binary = plan.binary, .version = version, .source = plan.source};
}

}  // namespace

std::vector<std::string> BuildPackages(ClientTool tool) {
  if (tool == ClientTool::kMemtier) {
    return {"build-essential", "autoconf",   "automake", "libevent-dev",   "pkg-config",
            "zlib1g-dev",      "libssl-dev", "curl",     "ca-certificates"};
  }
  return {"git",
          "ca-certificates",
          "cmake",
          "ninja-build",
          "g++",
          "bison",
          "autoconf-archive",
          "libtool",
          "automake",
          "pkg-config",
          "libunwind-dev",
          "libboost-context-dev",
          "libboost-fiber-dev",
          "libssl-dev",
          "zlib1g-dev",
          "libxml2-dev",
          "libzstd-dev"};
}

core::Status ValidateGitRef(const std::string& ref) {
  const bool plain =
      !ref.empty() && ref.front() != '-' && ref.front() != '.' &&
      ref.find("..") == std::string::npos && std::all_of(ref.begin(), ref.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-' || c == '/';
      });
  if (plain) return core::Ok();
  return core::Fail(core::ErrorKind::kUsage,
                    "--dfly-bench-ref \"" + ref +
                        "\": not a git branch, tag or commit (letters, digits, . _ - /)");
}

ToolBuildPlan PlanToolBuild(ClientTool tool, const std::string& version, const ToolHostOffer& offer,
                            const std::string& build_dir) {
  const ToolInfo info = InfoOf(tool);
  ToolBuildPlan plan{.program = info.program,
                     .version = version,
                     .binary = offer.home + "/.local/bin/" + info.program};
  plan.reason = PackageProblem(offer, info);
  if (!plan.reason.empty()) return plan;
  if (tool == ClientTool::kMemtier) {
    PlanMemtier(offer, build_dir, &plan);
  } else {
    PlanDflyBench(offer, build_dir, &plan);
  }
  if (!plan.reason.empty()) plan.steps.clear();
  return plan;
}

std::string BuildScript(const ToolBuildPlan& plan) {
  std::string script = "set -ex\n";
  for (const auto& step : plan.steps) script += step + "\n";
  return script;
}

core::Result<state::LoadGenerators> EnsureClientTools(hosts::Host& client,
                                                      const ClientTools& tools) {
  state::LoadGenerators record;
  if (tools.dfly_bench != ToolNeed::kNone) {
    if (auto st = ValidateGitRef(tools.dfly_bench_ref); !st) return tl::unexpected(st.error());
  }
  if (tools.memtier != ToolNeed::kNone) {
    auto done = EnsureTool(client, ClientTool::kMemtier, kMemtierRelease, tools.memtier);
    if (!done) return tl::unexpected(done.error());
    record.memtier = *done;
  }
  if (tools.dfly_bench != ToolNeed::kNone) {
    auto done = EnsureTool(client, ClientTool::kDflyBench, tools.dfly_bench_ref, tools.dfly_bench);
    if (!done) return tl::unexpected(done.error());
    record.dfly_bench = *done;
  }
  return record;
}

std::optional<std::string> MissingToolNote(const state::ProviderData& provider_data,
                                           core::LoadGenerator tool) {
  if (!provider_data.load_generators || tool == core::LoadGenerator::kBuiltin) return std::nullopt;
  const state::LoadGenerators& tools = *provider_data.load_generators;
  const bool memtier = tool == core::LoadGenerator::kMemtier;
  const std::optional<state::LoadGeneratorRecord>& t = memtier ? tools.memtier : tools.dfly_bench;
  if (!t || t->method != "missing") return std::nullopt;
  const ToolInfo info = InfoOf(memtier ? ClientTool::kMemtier : ClientTool::kDflyBench);
  return info.program + " is not installed on the client host: setup could not build it (" +
         (t->reason.empty() ? std::string("no reason recorded") : t->reason) + ")";
}

}  // namespace dfbench::providers
