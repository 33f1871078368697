#include "aws/sts.h"

#include "aws/xml_reply.h"

namespace dfbench::aws {

core::Result<CallerIdentity> GetCallerIdentity(const Client& client) {
  auto body = CallQuery(client, "sts", "GetCallerIdentity", "2011-06-15", {});
  if (!body) return tl::unexpected(body.error());
  return ParseCallerIdentity(*body);
}

core::Result<CallerIdentity> ParseCallerIdentity(std::string_view xml) {
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, xml, "sts:GetCallerIdentity"); !s) return tl::unexpected(s.error());
  pugi::xml_node result =
      doc.first_element_by_path("GetCallerIdentityResponse/GetCallerIdentityResult");
  CallerIdentity id{result.child_value("Account"), result.child_value("Arn"),
                    result.child_value("UserId")};
  if (id.account.empty()) {
    return core::Fail(core::ErrorKind::kFailure, "sts:GetCallerIdentity: reply has no Account");
  }
  return id;
}

core::Result<Credentials> ParseAssumedCredentials(std::string_view xml, const std::string& action) {
  const std::string what = "sts:" + action;
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, xml, what); !s) return tl::unexpected(s.error());
  const std::string path = action + "Response/" + action + "Result/Credentials";
  pugi::xml_node node = doc.first_element_by_path(path.c_str());
  Credentials c{.access_key_id = node.child_value("AccessKeyId"),
                .secret_access_key = node.child_value("SecretAccessKey"),
                .session_token = node.child_value("SessionToken")};
  if (c.access_key_id.empty() || c.secret_access_key.empty() || c.session_token.empty()) {
    return core::Fail(core::ErrorKind::kFailure, what + ": reply has no Credentials");
  }
  if (const std::string exp = node.child_value("Expiration"); !exp.empty()) {
    c.expiration = ParseExpiration(exp);
    if (!c.expiration) {
      return core::Fail(core::ErrorKind::kFailure, what + ": reply has a malformed Expiration");
    }
  }
  return c;
}

namespace {

core::Result<Credentials> AssumeRoleCall(const Client& client, const std::string& action,
                                         const AssumeRoleRequest& r) {
  QueryParams params = {{"RoleArn", r.role_arn}, {"RoleSessionName", r.session_name}};
  if (!r.external_id.empty()) params.emplace_back("ExternalId", r.external_id);
  if (r.duration_seconds) {
    params.emplace_back("DurationSeconds", std::to_string(*r.duration_seconds));
  }
  if (!r.web_identity_token.empty()) params.emplace_back("WebIdentityToken", r.web_identity_token);
  auto body = CallQuery(client, "sts", action, "2011-06-15", params);
  if (!body) return tl::unexpected(body.error());
  return ParseAssumedCredentials(*body, action);
}

}  // namespace

core::Result<Credentials> AssumeRole(const Client& client, const AssumeRoleRequest& request) {
  return AssumeRoleCall(client, "AssumeRole", request);
}

core::Result<Credentials> AssumeRoleWithWebIdentity(const Client& client,
                                                    const AssumeRoleRequest& request) {
  return AssumeRoleCall(client, "AssumeRoleWithWebIdentity", request);
}

}  // namespace dfbench::aws
