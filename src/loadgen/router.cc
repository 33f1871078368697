#include "loadgen/router.h"

#include <algorithm>

#include "core/check.h"

namespace dfbench::loadgen {

Router::Step Router::Follow(const Redirect& redirect, uint16_t from, uint8_t redirects,
                            const OpenNode& open) {
  DFB_CHECK(cluster_ && from < map_.nodes.size());
  ClusterNode node = redirect.node;
  if (node.host.empty()) node.host = map_.nodes[from].host;  // "MOVED 12 :7001"
  const std::string where = node.host + ":" + std::to_string(node.port) + ")";
  const auto known = std::find(map_.nodes.begin(), map_.nodes.end(), node);
  const auto index = static_cast<uint16_t>(known - map_.nodes.begin());
  if (known == map_.nodes.end()) {
    if (!open(node, index)) return Step{.error = "unreachable node (" + where};
    map_.nodes.push_back(node);
  }
  if (redirects > kMaxRedirects) return Step{.error = "too many redirections (last: " + where};
  if (redirect.kind == Redirect::Kind::kAsk) return Step{.kind = Step::Kind::kAsk, .node = index};
  map_.owner[redirect.slot] = index;
  return Step{.kind = Step::Kind::kMoved, .node = index};
}

}  // namespace dfbench::loadgen
