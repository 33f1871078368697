// The protocol a server speaks and a load generator sends: one type for the engines that serve
// it, the drivers that name it on a tool's command line and the built-in generator that speaks
// it. Its words are memtier's --protocol values, which dfly_bench's -P and `dfbench loadgen`
// share.
#pragma once

#include "core/enum_names.h"

namespace dfbench::core {

enum class Protocol { kRedis, kMemcacheText };

inline constexpr EnumNames<Protocol, 2> kProtocolNames{
    {{{Protocol::kRedis, "redis"}, {Protocol::kMemcacheText, "memcache_text"}}}};

}  // namespace dfbench::core
