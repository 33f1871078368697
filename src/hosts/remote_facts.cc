#include "hosts/remote_facts.h"

#include <sstream>

#include "core/text.h"

namespace dfbench::hosts {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string Unquote(std::string s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return s.substr(1, s.size() - 2);
  }
  return s;
}

int ToInt(const std::string& s) {
  try {
    return std::stoi(s);
  } catch (...) {
    return 0;
  }
}

}  // namespace

const char* FactsScript() {
  return R"sh(echo @@uname; uname -n; uname -r; uname -m
echo @@nproc; nproc 2>/dev/null || getconf _NPROCESSORS_ONLN
echo @@cpuinfo; grep -m1 -E '^(model name|Hardware|cpu model|Processor)[[:space:]]*:' /proc/cpuinfo 2>/dev/null
echo @@lscpu; lscpu 2>/dev/null | grep -m1 '^Model name'
echo @@meminfo; grep -m1 '^MemTotal' /proc/meminfo 2>/dev/null
echo @@os; cat /etc/os-release 2>/dev/null
echo @@addr; ip -o addr show 2>/dev/null
echo @@route; ip -o route show default 2>/dev/null
echo @@queues
for d in /sys/class/net/*; do
  [ -d "$d/queues" ] || continue
  n=0
  for q in "$d"/queues/rx-*; do [ -e "$q" ] && n=$((n+1)); done
  echo "${d##*/} $n"
done
exit 0
)sh";
}

std::map<std::string, std::string> SplitSections(const std::string& text) {
  std::map<std::string, std::string> sections;
  std::string* current = nullptr;
  for (const auto& line : Lines(text)) {
    if (line.rfind("@@", 0) == 0) {
      current = &sections[core::Trim(line.substr(2))];
      continue;
    }
    if (current) *current += line + "\n";
  }
  return sections;
}

std::string FieldOf(const std::string& text, const std::string& key, char sep) {
  for (const auto& line : Lines(text)) {
    size_t pos = line.find(sep);
    if (pos == std::string::npos) continue;
    if (core::Trim(line.substr(0, pos)) == key) return core::Trim(line.substr(pos + 1));
  }
  return "";
}

std::string CpuModelOf(const std::string& cpuinfo) {
  // x86 names the model; ARM kernels often only name the board or nothing at all.
  for (const char* key : {"model name", "Hardware", "cpu model", "Processor"}) {
    std::string v = FieldOf(cpuinfo, key, ':');
    if (!v.empty()) return v;
  }
  return "";
}

std::string OsReleaseField(const std::string& os_release, const std::string& key) {
  return Unquote(FieldOf(os_release, key, '='));
}

uint64_t MemTotalBytes(const std::string& meminfo) {
  std::string v = FieldOf(meminfo, "MemTotal", ':');  // "16318412 kB"
  try {
    return v.empty() ? 0 : static_cast<uint64_t>(std::stoull(v)) * 1024;
  } catch (...) {
    return 0;
  }
}

std::vector<NicQueues> ParseNicQueues(const std::string& listing) {
  std::vector<NicQueues> nics;
  for (const auto& line : Lines(listing)) {
    auto w = core::SplitWords(line);
    if (w.size() != 2 || w[1].find_first_not_of("0123456789") != std::string::npos) continue;
    nics.push_back({w[0], ToInt(w[1])});
  }
  return nics;
}

std::string InterfaceWithAddress(const std::string& ip_addr_output, const std::string& address) {
  if (address.empty()) return "";
  for (const auto& line : Lines(ip_addr_output)) {
    // "2: eth0@if5    inet 10.200.0.2/24 brd 10.200.0.255 scope global eth0\ ..."
    auto w = core::SplitWords(line);
    if (w.size() < 4 || (w[2] != "inet" && w[2] != "inet6")) continue;
    if (w[3].substr(0, w[3].find('/')) != address) continue;
    std::string name = w[1];
    if (!name.empty() && name.back() == ':') name.pop_back();
    return name.substr(0, name.find('@'));
  }
  return "";
}

std::string DefaultRouteInterface(const std::string& ip_route_output) {
  for (const auto& line : Lines(ip_route_output)) {
    auto w = core::SplitWords(line);
    for (size_t i = 0; i + 1 < w.size(); ++i) {
      if (w[i] == "dev") return w[i + 1];
    }
  }
  return "";
}

core::HostFacts ParseFacts(const std::string& script_output, const std::string& engine_address) {
  core::HostFacts f;
  auto s = SplitSections(script_output);
  auto uname = Lines(s["uname"]);
  if (uname.size() >= 3) {
    f.name = core::Trim(uname[0]);
    f.kernel = core::Trim(uname[1]);
    f.arch = core::Trim(uname[2]);
  }
  f.vcpus = ToInt(core::Trim(s["nproc"]));
  f.cpu_model = CpuModelOf(s["cpuinfo"]);
  if (f.cpu_model.empty()) f.cpu_model = FieldOf(s["lscpu"], "Model name", ':');
  if (f.cpu_model.empty()) f.cpu_model = "unknown";
  f.memory_bytes = MemTotalBytes(s["meminfo"]);
  f.os = OsReleaseField(s["os"], "PRETTY_NAME");

  const auto nics = ParseNicQueues(s["queues"]);
  std::string nic = InterfaceWithAddress(s["addr"], engine_address);
  if (nic.empty()) nic = DefaultRouteInterface(s["route"]);
  if (nic.empty()) {
    for (const auto& n : nics) {
      if (n.name != "lo" && n.rx_queues > 0) {
        nic = n.name;
        break;
      }
    }
  }
  f.nic = nic;
  for (const auto& n : nics) {
    if (n.name == nic) f.rx_queues = n.rx_queues;
  }
  return f;
}

std::string CanonicalArch(const std::string& uname_m) {
  if (uname_m == "amd64" || uname_m == "x86-64") return "x86_64";
  if (uname_m == "arm64" || uname_m == "armv8") return "aarch64";
  return uname_m;
}

namespace {

// Local ports of the entries whose state is `state` ("0A": LISTEN), or of all when empty.
std::set<int> LocalPorts(const std::string& proc_net_tcp, const std::string& state) {
  std::set<int> ports;
  for (const auto& line : Lines(proc_net_tcp)) {
    // "  0: 0100007F:1F90 00000000:0000 0A ..."; the header line has no ':' in its 2nd word.
    auto w = core::SplitWords(line);
    if (w.size() < 4 || (!state.empty() && w[3] != state)) continue;
    size_t colon = w[1].rfind(':');
    if (colon == std::string::npos) continue;
    try {
      ports.insert(std::stoi(w[1].substr(colon + 1), nullptr, 16));
    } catch (...) {
    }
  }
  return ports;
}

}  // namespace

std::set<int> PortsInUse(const std::string& proc_net_tcp) {
  return LocalPorts(proc_net_tcp, "");
}

std::set<int> ListeningPorts(const std::string& proc_net_tcp) {
  return LocalPorts(proc_net_tcp, "0A");
}

int PickFreePort(const std::set<int>& used, int low, int high, uint64_t seed) {
  if (high <= low) return 0;
  const uint64_t span = static_cast<uint64_t>(high - low);
  for (uint64_t i = 0; i < span; ++i) {
    int port = low + static_cast<int>((seed + i) % span);
    if (!used.count(port)) return port;
  }
  return 0;
}

}  // namespace dfbench::hosts
