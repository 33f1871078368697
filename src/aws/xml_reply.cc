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

core::Status LoadReply(pugi::xml_document* doc, std::string_view body, std::string_view what) {
  if (auto parsed = doc->load_buffer(body.data(), body.size()); !parsed) {
    return core::Fail(core::ErrorKind::kFailure,
                      std::string(what) + ": reply is not XML (" + parsed.description() + ")");
  }
  return core::Ok();
}

}  // namespace dfbench::aws
