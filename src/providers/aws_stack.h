// One setup's CloudFormation stack: created exactly once whatever the network does to the
// CreateStack call, found again by its name and tag, deleted and waited for.
//
// Before CreateStack the setup records the stack's name and the request's ClientRequestToken,
// so that a command killed mid-call still knows a stack may exist. A retried CreateStack carries
// the same token (AWS answers it with the same stack); whatever the call ends with — a lost
// reply, a 5xx, a time-out, AlreadyExistsException — DescribeStacks by name then decides what
// exists, and the setup records that. A stack is this setup's when its `dfbench:setup` tag says
// so; one made with another SSH key (`dfbench:key`) is never adopted, since nobody could log in.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aws/client.h"
#include "aws/cloudformation.h"
#include "core/clock.h"
#include "core/error.h"
#include "state/state.h"

namespace dfbench::providers {

// The tags dfbench puts on a stack (and CloudFormation on every resource in it).
inline constexpr char kSetupTag[] = "dfbench:setup";
inline constexpr char kOwnerTag[] = "dfbench:owner";  // the caller's ARN
inline constexpr char kKeyTag[] = "dfbench:key";      // the setup's public key, hashed

// A client of AWS in `region` with the credentials of the AWS CLI's chain. One HTTP exchange
// may take DFBENCH_AWS_HTTP_TIMEOUT (a duration, default 30s) before it is retried.
core::Result<aws::Client> AwsClient(const std::string& region);

struct StackRequest {
  std::string name;  // "dfbench-<id>"
  std::string template_body;
  std::vector<std::pair<std::string, std::string>> parameters;  // SshCidr
  std::string owner_arn;
  std::string key_tag;
  std::chrono::seconds timeout{1800};       // until CREATE_COMPLETE
  core::Clock* clock = &core::RealClock();  // times the waits (never null)
};

// The ClientRequestToken of a setup's CreateStack: the same for every try of one setup, another
// for a setup of the same id made again later ("dfbench-<id>-<created_at digits>", at most 128).
std::string CreateToken(const state::SetupState& s);

// The stack `name` when AWS has it (not deleted) and it is `setup_id`'s; nullopt when AWS has no
// such stack; kUsage when a stack of that name is not tagged as this setup's.
core::Result<std::optional<aws::Stack>> FindSetupStack(const aws::Client& client,
                                                       const std::string& name,
                                                       const std::string& setup_id);

// Creates the stack (or takes over one this setup created before: complete, or still being
// created) and waits until it is complete. The stack's id is saved in `s` as soon as it is
// known; a stack that fails is deleted (OnFailure=DELETE, else here) and forgotten.
core::Result<aws::Stack> CreateSetupStack(const aws::Client& client, state::SetupState* s,
                                          const StackRequest& request);

// Deletes the stack and waits (timed by `clock`) until it is gone. kEnvironment when it will not
// go.
core::Status DeleteAndWait(const aws::Client& client, const std::string& stack,
                           core::Clock& clock = core::RealClock());

}  // namespace dfbench::providers
