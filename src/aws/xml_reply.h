// Shared by the typed calls (sts.cc, cloudformation.cc, ec2.cc): one Query call with its error
// turned into a core::Error, and loading its XML reply.
#pragma once

#include <functional>
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

// Every page of a paged read: CallQuery with `params`, then again with NextToken set to the
// token the reply holds at `next_token_path` ("DescribeStacksResponse/DescribeStacksResult/
// NextToken"; EC2 spells it nextToken), until a reply has none. Each reply goes to `page`; its
// error stops the walk. At most 100 pages: far beyond any fleet's events or account's stacks.
core::Status CallQueryPages(const Client& client, std::string_view service, std::string_view action,
                            std::string_view version, const QueryParams& params,
                            const char* next_token_path,
                            const std::function<core::Status(std::string_view body)>& page);

// Parses `body` into `doc`; kFailure naming `what` when it is not XML.
core::Status LoadReply(pugi::xml_document* doc, std::string_view body, std::string_view what);

}  // namespace dfbench::aws
