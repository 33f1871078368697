// Shared by the typed calls (sts.cc, cloudformation.cc, ec2.cc): one Query call with its error
// turned into a core::Error, and loading its XML reply.
#pragma once

#include <pugixml.hpp>
#include <string>
#include <string_view>

#include "aws/client.h"
#include "core/error.h"

namespace dfbench::aws {

// client.Call, with a failure mapped by ToCoreError and named "<service>:<Action>".
core::Result<std::string> CallQuery(const Client& client, std::string_view service,
                                    std::string_view action, std::string_view version,
                                    const QueryParams& params);

// Parses `body` into `doc`; kFailure naming `what` when it is not XML.
core::Status LoadReply(pugi::xml_document* doc, std::string_view body, std::string_view what);

}  // namespace dfbench::aws
