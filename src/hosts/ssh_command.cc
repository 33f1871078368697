#include "hosts/ssh_command.h"

#include <algorithm>

namespace dfbench::hosts {
namespace {

bool SafeForDisplay(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
}

// Host names, IPv4/IPv6 addresses and user names: no option-looking or shell-special text.
bool PlainName(const std::string& s, std::string_view extra) {
  if (s.empty() || s.size() > 253 || s.front() == '-') return false;
  return std::all_of(s.begin(), s.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           extra.find(c) != std::string_view::npos;
  });
}

// Options every invocation shares: no prompts, no host-key bookkeeping (the hosts of a setup
// are reached by address and often re-created), dead connections noticed within ~15 s.
std::vector<std::string> BaseOptions(const SshEndpoint& e) {
  std::vector<std::string> o;
  if (!e.key_path.empty()) o.insert(o.end(), {"-i", e.key_path, "-o", "IdentitiesOnly=yes"});
  o.insert(o.end(), {"-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o",
                     "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o",
                     "ConnectTimeout=" + std::to_string(e.connect_timeout.count()), "-o",
                     "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"});
  if (!e.control_path.empty()) {
    o.insert(o.end(), {"-o", "ControlPath=" + e.control_path, "-o", "ControlMaster=auto", "-o",
                       "ControlPersist=" + std::to_string(e.control_persist.count())});
  }
  return o;
}

}  // namespace

std::string ShellQuote(std::string_view arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

std::string ShellJoin(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    out += ShellQuote(a);
  }
  return out;
}

std::string ShellJoinForDisplay(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    const bool bare = !a.empty() && std::all_of(a.begin(), a.end(), SafeForDisplay);
    out += bare ? a : ShellQuote(a);
  }
  return out;
}

std::vector<std::string> PrivilegedArgv(bool root, std::vector<std::string> argv) {
  if (!root) argv.insert(argv.begin(), {"sudo", "-n"});
  return argv;
}

core::Status ValidateEndpoint(const SshEndpoint& e) {
  if (!PlainName(e.host, ".-:_")) {
    return core::Fail(core::ErrorKind::kUsage,
                      "invalid host \"" + e.host + "\": use a host name or an IP address");
  }
  if (!PlainName(e.user, ".-_")) {
    return core::Fail(core::ErrorKind::kUsage,
                      "invalid SSH user \"" + e.user + "\": use letters, digits, '.', '_' or '-'");
  }
  if (e.port < 1 || e.port > 65535) {
    return core::Fail(core::ErrorKind::kUsage,
                      "invalid SSH port " + std::to_string(e.port) + " (use 1-65535)");
  }
  return core::Ok();
}

std::string Destination(const SshEndpoint& e) {
  return e.user + "@" + e.host;
}

std::vector<std::string> SshCommandArgv(const SshEndpoint& e,
                                        const std::vector<std::string>& remote_argv) {
  std::vector<std::string> argv = {"ssh", "-T"};
  auto o = BaseOptions(e);
  argv.insert(argv.end(), o.begin(), o.end());
  argv.insert(argv.end(), {"-p", std::to_string(e.port), "--", Destination(e)});
  // ssh hands the remote login shell one string: each argument quoted, so it splits back
  // into exactly remote_argv.
  argv.push_back(ShellJoin(remote_argv));
  return argv;
}

std::vector<std::string> SshMasterArgv(const SshEndpoint& e) {
  std::vector<std::string> argv = {"ssh", "-M", "-N", "-f"};
  auto o = BaseOptions(e);
  argv.insert(argv.end(), o.begin(), o.end());
  argv.insert(argv.end(), {"-p", std::to_string(e.port), "--", Destination(e)});
  return argv;
}

std::vector<std::string> SshControlArgv(const SshEndpoint& e, const std::string& command) {
  return {"ssh",   "-o", "ControlPath=" + e.control_path, "-o", "LogLevel=QUIET", "-O",
          command, "-p", std::to_string(e.port),          "--", Destination(e)};
}

int MasterPidFromCheck(std::string_view check_stderr) {
  constexpr std::string_view kMarker = "(pid=";
  const size_t at = check_stderr.find(kMarker);
  if (at == std::string_view::npos) return 0;
  int pid = 0;
  for (size_t i = at + kMarker.size(); i < check_stderr.size(); ++i) {
    const char c = check_stderr[i];
    if (c < '0' || c > '9') return c == ')' ? pid : 0;
    if (pid > 100'000'000) return 0;
    pid = pid * 10 + (c - '0');
  }
  return 0;
}

std::vector<std::string> SshForwardArgv(const SshEndpoint& e, const std::string& command,
                                        int local_port, const std::string& address, int port) {
  // An IPv6 address needs brackets inside the colon-separated forward spec.
  const std::string target = address.find(':') != std::string::npos ? "[" + address + "]" : address;
  return {"ssh",
          "-o",
          "ControlPath=" + e.control_path,
          "-o",
          "LogLevel=ERROR",
          "-O",
          command,
          "-L",
          "127.0.0.1:" + std::to_string(local_port) + ":" + target + ":" + std::to_string(port),
          "-p",
          std::to_string(e.port),
          "--",
          Destination(e)};
}

std::vector<std::string> SshLoginArgv(const SshEndpoint& e) {
  std::vector<std::string> argv = {"ssh"};
  if (!e.key_path.empty()) argv.insert(argv.end(), {"-i", e.key_path});
  argv.insert(argv.end(), {"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                           "-o", "LogLevel=ERROR"});
  if (e.port != 22) argv.insert(argv.end(), {"-p", std::to_string(e.port)});
  argv.push_back(Destination(e));
  return argv;
}

}  // namespace dfbench::hosts
