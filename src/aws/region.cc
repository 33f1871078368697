#include "aws/region.h"

#include "aws/credentials.h"
#include "aws/shared_files.h"

namespace dfbench::aws {

Region ResolveRegion(const std::string& flag, const EnvLookup& env) {
  if (!flag.empty()) return {flag, "--region"};
  for (const char* var : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
    if (auto r = env(var)) return {*r, var};
  }
  if (auto files = LoadSharedFiles(env)) {
    const std::string profile = ProfileName(env);
    if (auto settings = ProfileSettings(*files, profile)) {
      if (auto it = settings->find("region"); it != settings->end() && !it->second.empty()) {
        return {it->second, "profile " + profile};
      }
    }
  }
  return {kDefaultRegion, "default"};
}

std::string DnsSuffix(const std::string& region) {
  return region.starts_with("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
}

}  // namespace dfbench::aws
