#include "aws/cloudformation.h"

#include "aws/xml_reply.h"

namespace dfbench::aws {
namespace {

constexpr char kVersion[] = "2010-05-15";

// <member> children of `list`.
template <class F>
void ForEachMember(pugi::xml_node list, F f) {
  for (pugi::xml_node m = list.child("member"); m; m = m.next_sibling("member")) f(m);
}

}  // namespace

QueryParams CreateStackParams(const CreateStackRequest& r) {
  QueryParams p = {{"StackName", r.stack_name}, {"TemplateBody", r.template_body}};
  for (size_t i = 0; i < r.parameters.size(); ++i) {
    const std::string prefix = "Parameters.member." + std::to_string(i + 1) + ".";
    p.emplace_back(prefix + "ParameterKey", r.parameters[i].first);
    p.emplace_back(prefix + "ParameterValue", r.parameters[i].second);
  }
  if (!r.on_failure.empty()) p.emplace_back("OnFailure", r.on_failure);
  for (size_t i = 0; i < r.tags.size(); ++i) {
    const std::string prefix = "Tags.member." + std::to_string(i + 1) + ".";
    p.emplace_back(prefix + "Key", r.tags[i].first);
    p.emplace_back(prefix + "Value", r.tags[i].second);
  }
  if (r.timeout_minutes > 0) p.emplace_back("TimeoutInMinutes", std::to_string(r.timeout_minutes));
  if (!r.client_request_token.empty()) p.emplace_back("ClientRequestToken", r.client_request_token);
  return p;
}

core::Result<std::string> CreateStack(const Client& client, const CreateStackRequest& request) {
  auto body =
      CallQuery(client, "cloudformation", "CreateStack", kVersion, CreateStackParams(request));
  if (!body) return tl::unexpected(body.error());
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, *body, "cloudformation:CreateStack"); !s) {
    return tl::unexpected(s.error());
  }
  std::string id =
      doc.first_element_by_path("CreateStackResponse/CreateStackResult/StackId").child_value();
  if (id.empty()) {
    return core::Fail(core::ErrorKind::kFailure,
                      "cloudformation:CreateStack: reply has no StackId");
  }
  return id;
}

core::Result<std::vector<Stack>> ParseDescribeStacks(std::string_view xml) {
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, xml, "cloudformation:DescribeStacks"); !s) {
    return tl::unexpected(s.error());
  }
  std::vector<Stack> stacks;
  ForEachMember(doc.first_element_by_path("DescribeStacksResponse/DescribeStacksResult/Stacks"),
                [&](pugi::xml_node m) {
                  Stack s{m.child_value("StackId"), m.child_value("StackName"),
                          m.child_value("StackStatus"), m.child_value("StackStatusReason")};
                  s.creation_time = m.child_value("CreationTime");
                  ForEachMember(m.child("Outputs"), [&](pugi::xml_node o) {
                    s.outputs[o.child_value("OutputKey")] = o.child_value("OutputValue");
                  });
                  ForEachMember(m.child("Tags"), [&](pugi::xml_node t) {
                    s.tags[t.child_value("Key")] = t.child_value("Value");
                  });
                  stacks.push_back(std::move(s));
                });
  return stacks;
}

core::Result<Stack> DescribeStack(const Client& client, const std::string& name_or_id) {
  auto body =
      CallQuery(client, "cloudformation", "DescribeStacks", kVersion, {{"StackName", name_or_id}});
  if (!body) return tl::unexpected(body.error());
  auto stacks = ParseDescribeStacks(*body);
  if (!stacks) return tl::unexpected(stacks.error());
  if (stacks->empty()) {
    return core::Fail(core::ErrorKind::kNotFound, "cloudformation:DescribeStacks: Stack with id " +
                                                      name_or_id + " does not exist");
  }
  return std::move(stacks->front());
}

core::Result<std::vector<StackEvent>> ParseStackEvents(std::string_view xml) {
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, xml, "cloudformation:DescribeStackEvents"); !s) {
    return tl::unexpected(s.error());
  }
  std::vector<StackEvent> events;
  ForEachMember(
      doc.first_element_by_path(
          "DescribeStackEventsResponse/DescribeStackEventsResult/StackEvents"),
      [&](pugi::xml_node m) {
        events.push_back({m.child_value("Timestamp"), m.child_value("LogicalResourceId"),
                          m.child_value("ResourceType"), m.child_value("PhysicalResourceId"),
                          m.child_value("ResourceStatus"), m.child_value("ResourceStatusReason")});
      });
  return events;
}

core::Result<std::vector<StackEvent>> DescribeStackEvents(const Client& client,
                                                          const std::string& name_or_id) {
  std::vector<StackEvent> all;
  auto st = CallQueryPages(client, "cloudformation", "DescribeStackEvents", kVersion,
                           {{"StackName", name_or_id}},
                           "DescribeStackEventsResponse/DescribeStackEventsResult/NextToken",
                           [&all](std::string_view body) -> core::Status {
                             auto events = ParseStackEvents(body);
                             if (!events) return tl::unexpected(events.error());
                             all.insert(all.end(), events->begin(), events->end());
                             return core::Ok();
                           });
  if (!st) return tl::unexpected(st.error());
  return all;
}

core::Result<std::vector<Stack>> DescribeAllStacks(const Client& client) {
  std::vector<Stack> all;
  auto st = CallQueryPages(client, "cloudformation", "DescribeStacks", kVersion, {},
                           "DescribeStacksResponse/DescribeStacksResult/NextToken",
                           [&all](std::string_view body) -> core::Status {
                             auto stacks = ParseDescribeStacks(body);
                             if (!stacks) return tl::unexpected(stacks.error());
                             for (auto& s : *stacks) {
                               if (s.status != "DELETE_COMPLETE") all.push_back(std::move(s));
                             }
                             return core::Ok();
                           });
  if (!st) return tl::unexpected(st.error());
  return all;
}

core::Status DeleteStack(const Client& client, const std::string& name_or_id) {
  auto body =
      CallQuery(client, "cloudformation", "DeleteStack", kVersion, {{"StackName", name_or_id}});
  if (!body && body.error().kind != core::ErrorKind::kNotFound) {
    return tl::unexpected(body.error());
  }
  return core::Ok();
}

}  // namespace dfbench::aws
