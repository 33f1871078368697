#include "aws/ec2.h"

#include "aws/xml_reply.h"

namespace dfbench::aws {

core::Result<std::vector<Instance>> ParseDescribeInstances(std::string_view xml) {
  pugi::xml_document doc;
  if (auto s = LoadReply(&doc, xml, "ec2:DescribeInstances"); !s) return tl::unexpected(s.error());
  std::vector<Instance> out;
  pugi::xml_node reservations =
      doc.first_element_by_path("DescribeInstancesResponse/reservationSet");
  for (pugi::xml_node r = reservations.child("item"); r; r = r.next_sibling("item")) {
    for (pugi::xml_node i = r.child("instancesSet").child("item"); i; i = i.next_sibling("item")) {
      out.push_back({i.child_value("instanceId"), i.child_value("instanceType"),
                     i.child_value("architecture"), i.child("instanceState").child_value("name"),
                     i.child_value("ipAddress"), i.child_value("privateIpAddress")});
    }
  }
  return out;
}

core::Result<std::vector<Instance>> DescribeInstances(const Client& client,
                                                      const std::vector<std::string>& ids) {
  QueryParams params;
  for (size_t i = 0; i < ids.size(); ++i) {
    params.emplace_back("InstanceId." + std::to_string(i + 1), ids[i]);
  }
  auto body = CallQuery(client, "ec2", "DescribeInstances", "2016-11-15", params);
  if (!body) return tl::unexpected(body.error());
  return ParseDescribeInstances(*body);
}

}  // namespace dfbench::aws
