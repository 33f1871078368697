#include "aws/region.h"

#include <algorithm>

#include "aws/client.h"
#include "aws/credentials.h"
#include "aws/shared_files.h"
#include "aws/xml_reply.h"

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

core::Result<std::vector<std::string>> ParseDescribeRegions(std::string_view xml) {
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, xml, "ec2:DescribeRegions"); !s) return tl::unexpected(s.error());
  std::vector<std::string> names;
  pugi::xml_node set = doc.first_element_by_path("DescribeRegionsResponse/regionInfo");
  for (pugi::xml_node i = set.child("item"); i; i = i.next_sibling("item")) {
    names.emplace_back(i.child_value("regionName"));
  }
  std::sort(names.begin(), names.end());
  return names;
}

core::Result<std::vector<std::string>> DescribeRegions(const Client& client) {
  auto body = CallQuery(client, "ec2", "DescribeRegions", "2016-11-15", {});
  if (!body) return tl::unexpected(body.error());
  return ParseDescribeRegions(*body);
}

}  // namespace dfbench::aws
