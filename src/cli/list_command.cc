#include <cstdio>

#include "cli/commands.h"
#include "core/table.h"
#include "core/time_format.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

int RunList(bool all) {
  core::Table table(
      {"ID", "STATUS", "PROVIDER", "ENGINES", "RUNS", "AGE"},
      {core::Table::Align::kLeft, core::Table::Align::kLeft, core::Table::Align::kLeft,
       core::Table::Align::kLeft, core::Table::Align::kRight, core::Table::Align::kRight});
  for (const auto& s : state::ListSetups()) {
    if (!all && s.status == state::kStatusDestroyed) continue;
    std::string engines;
    for (const auto& e : s.engines) {
      if (e.status == "installed") engines += (engines.empty() ? "" : ",") + e.name;
    }
    auto created = core::ParseIso8601(s.created_at);
    std::string age = created == core::SystemTime{}
                          ? "?"
                          : core::FormatAge(std::chrono::duration_cast<std::chrono::seconds>(
                                std::chrono::system_clock::now() - created));
    table.AddRow({s.id, s.status, s.provider, engines.empty() ? "-" : engines,
                  std::to_string(s.benchmarks.size()), age});
  }
  if (table.empty()) {
    std::fprintf(stderr, "dfbench: no setups%s under %s\n", all ? "" : " (try --all)",
                 state::RunsDir().c_str());
    return 0;
  }
  std::string out = table.Render();
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

void AddList(CLI::App* sub, Action* action) {
  auto all = std::make_shared<bool>(false);
  AddBoolFlag(sub, "--all", all.get(), "Include destroyed setups");
  SetExamples(sub, "  dfbench list\n  dfbench list --all\n");
  sub->callback([all, action] { *action = [all] { return RunList(*all); }; });
}

}  // namespace dfbench::cli
