// SSM Parameter Store reads (JSON protocol), for the Ubuntu AMI a fleet would launch: a read,
// not billed, so setup can ask it before CreateStack.
#pragma once

#include <string>
#include <string_view>

#include "aws/client.h"
#include "core/error.h"

namespace dfbench::aws {

// ssm:GetParameter: the parameter's value. kNotFound when the region has no such parameter.
core::Result<std::string> GetParameter(const Client& client, const std::string& name);

// Reads a GetParameter reply ({"Parameter": {"Value": ...}}) (pure; for tests).
core::Result<std::string> ParseGetParameter(std::string_view json);

}  // namespace dfbench::aws
