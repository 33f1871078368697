#include "aws/instance_catalog.h"

#include "aws/xml_reply.h"

namespace dfbench::aws {
namespace {

constexpr std::string_view kEc2Version = "2016-11-15";

// Every page of DescribeInstanceTypes with `params`. `*invalid_type` tells whether a failure
// is AWS's InvalidInstanceType.
core::Result<std::vector<InstanceTypeInfo>> AllTypePages(const Client& client,
                                                         const QueryParams& params,
                                                         bool* invalid_type) {
  *invalid_type = false;
  std::vector<InstanceTypeInfo> out;
  std::string token;
  do {
    QueryParams page = params;
    if (!token.empty()) page.emplace_back("NextToken", token);
    auto body = client.Call("ec2", "DescribeInstanceTypes", kEc2Version, page);
    if (!body) {
      *invalid_type = body.error().code.starts_with("InvalidInstanceType");
      return tl::unexpected(ToCoreError(body.error(), "ec2:DescribeInstanceTypes"));
    }
    auto parsed = ParseDescribeInstanceTypes(*body);
    if (!parsed) return tl::unexpected(parsed.error());
    for (auto& t : parsed->types) out.push_back(std::move(t));
    token = parsed->next_token;
  } while (!token.empty());
  return out;
}

QueryParams TypeParams(const std::vector<std::string>& types) {
  QueryParams params;
  for (size_t i = 0; i < types.size(); ++i) {
    params.emplace_back("InstanceType." + std::to_string(i + 1), types[i]);
  }
  return params;
}

}  // namespace

core::Result<InstanceTypePage> ParseDescribeInstanceTypes(std::string_view xml) {
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, xml, "ec2:DescribeInstanceTypes"); !s) {
    return tl::unexpected(s.error());
  }
  pugi::xml_node root = doc.child("DescribeInstanceTypesResponse");
  if (!root) {
    return core::Fail(core::ErrorKind::kFailure,
                      "ec2:DescribeInstanceTypes: reply has no DescribeInstanceTypesResponse");
  }
  InstanceTypePage page;
  for (pugi::xml_node t = root.child("instanceTypeSet").child("item"); t;
       t = t.next_sibling("item")) {
    InstanceTypeInfo info{.type = t.child_value("instanceType")};
    for (pugi::xml_node a = t.child("processorInfo").child("supportedArchitectures").child("item");
         a; a = a.next_sibling("item")) {
      info.architectures.emplace_back(a.child_value());
    }
    info.default_vcpus = t.child("vCpuInfo").child("defaultVCpus").text().as_int();
    page.types.push_back(std::move(info));
  }
  page.next_token = root.child_value("nextToken");
  return page;
}

core::Result<std::string> ParseInstanceTypeOfferings(std::string_view xml, ZoneOffers* offers) {
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, xml, "ec2:DescribeInstanceTypeOfferings"); !s) {
    return tl::unexpected(s.error());
  }
  pugi::xml_node root = doc.child("DescribeInstanceTypeOfferingsResponse");
  if (!root) {
    return core::Fail(core::ErrorKind::kFailure,
                      "ec2:DescribeInstanceTypeOfferings: reply has no "
                      "DescribeInstanceTypeOfferingsResponse");
  }
  for (pugi::xml_node o = root.child("instanceTypeOfferingSet").child("item"); o;
       o = o.next_sibling("item")) {
    (*offers)[o.child_value("location")].insert(o.child_value("instanceType"));
  }
  return std::string(root.child_value("nextToken"));
}

core::Result<InstanceTypeReport> DescribeInstanceTypes(const Client& client,
                                                       const std::vector<std::string>& types) {
  InstanceTypeReport report;
  bool invalid = false;
  auto all = AllTypePages(client, TypeParams(types), &invalid);
  if (all) {
    report.known = std::move(*all);
    return report;
  }
  if (!invalid) return tl::unexpected(all.error());
  for (const auto& type : types) {
    auto one = AllTypePages(client, TypeParams({type}), &invalid);
    if (one) {
      for (auto& t : *one) report.known.push_back(std::move(t));
    } else if (invalid) {
      report.unknown.push_back(type);
    } else {
      return tl::unexpected(one.error());
    }
  }
  return report;
}

core::Result<std::vector<std::string>> ListInstanceTypeNames(const Client& client) {
  bool invalid = false;
  auto all = AllTypePages(client, {{"MaxResults", "100"}}, &invalid);
  if (!all) return tl::unexpected(all.error());
  std::vector<std::string> names;
  names.reserve(all->size());
  for (const auto& t : *all) names.push_back(t.type);
  return names;
}

core::Result<ZoneOffers> DescribeZoneOffers(const Client& client,
                                            const std::vector<std::string>& types) {
  QueryParams params = {{"LocationType", "availability-zone"}, {"Filter.1.Name", "instance-type"}};
  for (size_t i = 0; i < types.size(); ++i) {
    params.emplace_back("Filter.1.Value." + std::to_string(i + 1), types[i]);
  }
  ZoneOffers offers;
  auto st = CallQueryPages(client, "ec2", "DescribeInstanceTypeOfferings", kEc2Version, params,
                           "DescribeInstanceTypeOfferingsResponse/nextToken",
                           [&offers](std::string_view body) -> core::Status {
                             auto next = ParseInstanceTypeOfferings(body, &offers);
                             if (!next) return tl::unexpected(next.error());
                             return core::Ok();
                           });
  if (!st) return tl::unexpected(st.error());
  return offers;
}

}  // namespace dfbench::aws
