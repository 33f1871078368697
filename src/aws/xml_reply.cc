#include "aws/xml_reply.h"

namespace dfbench::aws {

core::Result<std::string> CallQuery(const Client& client, std::string_view service,
                                    std::string_view action, std::string_view version,
                                    const QueryParams& params) {
  auto r = client.Call(service, action, version, params);
  if (!r) {
    return tl::unexpected(ToCoreError(r.error(), std::string(service) + ":" + std::string(action)));
  }
  return std::move(*r);
}

core::Status CallQueryPages(const Client& client, std::string_view service, std::string_view action,
                            std::string_view version, const QueryParams& params,
                            const char* next_token_path,
                            const std::function<core::Status(std::string_view body)>& page) {
  constexpr int kMaxPages = 100;
  std::string token;
  for (int n = 0; n < kMaxPages; ++n) {
    QueryParams with_token = params;
    if (!token.empty()) with_token.emplace_back("NextToken", token);
    auto body = CallQuery(client, service, action, version, with_token);
    if (!body) return tl::unexpected(body.error());
    if (auto st = page(*body); !st) return st;
    pugi::xml_document doc;
    if (!doc.load_buffer(body->data(), body->size())) return core::Ok();
    token = doc.first_element_by_path(next_token_path).child_value();
    if (token.empty()) return core::Ok();
  }
  return core::Ok();
}

core::Status LoadReply(pugi::xml_document* doc, std::string_view body, std::string_view what) {
  if (auto parsed = doc->load_buffer(body.data(), body.size()); !parsed) {
    return core::Fail(core::ErrorKind::kFailure,
                      std::string(what) + ": reply is not XML (" + parsed.description() + ")");
  }
  return core::Ok();
}

}  // namespace dfbench::aws
