// CloudFormation calls for a one-stack fleet: create it (rolled back server-side on failure),
// read its status and Outputs, read its events to explain a failure, delete it.
//
//   auto id = aws::CreateStack(client, {.stack_name = "dfbench-perf", .template_body = yaml,
//                                       .tags = {{"dfbench:setup", "perf"}}});
//   auto stack = aws::DescribeStack(client, "dfbench-perf");   // poll stack->status
//
// CloudFormation is asynchronous: Create/Delete return at once; poll DescribeStack until the
// status leaves *_IN_PROGRESS. Errors as aws::ToCoreError.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aws/client.h"
#include "core/error.h"

namespace dfbench::aws {

struct CreateStackRequest {
  std::string stack_name;
  std::string template_body;
  std::vector<std::pair<std::string, std::string>> parameters;  // ParameterKey, ParameterValue
  std::vector<std::pair<std::string, std::string>> tags;        // Key, Value (propagated)
  std::string on_failure = "DELETE";                            // DELETE | ROLLBACK | DO_NOTHING
  int timeout_minutes = 0;                                      // 0: none
  // Makes a retried CreateStack the same request: AWS creates the stack once and answers
  // each try with its id. Letters, digits and '-', at most 128; "" sends none.
  std::string client_request_token;
};

// cloudformation:CreateStack; the new stack's id (an ARN).
core::Result<std::string> CreateStack(const Client& client, const CreateStackRequest& request);

struct Stack {
  std::string id;
  std::string name;
  std::string status;         // CREATE_COMPLETE, ROLLBACK_IN_PROGRESS, DELETE_COMPLETE, ...
  std::string status_reason;  // "" when AWS gives none
  std::map<std::string, std::string> outputs;  // OutputKey -> OutputValue
  std::map<std::string, std::string> tags;
  std::string creation_time;  // ISO 8601, as AWS gives it
};

// cloudformation:DescribeStacks for one stack (name or id). kNotFound when AWS says it does not
// exist (a deleted stack asked by name).
core::Result<Stack> DescribeStack(const Client& client, const std::string& name_or_id);

struct StackEvent {
  std::string timestamp;      // ISO 8601, as AWS gives it
  std::string logical_id;     // "ServerInstance"
  std::string resource_type;  // "AWS::EC2::Instance"
  std::string physical_id;
  std::string status;  // CREATE_FAILED, ...
  std::string reason;  // ResourceStatusReason, "" when none
};

// Every stack of the region that is not deleted (cloudformation:DescribeStacks without a name,
// every page).
core::Result<std::vector<Stack>> DescribeAllStacks(const Client& client);

// cloudformation:DescribeStackEvents: the newest events first, as AWS orders them, every page
// (a large fleet's first failure can be hundreds of events back).
core::Result<std::vector<StackEvent>> DescribeStackEvents(const Client& client,
                                                          const std::string& name_or_id);

// cloudformation:DeleteStack. Succeeds for a stack that is already gone.
core::Status DeleteStack(const Client& client, const std::string& name_or_id);

// The parameters of a CreateStack call (pure; for tests).
QueryParams CreateStackParams(const CreateStackRequest& request);
// Reply readers (pure; for tests).
core::Result<std::vector<Stack>> ParseDescribeStacks(std::string_view xml);
core::Result<std::vector<StackEvent>> ParseStackEvents(std::string_view xml);

}  // namespace dfbench::aws
