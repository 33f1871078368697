// Progress and warnings for humans, always on stderr so stdout stays a clean payload.
#pragma once

#include <string>

#include "core/format.h"

namespace dfbench::core {

// Prints "dfbench: <line>" to stderr.
void Note(const std::string& line);

template <class... Args>
void Notef(fmt::format_string<Args...> format, Args&&... args) {
  Note(Format(format, std::forward<Args>(args)...));
}

// Suppresses Note() (tests, --quiet).
void SetQuiet(bool quiet);

}  // namespace dfbench::core
