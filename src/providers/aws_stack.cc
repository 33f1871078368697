#include "providers/aws_stack.h"

#include <cctype>
#include <set>

#include "aws/credentials.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/units.h"

namespace dfbench::providers {
namespace {

constexpr auto kPollInterval = std::chrono::seconds(5);
constexpr std::chrono::seconds kDeleteTimeout{1800};

bool InProgress(const std::string& status) {
  return status.size() > 12 && status.ends_with("_IN_PROGRESS");
}

// The events not in `seen` yet, oldest first; adds them to `seen`.
std::vector<aws::StackEvent> NewEvents(const std::vector<aws::StackEvent>& newest_first,
                                       std::set<std::string>* seen) {
  std::vector<aws::StackEvent> fresh;
  for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) {
    if (seen->insert(it->timestamp + "|" + it->logical_id + "|" + it->status).second) {
      fresh.push_back(*it);
    }
  }
  return fresh;
}

// The first resource that failed, and AWS's reason ("" when the events name none).
std::string FailingResource(const std::vector<aws::StackEvent>& newest_first) {
  for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) {
    if (it->status.ends_with("_FAILED") && it->resource_type != "AWS::CloudFormation::Stack" &&
        it->reason.find("cancelled") == std::string::npos) {
      return it->logical_id + " (" + it->resource_type + "): " + it->reason;
    }
  }
  return "";
}

// Polls the stack until its status leaves *_IN_PROGRESS or `timeout` passes; the last status
// seen ("" when AWS no longer knows the stack). Events are followed on stderr.
core::Result<std::string> WaitForStack(const aws::Client& client, const std::string& stack_id,
                                       std::chrono::seconds timeout, std::set<std::string>* printed,
                                       core::Clock& clock) {
  const auto deadline = clock.Now() + timeout;
  for (;;) {
    if (auto events = aws::DescribeStackEvents(client, stack_id); events) {
      for (const auto& e : NewEvents(*events, printed)) {
        core::Notef("[stack] {} {} {}{}", e.logical_id, e.resource_type, e.status,
                    e.reason.empty() ? "" : ": " + e.reason);
      }
    }
    auto stack = aws::DescribeStack(client, stack_id);
    if (!stack && stack.error().kind == core::ErrorKind::kNotFound) return std::string();
    if (!stack) return tl::unexpected(stack.error());
    if (!InProgress(stack->status) || clock.Now() >= deadline) {
      return stack->status;
    }
    if (!core::SleepUnlessInterrupted(kPollInterval, clock)) {
      return core::Fail(core::ErrorKind::kInterrupted,
                        "interrupted while the stack " + stack->name + " was " + stack->status);
    }
  }
}

std::string TagOf(const aws::Stack& stack, const char* key) {
  auto it = stack.tags.find(key);
  return it == stack.tags.end() ? "" : it->second;
}

// Whether the setup may take `stack` over as its own: made with its key, and complete or on
// its way there. Else why not, as a kUsage line.
core::Status CheckAdoptable(const aws::Stack& stack, const state::SetupState& s,
                            const StackRequest& r) {
  const std::string key = TagOf(stack, kKeyTag);
  if (!key.empty() && !r.key_tag.empty() && key != r.key_tag) {
    return core::Fail(core::ErrorKind::kUsage,
                      "the stack " + stack.name +
                          " was created with another SSH key than this setup's, so its hosts "
                          "would refuse the login: run '" +
                          state::DestroyCommand(s.id) + "' and set up again");
  }
  if (stack.status != "CREATE_COMPLETE" && stack.status != "CREATE_IN_PROGRESS") {
    return core::Fail(core::ErrorKind::kUsage,
                      "the stack " + stack.name + " exists already (" + stack.status + "); run '" +
                          state::DestroyCommand(s.id) + "' or pick another --id");
  }
  return core::Ok();
}

// After a CreateStack that failed: the stack AWS has under the name, if this setup's; nullopt
// when AWS has none (nothing was created). An error when AWS cannot be asked, or the stack there
// cannot be taken over.
core::Result<std::optional<aws::Stack>> StackAfterFailedCreate(const aws::Client& client,
                                                               const state::SetupState& s,
                                                               const StackRequest& r,
                                                               const core::Error& error) {
  core::Notef("setup {}: CreateStack did not answer cleanly ({}); asking AWS whether {} exists",
              s.id, error.message, r.name);
  auto found = FindSetupStack(client, r.name, s.id);
  if (!found) {
    return core::Fail(error.kind, error.message + "; whether the stack " + r.name +
                                      " exists could not be checked (" + found.error().message +
                                      "): run '" + state::DestroyCommand(s.id) +
                                      "', which looks for it");
  }
  if (!*found) return found;
  if (auto st = CheckAdoptable(**found, s, r); !st) return tl::unexpected(st.error());
  core::Notef("setup {}: AWS has the stack {} ({}): the request reached it", s.id, r.name,
              (*found)->status);
  return found;
}

}  // namespace

core::Result<aws::Client> AwsClient(const std::string& region) {
  const aws::EnvLookup env = aws::ProcessEnv();
  auto creds = aws::LoadCredentials(env);
  if (!creds) return tl::unexpected(creds.error());
  aws::RetryPolicy retry;
  if (auto text = env("DFBENCH_AWS_HTTP_TIMEOUT")) {
    auto timeout = core::ParseDuration(*text);
    if (!timeout || timeout->count() <= 0) {
      return core::Fail(core::ErrorKind::kUsage,
                        "DFBENCH_AWS_HTTP_TIMEOUT=" + *text + ": a positive duration, e.g. 30s");
    }
    retry.request_timeout = std::chrono::ceil<std::chrono::milliseconds>(*timeout);
  }
  return aws::Client(*creds, region, env, retry);
}

std::string CreateToken(const state::SetupState& s) {
  std::string digits;
  for (char c : s.created_at) {
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  }
  std::string token = "dfbench-" + s.id + "-" + digits;
  if (token.size() > 128) token.resize(128);
  return token;
}

core::Result<std::optional<aws::Stack>> FindSetupStack(const aws::Client& client,
                                                       const std::string& name,
                                                       const std::string& setup_id) {
  auto stack = aws::DescribeStack(client, name);
  if (!stack && stack.error().kind == core::ErrorKind::kNotFound) {
    return std::optional<aws::Stack>();
  }
  if (!stack) return tl::unexpected(stack.error());
  if (stack->status == "DELETE_COMPLETE") return std::optional<aws::Stack>();
  if (TagOf(*stack, kSetupTag) != setup_id) {
    return core::Fail(core::ErrorKind::kUsage,
                      "a stack named " + name + " exists in " + client.region() +
                          " but is not tagged as setup " + setup_id + "'s (" + kSetupTag + "=" +
                          TagOf(*stack, kSetupTag) + "): pick another --id");
  }
  return std::optional<aws::Stack>(std::move(*stack));
}

core::Status DeleteAndWait(const aws::Client& client, const std::string& stack,
                           core::Clock& clock) {
  // Only the deletion's events are news: those of the stack's creation were shown before.
  std::set<std::string> printed;
  if (auto events = aws::DescribeStackEvents(client, stack); events) {
    (void)NewEvents(*events, &printed);
  }
  if (auto st = aws::DeleteStack(client, stack); !st) return st;
  auto status = WaitForStack(client, stack, kDeleteTimeout, &printed, clock);
  if (!status) return tl::unexpected(status.error());
  if (status->empty() || *status == "DELETE_COMPLETE") return core::Ok();
  std::string reason;
  if (auto described = aws::DescribeStack(client, stack); described) {
    reason = described->status_reason;
  }
  return core::Fail(core::ErrorKind::kEnvironment,
                    "the stack " + stack + " did not delete (" + *status +
                        (reason.empty() ? "" : ": " + reason) +
                        "); run destroy again, or delete it in the CloudFormation console");
}

namespace {

// The stack the setup takes over (complete, or still being created) or the one it creates now;
// its id is saved in `s` as soon as it is known. The name and the request's token are saved
// before CreateStack: a command killed during it still knows a stack may exist.
core::Result<aws::Stack> StackOfSetup(const aws::Client& client, state::SetupState* s,
                                      const StackRequest& r) {
  if (!s->provider_data.aws) s->provider_data.aws = state::AwsRecord{};
  state::AwsRecord& recorded = *s->provider_data.aws;
  auto existing = FindSetupStack(client, r.name, s->id);
  if (!existing) return tl::unexpected(existing.error());
  if (*existing) {
    if (auto st = CheckAdoptable(**existing, *s, r); !st) return tl::unexpected(st.error());
    core::Notef("setup {}: the stack {} exists already ({}); using it", s->id, r.name,
                (*existing)->status);
    recorded.stack_id = (*existing)->id;
    (void)state::Save(s);
    return **existing;
  }
  recorded.stack_name = r.name;
  recorded.create_token = CreateToken(*s);
  (void)state::Save(s);
  core::Notef("setup {}: creating the stack {} in {}", s->id, r.name, client.region());
  std::vector<std::pair<std::string, std::string>> tags = {{kSetupTag, s->id}};
  if (!r.owner_arn.empty()) tags.emplace_back(kOwnerTag, r.owner_arn);
  if (!r.key_tag.empty()) tags.emplace_back(kKeyTag, r.key_tag);
  auto id = aws::CreateStack(client, {.stack_name = r.name,
                                      .template_body = r.template_body,
                                      .parameters = r.parameters,
                                      .tags = tags,
                                      .on_failure = "DELETE",
                                      .client_request_token = recorded.create_token});
  aws::Stack stack{.id = id.value_or(""), .name = r.name, .status = "CREATE_IN_PROGRESS"};
  if (!id) {
    auto found = StackAfterFailedCreate(client, *s, r, id.error());
    // Unknown: the token stays, so that list counts the stack as held and destroy asks AWS.
    if (!found) return tl::unexpected(found.error());
    if (!*found) {
      recorded.create_token.clear();  // AWS has none: nothing bills
      (void)state::Save(s);
      return tl::unexpected(id.error());
    }
    stack = **found;
  }
  recorded.stack_id = stack.id;
  (void)state::Save(s);
  return stack;
}

// A stack that ended otherwise than CREATE_COMPLETE (`status`, "" when AWS no longer knows it):
// deleted unless CloudFormation did, forgotten once gone, and the error that names its cause.
core::Status StackFailed(const aws::Client& client, state::SetupState* s, const StackRequest& r,
                         const std::string& stack_id, const std::string& status) {
  std::string cause;
  if (auto events = aws::DescribeStackEvents(client, stack_id); events) {
    cause = FailingResource(*events);
  }
  if (cause.empty()) {
    cause = InProgress(status) ? "not complete after " + std::to_string(r.timeout.count()) + " s"
                               : "it ended " + status;
  }
  std::string left = "it was deleted";
  bool gone = true;
  // OnFailure=DELETE leaves nothing; a timeout or a failed rollback leaves a stack to delete.
  if (!status.empty() && status != "DELETE_COMPLETE") {
    core::Notef("setup {}: deleting the stack {} ({})", s->id, r.name, status);
    if (auto st = DeleteAndWait(client, stack_id, *r.clock); !st) {
      left = "deleting it failed too: " + st.error().message;
      gone = false;
    }
  }
  // A stack known to be gone bills nothing: list and info stop showing it as held.
  if (gone) {
    s->provider_data.aws->stack_id.clear();
    s->provider_data.aws->create_token.clear();
    (void)state::Save(s);
  }
  return core::Fail(core::ErrorKind::kEnvironment,
                    "the stack " + r.name + " failed: " + cause + "; " + left +
                        ", the SSH key is kept: run the same setup again");
}

}  // namespace

core::Result<aws::Stack> CreateSetupStack(const aws::Client& client, state::SetupState* s,
                                          const StackRequest& r) {
  auto stack = StackOfSetup(client, s, r);
  if (!stack) return tl::unexpected(stack.error());
  if (stack->status == "CREATE_COMPLETE") return *stack;
  std::set<std::string> printed;
  auto status = WaitForStack(client, stack->id, r.timeout, &printed, *r.clock);
  if (!status) return tl::unexpected(status.error());
  if (*status == "CREATE_COMPLETE") return aws::DescribeStack(client, stack->id);
  return tl::unexpected(StackFailed(client, s, r, stack->id, *status).error());
}

}  // namespace dfbench::providers
