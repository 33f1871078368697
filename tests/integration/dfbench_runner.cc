#include "dfbench_runner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/files.h"

namespace dfbench::testing {

DfbenchRunner::DfbenchRunner(const std::string& name) : home_("it-" + name) {}

std::vector<std::string> DfbenchRunner::Argv(const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {"env", "DFBENCH_HOME=" + home().string(), DFBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

CliResult DfbenchRunner::Run(const std::vector<std::string>& args,
                             std::chrono::milliseconds timeout) const {
  auto r = core::RunCapture(Argv(args), timeout);
  if (!r) return {-1, "", r.error().message};
  return {r->status.signal ? 128 + r->status.signal : r->status.code, r->out, r->err};
}

core::Process DfbenchRunner::Start(const std::vector<std::string>& args) const {
  auto p = core::Spawn({.argv = Argv(args),
                        .stdout_path = (home_ / "bg.stdout").string(),
                        .stderr_path = (home_ / "bg.stderr").string()});
  EXPECT_TRUE(p) << (p ? "" : p.error().message);
  return p ? std::move(*p) : core::Process();
}

nlohmann::json DfbenchRunner::State(const std::string& id) const {
  auto text = core::ReadFile(SetupDir(id) / "state.json");
  if (!text) return nullptr;
  return nlohmann::json::parse(*text, nullptr, false);
}

void EndSuiteSetup(DfbenchRunner*& dfb, const std::string& id) {
  dfb->Run({"destroy", "--id", id});
  EXPECT_TRUE(ProcessesMatching(dfb->home().string()).empty());
  delete dfb;
  dfb = nullptr;
}

int CountLines(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += !line.empty();
  return n;
}

}  // namespace dfbench::testing
