// Command lines for the OpenSSH client, and quoting for the remote shell. Pure functions: no
// process is started here.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dfbench::hosts {

// One argument for a POSIX shell: wrapped in single quotes, each embedded single quote written
// as '\''. The shell reads it back byte for byte, whatever it holds ($, `, ;, newlines, quotes).
std::string ShellQuote(std::string_view arg);
// argv as one command line for a POSIX shell, every argument quoted.
std::string ShellJoin(const std::vector<std::string>& argv);
// For people to read and paste: arguments made only of safe characters stay bare.
std::string ShellJoinForDisplay(const std::vector<std::string>& argv);

// How to reach one host over SSH.
struct SshEndpoint {
  std::string user;
  std::string host;  // name or address
  int port = 22;
  std::string key_path;      // private key; empty: the client's defaults
  std::string control_path;  // socket of the shared connection; empty: no sharing
  std::chrono::seconds connect_timeout{10};
  std::chrono::seconds control_persist{300};  // an idle shared connection closes after this
};

// `argv` run as root: unchanged for root, else through `sudo -n` (fails instead of prompting).
std::vector<std::string> PrivilegedArgv(bool root, std::vector<std::string> argv);

// kUsage unless user and host are plain names or addresses (nothing ssh could read as an
// option or that a shell would interpret) and the port is in 1..65535.
core::Status ValidateEndpoint(const SshEndpoint& e);

// "user@host".
std::string Destination(const SshEndpoint& e);

// ssh argv that runs `remote_argv` on the host, through the shared connection when there is
// one (started on demand). The remote login shell receives one command line in which every
// argument is quoted, so it reaches the program verbatim.
std::vector<std::string> SshCommandArgv(const SshEndpoint& e,
                                        const std::vector<std::string>& remote_argv);
// ssh argv that logs in, starts the shared connection in the background and returns (-M -N -f).
std::vector<std::string> SshMasterArgv(const SshEndpoint& e);
// ssh argv that sends `command` ("check": is it alive, "exit": close it) to the shared
// connection (-O).
std::vector<std::string> SshControlArgv(const SshEndpoint& e, const std::string& command);

// The master's pid from `ssh -O check` ("Master running (pid=N)"), or 0 when absent.
int MasterPidFromCheck(std::string_view check_stderr);
// ssh argv that asks the shared connection to start (`command` "forward") or stop ("cancel")
// forwarding 127.0.0.1:`local_port` on this machine to `address`:`port` as the host sees it.
std::vector<std::string> SshForwardArgv(const SshEndpoint& e, const std::string& command,
                                        int local_port, const std::string& address, int port);
// An interactive login for people (`dfbench ssh`): key, host-key options and port only.
std::vector<std::string> SshLoginArgv(const SshEndpoint& e);

}  // namespace dfbench::hosts
