#include "drivers/tool_flags.h"

#include <algorithm>

namespace dfbench::drivers {

void AppendFlag(std::vector<std::string>& args, FlagSpelling spelling, std::string_view name,
                const std::string& value) {
  std::string flag = "--" + std::string(name);
  if (spelling == FlagSpelling::kMemtier) {
    args.insert(args.end(), {std::move(flag), value});
    return;
  }
  std::replace(flag.begin() + 2, flag.end(), '-', '_');
  args.push_back(flag + "=" + value);
}

void AppendSentFlag(std::vector<std::string>& args, FlagSpelling spelling, const core::Load& load) {
  if (!load.command.empty()) {
    AppendFlag(args, spelling, "command", load.command);
  } else {
    AppendFlag(args, spelling, "ratio", load.ratio.ToString());
  }
}

void AppendKeyRangeFlags(std::vector<std::string>& args, FlagSpelling spelling,
                         const core::Load& load) {
  if (load.key_maximum > 0) {
    AppendFlag(args, spelling, "key-minimum", std::to_string(load.key_minimum));
    AppendFlag(args, spelling, "key-maximum", std::to_string(load.key_maximum));
  }
  if (!load.key_prefix.empty()) AppendFlag(args, spelling, "key-prefix", load.key_prefix);
}

std::string MemtierKeyPattern(core::KeyPattern pattern) {
  return std::string(1, static_cast<char>(pattern));
}

core::Result<std::string> DflyBenchKeyDist(core::KeyPattern pattern) {
  switch (pattern) {
    case core::KeyPattern::kRandom:
      return std::string("U");
    case core::KeyPattern::kSequential:
      return std::string("S");
    case core::KeyPattern::kGaussian:
      return std::string("N");
    case core::KeyPattern::kZipf:
      return std::string("Z");
    case core::KeyPattern::kParallel:
      break;
  }
  return core::Fail(core::ErrorKind::kUsage, "dfly_bench has no parallel (P) key distribution");
}

}  // namespace dfbench::drivers
