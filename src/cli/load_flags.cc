#include "cli/load_flags.h"

#include <array>
#include <string>

#include "cli/flag_ranges.h"

namespace dfbench::cli {
namespace {

struct Spelling {
  const char* names;  // CLI11's "--long,--alias"; nullptr: the command has no such flag
  const char* help;
};

// A command's flags: the ranged settings in kRangedLoadSettings' order, then the seed.
struct CommandSpelling {
  std::array<Spelling, core::kRangedLoadSettings.size()> ranged;
  Spelling seed;
};

const CommandSpelling& SpellingOf(LoadFlagsOf command) {
  static const std::array<CommandSpelling, 4> spellings = {{
      {.ranged = {{{"--memtier-threads", "Load generator threads"},
                   {"--memtier-clients", "Connections per thread"},
                   {"--memtier-pipeline", "Requests in flight per connection"},
                   {"--memtier-data-size", "Value size in bytes"}}},
       .seed = {"--distinct-client-seed", "Give each connection its own random seed"}},
      {.ranged = {{{"--memtier-threads", "Load generator threads"},
                   {"--memtier-clients", "Connections per thread"},
                   {"--memtier-pipeline", "Requests in flight per connection"},
                   {"--memtier-data-size", "Bytes filled into __data__"}}},
       .seed = {"--distinct-client-seed",
                "Each connection gets its own random seed (default on; "
                "--distinct-client-seed=false: all share one)"}},
      {.ranged = {{{"--dfly-bench-threads",
                    "dfly_bench --proactor_threads; connections = threads x conns"},
                   {"--dfly-bench-conns", "dfly_bench -c: connections per thread"},
                   {"--dfly-bench-pipeline",
                    "dfly_bench --pipeline: pending requests per connection"},
                   {"--dfly-bench-data-size", "dfly_bench -d: bytes of __data__"}}},
       .seed = {nullptr, nullptr}},
      {.ranged = {{{"--memtier-threads,--threads", "Load generator threads"},
                   {"--memtier-clients,--clients", "Connections per thread"},
                   {"--memtier-pipeline,--pipeline", "Requests in flight per connection"},
                   {"--value-size", "Value size in bytes"}}},
       .seed = {nullptr, nullptr}},
  }};
  return spellings.at(static_cast<size_t>(command));
}

}  // namespace

void AddLoadFlags(CLI::App* sub, core::Load* load, LoadFlagsOf command) {
  const CommandSpelling& spelling = SpellingOf(command);
  for (size_t i = 0; i < core::kRangedLoadSettings.size(); ++i) {
    AddRangedOption(sub, spelling.ranged.at(i).names, &(load->*core::kRangedLoadSettings.at(i)),
                    NumberKind::kInteger, spelling.ranged.at(i).help);
  }
  if (spelling.seed.names != nullptr) {
    AddBoolFlag(sub, spelling.seed.names, &load->distinct_client_seed, spelling.seed.help);
  }
}

CLI::Option* AddRatioFlag(CLI::App* sub, const std::string& names, core::Ratio* ratio,
                          const std::string& help) {
  return sub
      ->add_option_function<std::string>(
          names, [ratio](const std::string& text) { *ratio = OrExit(core::ParseRatio(text)); },
          help)
      ->default_str(ratio->ToString());
}

}  // namespace dfbench::cli
