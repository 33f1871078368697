// How the `dfbench loadgen` tests run a program and read its report: one home for what each of
// their files would otherwise write again. LOADGEN_BINARY is the dfbench under test.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/files.h"
#include "core/subprocess.h"

namespace dfbench::testing {

// `args` run to their end within two minutes: exit status, stdout and stderr.
inline core::CapturedOutput Capture(const std::vector<std::string>& args) {
  auto r = core::RunCapture(args, std::chrono::seconds(120));
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : core::CapturedOutput{};
}

// `dfbench loadgen args...`.
inline core::CapturedOutput RunLoadgen(std::vector<std::string> args) {
  args.insert(args.begin(), {LOADGEN_BINARY, "loadgen"});
  return Capture(args);
}

// A JSON report with its keys in the file's order (memtier's sections have one); discarded
// (is_discarded()) when it does not parse.
inline nlohmann::ordered_json ReadJsonInOrder(const std::filesystem::path& path) {
  return nlohmann::ordered_json::parse(core::ReadFile(path).value_or(""), nullptr,
                                       /*allow_exceptions=*/false);
}

}  // namespace dfbench::testing
