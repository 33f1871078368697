#include "aws/cloudformation.h"

#include "aws/xml_reply.h"

namespace dfbench::aws {
namespace {

constexpr char kVersion[] = "2010-05-15";
// Bounds the pages one read follows: far beyond any fleet's events or an account's stacks.
constexpr int kMaxPages = 100;

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
  std::string token;
  for (int page = 0; page < kMaxPages; ++page) {
    QueryParams params = {{"StackName", name_or_id}};
    if (!token.empty()) params.emplace_back("NextToken", token);
    auto body = CallQuery(client, "cloudformation", "DescribeStackEvents", kVersion, params);
    if (!body) return tl::unexpected(body.error());
    auto events = ParseStackEvents(*body);
    if (!events) return tl::unexpected(events.error());
    all.insert(all.end(), events->begin(), events->end());
    token =
        ParseNextToken(*body, "DescribeStackEventsResponse/DescribeStackEventsResult/NextToken");
    if (token.empty()) break;
  }
  return all;
}

core::Result<std::vector<Stack>> DescribeAllStacks(const Client& client) {
  std::vector<Stack> all;
  std::string token;
  for (int page = 0; page < kMaxPages; ++page) {
    QueryParams params;
    if (!token.empty()) params.emplace_back("NextToken", token);
    auto body = CallQuery(client, "cloudformation", "DescribeStacks", kVersion, params);
    if (!body) return tl::unexpected(body.error());
    auto stacks = ParseDescribeStacks(*body);
    if (!stacks) return tl::unexpected(stacks.error());
    for (auto& s : *stacks) {
      if (s.status != "DELETE_COMPLETE") all.push_back(std::move(s));
    }
    token = ParseNextToken(*body, "DescribeStacksResponse/DescribeStacksResult/NextToken");
    if (token.empty()) break;
  }
  return all;
}

std::string ParseNextToken(std::string_view xml, const char* path) {
  pugi::xml_document doc;
  if (!doc.load_buffer(xml.data(), xml.size())) return "";
  return doc.first_element_by_path(path).child_value();
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
