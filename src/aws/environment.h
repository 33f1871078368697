// How the aws layer reads environment variables: through a lookup function, so tests pass
// their own variables instead of changing the process environment.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace dfbench::aws {

// The value of an environment variable; nullopt when unset or empty.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// getenv of this process.
EnvLookup ProcessEnv();

}  // namespace dfbench::aws
