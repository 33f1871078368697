// Where a setup's hosts come from, and what follows from it: one table of names (as state.json,
// results and --provider spell them) and the facts commands ask about a provider.
#pragma once

#include <string>

#include "core/enum_names.h"

namespace dfbench::state {

// endpoint: servers the user runs (a managed service, a staging cluster), named by URL; the load
// generator runs on this machine and no engine is started, stopped or installed.
enum class ProviderKind { kLocal, kSsh, kAws, kEndpoint };

inline constexpr core::EnumNames<ProviderKind, 4> kProviderNames{
    {{{ProviderKind::kLocal, "local"},
      {ProviderKind::kSsh, "ssh"},
      {ProviderKind::kAws, "aws"},
      {ProviderKind::kEndpoint, "endpoint"}}}};

inline std::string ToString(ProviderKind p) {
  return std::string(kProviderNames.Name(p));
}

// Server and client are other machines, reached over SSH (ssh, aws); local is this machine.
constexpr bool IsRemote(ProviderKind p) {
  return p == ProviderKind::kSsh || p == ProviderKind::kAws;
}

// The engines are servers dfbench does not run: nothing is started, stopped or installed.
constexpr bool RunsNoEngine(ProviderKind p) {
  return p == ProviderKind::kEndpoint;
}

// The provider creates its hosts and their key (aws) instead of logging in to given ones.
constexpr bool LaunchesHosts(ProviderKind p) {
  return p == ProviderKind::kAws;
}

// Setup, quickstart and destroy change machines other than this one, so they print their plan
// and ask first.
constexpr bool ChangesHosts(ProviderKind p) {
  return IsRemote(p);
}

}  // namespace dfbench::state
