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

}  // namespace dfbench::aws
