#include "providers/net_tune.h"

#include <cstdio>
#include <sstream>

#include "engines/engine.h"
#include "hosts/ssh_command.h"

namespace dfbench::providers {

std::string CpuMaskHex(const std::vector<int>& cpus) {
  int top = -1;
  for (int c : cpus) top = std::max(top, c);
  if (top < 0) return "0";
  std::vector<uint32_t> words(static_cast<size_t>(top / 32 + 1), 0);
  for (int c : cpus) {
    if (c >= 0) words[static_cast<size_t>(c / 32)] |= 1u << (c % 32);
  }
  std::string out;
  char group[9];
  for (size_t i = words.size(); i-- > 0;) {
    std::snprintf(group, sizeof(group), "%08x", words[i]);
    if (!out.empty()) out += ',';
    out += group;
  }
  return out;
}

const char* NetTuneScript() {
  return R"sh(nic=$1; cpus=$2; rps_mask=$3; masks=$4
[ -d "/sys/class/net/$nic" ] || { echo "no interface $nic" >&2; exit 2; }
# irqbalance would move the interrupts back.
command -v systemctl >/dev/null 2>&1 && systemctl stop irqbalance >/dev/null 2>&1
irqs=$( { ls "/sys/class/net/$nic/device/msi_irqs" 2>/dev/null
          grep -E "[[:space:]]$nic(-|$)" /proc/interrupts 2>/dev/null | cut -d: -f1 | tr -d ' '
        } | sort -un)
n=0; for c in $cpus; do n=$((n+1)); done
[ "$n" -gt 0 ] || { echo "no I/O CPUs" >&2; exit 2; }
pick() { k=$(( $1 % n )); i=0; for x in $2; do [ $i -eq $k ] && { echo "$x"; return; }; i=$((i+1)); done; }
done_irqs=0; i=0
for irq in $irqs; do
  f="/proc/irq/$irq/smp_affinity_list"
  [ -w "$f" ] || continue
  echo "$(pick $i "$cpus")" >"$f" 2>/dev/null && done_irqs=$((done_irqs+1))
  i=$((i+1))
done
rps=0
for q in /sys/class/net/$nic/queues/rx-*/rps_cpus; do
  [ -w "$q" ] && echo "$rps_mask" >"$q" 2>/dev/null && rps=$((rps+1))
done
xps=0; i=0
for q in /sys/class/net/$nic/queues/tx-*/xps_cpus; do
  [ -w "$q" ] && echo "$(pick $i "$masks")" >"$q" 2>/dev/null && xps=$((xps+1))
  i=$((i+1))
done
echo "irqs=$done_irqs rps=$rps xps=$xps"
)sh";
}

state::NetworkTuning TuneNetwork(hosts::Host& server, const results::HostFacts& facts,
                                 bool as_root) {
  const std::vector<int> io = engines::NetworkIoCpus(facts.vcpus, facts.rx_queues);
  state::NetworkTuning result{.applied = false, .interface = facts.nic, .io_cpus = io};
  if (facts.nic.empty() || io.empty()) {
    result.error = "the NIC or its receive queues are unknown on " + server.Name();
    return result;
  }
  std::string cpu_list, masks;
  for (int c : io) {
    if (!cpu_list.empty()) cpu_list += ' ';
    cpu_list += std::to_string(c);
    if (!masks.empty()) masks += ' ';
    masks += CpuMaskHex({c});
  }
  std::vector<std::string> argv = {"sh",      "-c",     NetTuneScript(), "sh",
                                   facts.nic, cpu_list, CpuMaskHex(io),  masks};
  auto r = server.Run(
      {.argv = hosts::PrivilegedArgv(as_root, argv), .timeout = std::chrono::seconds(60)});
  if (!r) {
    result.error = r.error().message;
    return result;
  }
  if (!r->status.ok()) {
    std::string why = r->err.substr(0, r->err.find('\n'));
    result.error = why.empty() ? r->status.Describe() : why;
    return result;
  }
  std::istringstream in(r->out);
  std::string word;
  int total = 0;
  while (in >> word) {
    size_t eq = word.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = word.substr(0, eq);
    const int value = std::atoi(word.c_str() + eq + 1);
    total += value;
    if (key == "irqs") result.irqs = value;
    if (key == "rps") result.rps_queues = value;
    if (key == "xps") result.xps_queues = value;
  }
  result.applied = total > 0;
  if (total == 0) result.error = "nothing on " + facts.nic + " could be steered";
  return result;
}

}  // namespace dfbench::providers
