// How long a scenario waits on one engine for a control command's answer (INFO, CONFIG, DBSIZE,
// BGSAVE, DEBUG POPULATE): far above an answer's time under load, short enough that an engine
// that stopped answering ends the wait with a line saying so.
#pragma once

#include <chrono>

namespace dfbench::scenarios {

inline constexpr std::chrono::seconds kEngineControlTimeout{10};

}  // namespace dfbench::scenarios
