#include "hosts/ssh_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/commands.h"
#include "core/subprocess.h"
#include "providers/provider.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

struct SshCommandFlags {
  std::string id;
  std::string target = core::Role::Server().Name();  // as typed: LoginEndpoint reads it
  bool print = false;
};

int RunSsh(const SshCommandFlags& f) {
  // Read-only: no lock, so it works while a benchmark runs.
  auto s = OrExit(state::Load(f.id));
  if (s.status == state::SetupStatus::kDestroyed) {
    ExitWith(core::ErrorKind::kNotFound, "setup \"" + f.id + "\" is destroyed");
  }
  const auto argv =
      hosts::SshLoginArgv(OrExit(providers::MakeProvider(s.provider)->LoginEndpoint(s, f.target)));
  if (f.print) {
    std::printf("%s\n", hosts::ShellJoinForDisplay(argv).c_str());
    return 0;
  }
  auto ssh = core::FindOnPath("ssh");
  if (!ssh)
    ExitWith(core::ErrorKind::kEnvironment, "ssh not found on PATH (install openssh-client)");
  std::fflush(nullptr);
  std::vector<char*> cargv;
  cargv.reserve(argv.size());
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  execv(ssh->c_str(), cargv.data());
  ExitWith(core::ErrorKind::kEnvironment, "cannot run " + *ssh + ": " + std::strerror(errno));
}

}  // namespace

void AddSsh(CLI::App* sub, Action* action) {
  auto f = std::make_shared<SshCommandFlags>();
  sub->add_option("--id", f->id, "Setup whose host to log in to")->required();
  sub->add_option("--target", f->target, "server, client or replica-N (0-based)")
      ->capture_default_str();
  AddBoolFlag(sub, "--print", &f->print, "Print the ssh command instead of running it");
  sub->callback([f, action] { *action = [f] { return RunSsh(*f); }; });
}

}  // namespace dfbench::cli
