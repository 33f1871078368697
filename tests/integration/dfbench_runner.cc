#include "dfbench_runner.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <sstream>

#include "core/files.h"
#include "support/test_data.h"
#include "support/wait_until.h"

namespace dfbench::testing {

nlohmann::json SucceededJson(const CliResult& r) {
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out);
}

DfbenchRunner::DfbenchRunner(const std::string& name) : home_("it-" + name) {}

std::vector<std::string> DfbenchRunner::Argv(const std::vector<std::string>& args) const {
  // No AWS credential lookup of a test may reach past this machine (169.254.169.254).
  std::vector<std::string> argv = {"env", "DFBENCH_HOME=" + home().string(),
                                   "AWS_EC2_METADATA_DISABLED=true", DFBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

CliResult DfbenchRunner::Run(const std::vector<std::string>& args,
                             std::chrono::milliseconds timeout) const {
  auto r = core::RunCapture(Argv(args), timeout);
  if (!r) return {-1, "", r.error().message};
  return {r->status.signal ? 128 + r->status.signal : r->status.code, r->out, r->err};
}

void DfbenchRunner::RunOk(const std::vector<std::string>& args) const {
  const CliResult r = Run(args);
  ASSERT_EQ(r.code, 0) << r.err;
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

std::vector<std::string> DfbenchRunner::CacheEntries(const std::string& engine) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e :
       std::filesystem::directory_iterator(home() / "cache" / "engines" / engine, ec)) {
    names.push_back(e.path().filename().string());
  }
  return names;
}

bool DfbenchRunner::WaitForBackgroundErr(const std::string& text,
                                         std::chrono::seconds timeout) const {
  return WaitUntil(
      [&] {
        auto err = core::ReadFile(home_ / "bg.stderr");
        return err && err->find(text) != std::string::npos;
      },
      timeout, "\"" + text + "\" on the background run's stderr");
}

std::string DfbenchRunner::BackgroundErrTail() const {
  return core::ReadTail(home_ / "bg.stderr");
}

std::filesystem::path DfbenchRunner::WaitForRunDir(
    const std::string& id, const std::string& kind,
    const std::function<bool(const std::filesystem::path& run_dir)>& ready) const {
  const std::filesystem::path runs = SetupDir(id) / kind;
  std::filesystem::path found;
  const auto waited = WaitUntil(
      [&] {
        std::error_code ec;
        for (const auto& run : std::filesystem::directory_iterator(runs, ec)) {
          if (ready(run.path())) {
            found = run.path();
            return true;
          }
        }
        return false;
      },
      std::chrono::seconds(60), "a run under " + runs.string() + " to get that far");
  if (!waited) ADD_FAILURE() << waited.message() << "\n" << BackgroundErrTail();
  return found;
}

void DfbenchRunner::Interrupt(core::Process* run, std::chrono::milliseconds timeout,
                              int signal) const {
  run->Signal(signal);
  const auto status = run->WaitFor(timeout);
  ASSERT_TRUE(status) << "still running after signal " << signal;
  EXPECT_EQ(status->code, 130) << BackgroundErrTail();
}

bool FirstEngineHas(const std::filesystem::path& run_dir, const std::string& field, size_t n) {
  nlohmann::json results = ReadJsonIfComplete(run_dir / "results.json");
  return results.is_object() && !results["engines"].empty() &&
         results["engines"][0][field].size() >= n;
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
