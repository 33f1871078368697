#include "support/scripted_driver.h"

#include <string>

#include "core/files.h"
#include "protocol/blocking_client.h"

namespace dfbench::testing {
namespace {

constexpr size_t kSetsPerRoundTrip = 100;

// `ops` SETs to `target`, answered one by one.
core::Status SendSets(const drivers::Target& target, uint64_t ops) {
  auto client =
      protocol::BlockingClient::Connect(target.address, target.port, std::chrono::seconds(5));
  if (!client) return tl::unexpected(client.error());
  for (uint64_t sent = 0; sent < ops;) {
    std::vector<std::vector<std::string>> batch;
    for (; sent < ops && batch.size() < kSetsPerRoundTrip; ++sent) {
      batch.push_back({"SET", target.key_namespace + "scripted:" + std::to_string(sent), "v"});
    }
    auto replies = client->Pipeline(batch);
    if (!replies) return tl::unexpected(replies.error());
  }
  return core::Ok();
}

}  // namespace

core::Result<results::TrialResult> ScriptedDriver::Run(hosts::Host&, const drivers::Target& target,
                                                       const core::Load&, const core::Pass&,
                                                       const std::vector<int>&,
                                                       const std::filesystem::path& raw_report) {
  if (runs_ >= script_.size()) {
    return core::Fail(core::ErrorKind::kFailure,
                      "the script has no trial " + std::to_string(runs_ + 1));
  }
  const ScriptedTrial& trial = script_[runs_++];
  if (auto st = SendSets(target, trial.sent.value_or(trial.result.ops)); !st)
    return tl::unexpected(st.error());
  if (auto st = core::WriteFileAtomic(raw_report, "{\"scripted\": true}\n"); !st) {
    return tl::unexpected(st.error());
  }
  if (trial.error) return tl::unexpected(*trial.error);
  return trial.result;
}

}  // namespace dfbench::testing
