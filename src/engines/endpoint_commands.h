// What a run may send to a server it shares with others (an endpoint without flushing allowed):
// each command it will send, checked before its first request against the server's own key map
// (COMMAND INFO, COMMAND GETKEYS), so that modules and commands newer than dfbench are judged
// as the server itself sees them.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "protocol/server_endpoint.h"

namespace dfbench::engines {

// A command a run sends, as its template ("SET __key__ __data__", the __item__ of a preload
// filled in).
struct SentCommand {
  std::string tmpl;
  // dfbench's own command, whose only key is __key__: sent even where the server cannot say
  // what its keys are. false: a template the user wrote, refused unless the server can.
  bool own = true;
};

// Checks each of `commands` against the server at `endpoint`, the run's keys all starting with
// `key_namespace`. The placeholders are filled with a key inside the namespace and a small
// value, then:
// - COMMAND GETKEYS lists its keys (a server without it, Dragonfly: the first-key, last-key and
//   step COMMAND INFO gives, unless the keys move with the arguments): each must start with
//   `key_namespace`;
// - a command that names no key must not write, administer or be dangerous (COMMAND INFO: the
//   flags `write`, `admin` or `noscript`, the ACL category `@dangerous`): FLUSHDB, SWAPDB,
//   CONFIG SET, SCRIPT FLUSH, SHUTDOWN, DEBUG;
// - a template of the user's whose COMMAND DOCS arguments hold a database (MOVE, COPY ... DB)
//   takes a key of the run where the cleanup does not look;
// - a command of the ACL category `@scripting` (EVAL, FCALL, SCRIPT FLUSH) runs or manages
//   scripts, which reach keys no argument names.
// A subcommand (CONFIG SET) is judged by its own entry where the server has one. kUsage, one line
// naming the command, the server and why, for a command refused, and for a template of the
// user's the server cannot judge (COMMAND refused, the command unknown to it, GETKEYS answering
// an error); kEnvironment when the server cannot be reached.
core::Status CheckSentCommands(const std::string& engine, const protocol::ServerEndpoint& endpoint,
                               const std::string& key_namespace,
                               const std::vector<SentCommand>& commands);

}  // namespace dfbench::engines
