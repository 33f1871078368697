// The fleet's capacity checks: the replies of DescribeInstanceTypes, DescribeInstanceTypeOfferings
// and GetServiceQuota as AWS sends them, the nearest-name suggestion, the zone choice, the
// architecture and quota refusals.
#include "aws/fleet_capacity.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>

#include "aws/scripted_http_server_test.h"
#include "aws/service_quotas.h"

namespace dfbench::aws {
namespace {

FleetPlan CapacityPlan() {
  return {.setup_id = "cap",
          .region = "us-east-1",
          .server = {"c7g.4xlarge", Arch::kArm64},
          .client = {"c6i.2xlarge", Arch::kX86_64},
          .replica = {"c7g.4xlarge", Arch::kArm64},
          .replicas = 2,
          .ubuntu_version = "22.04",
          .public_key = "ssh-rsa AAAA x",
          .clients = 3};
}

TEST(FleetCapacityTest, ParsesDescribeInstanceTypesPages) {
  auto page = ParseDescribeInstanceTypes(R"(<?xml version="1.0" encoding="UTF-8"?>
<DescribeInstanceTypesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>r</requestId>
  <instanceTypeSet>
    <item>
      <instanceType>c7g.large</instanceType>
      <processorInfo><supportedArchitectures><item>arm64</item></supportedArchitectures></processorInfo>
      <vCpuInfo><defaultVCpus>2</defaultVCpus><defaultCores>2</defaultCores></vCpuInfo>
    </item>
    <item>
      <instanceType>m5.large</instanceType>
      <processorInfo><supportedArchitectures><item>x86_64</item></supportedArchitectures></processorInfo>
      <vCpuInfo><defaultVCpus>2</defaultVCpus></vCpuInfo>
    </item>
    <item>
      <instanceType>c1.medium</instanceType>
      <processorInfo><supportedArchitectures><item>i386</item><item>x86_64</item></supportedArchitectures></processorInfo>
      <vCpuInfo><defaultVCpus>2</defaultVCpus></vCpuInfo>
    </item>
  </instanceTypeSet>
  <nextToken>AAE=</nextToken>
</DescribeInstanceTypesResponse>)");
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_EQ(page->types.size(), 3u);
  EXPECT_EQ(page->types[0].type, "c7g.large");
  EXPECT_EQ(page->types[0].architectures, std::vector<std::string>{"arm64"});
  EXPECT_EQ(page->types[0].default_vcpus, 2);
  EXPECT_EQ(page->types[2].architectures, (std::vector<std::string>{"i386", "x86_64"}));
  EXPECT_EQ(page->next_token, "AAE=");

  auto last = ParseDescribeInstanceTypes(
      "<DescribeInstanceTypesResponse><instanceTypeSet/></DescribeInstanceTypesResponse>");
  ASSERT_TRUE(last);
  EXPECT_TRUE(last->types.empty());
  EXPECT_EQ(last->next_token, "");
  EXPECT_FALSE(ParseDescribeInstanceTypes("not xml <"));
  EXPECT_FALSE(ParseDescribeInstanceTypes("<Other/>"));
}

TEST(FleetCapacityTest, ParsesOfferingsIntoZones) {
  ZoneOffers offers;
  auto next = ParseInstanceTypeOfferings(R"(<DescribeInstanceTypeOfferingsResponse>
  <instanceTypeOfferingSet>
    <item><instanceType>c6i.2xlarge</instanceType><locationType>availability-zone</locationType><location>us-east-1b</location></item>
    <item><instanceType>c6i.2xlarge</instanceType><locationType>availability-zone</locationType><location>us-east-1a</location></item>
  </instanceTypeOfferingSet>
  <nextToken>more</nextToken>
</DescribeInstanceTypeOfferingsResponse>)",
                                         &offers);
  ASSERT_TRUE(next) << next.error().message;
  EXPECT_EQ(*next, "more");
  next = ParseInstanceTypeOfferings(R"(<DescribeInstanceTypeOfferingsResponse>
  <instanceTypeOfferingSet>
    <item><instanceType>hpc7g.16xlarge</instanceType><location>us-east-1b</location></item>
  </instanceTypeOfferingSet>
</DescribeInstanceTypeOfferingsResponse>)",
                                    &offers);
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, "");
  EXPECT_EQ(offers, (ZoneOffers{{"us-east-1a", {"c6i.2xlarge"}},
                                {"us-east-1b", {"c6i.2xlarge", "hpc7g.16xlarge"}}}));
  EXPECT_FALSE(ParseInstanceTypeOfferings("<x", &offers));
}

TEST(FleetCapacityTest, ParsesGetServiceQuota) {
  auto v = ParseGetServiceQuota(
      R"({"Quota": {"ServiceCode": "ec2", "QuotaCode": "L-1216C47A", "Value": 640.0, "Unit": "None"}})");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, 640.0);
  EXPECT_EQ(*ParseGetServiceQuota(R"({"Quota": {"Value": 5}})"), 5.0);
  EXPECT_FALSE(ParseGetServiceQuota(R"({"Quota": {}})"));
  EXPECT_FALSE(ParseGetServiceQuota(R"({"Quota": {"Value": "5"}})"));
  EXPECT_FALSE(ParseGetServiceQuota("not json"));
}

TEST(FleetCapacityTest, NearestNamesByEditDistance) {
  const std::vector<std::string> known = {"c6i.2xlarge",  "c6i.12xlarge", "c6id.2xlarge",
                                          "c6in.2xlarge", "m5.large",     "c7g.large"};
  EXPECT_EQ(NearestNames("c6i.2xlargee", known),
            (std::vector<std::string>{"c6i.2xlarge", "c6i.12xlarge", "c6id.2xlarge"}));
  EXPECT_EQ(NearestNames("c7g.lage", known, 1), std::vector<std::string>{"c7g.large"});
  // Equally near: the same family first.
  EXPECT_EQ(NearestNames("c6i.2xlargee", {"c6a.2xlarge", "c6i.12xlarge"}),
            (std::vector<std::string>{"c6i.12xlarge", "c6a.2xlarge"}));
  // Nothing near: no names rather than unrelated ones.
  EXPECT_TRUE(NearestNames("zzzzzzzz.zz", known).empty());
  EXPECT_TRUE(NearestNames("c7g.large", {}).empty());
}

TEST(FleetCapacityTest, DistinctTypesInRoleOrder) {
  EXPECT_EQ(FleetTypes(CapacityPlan()), (std::vector<std::string>{"c7g.4xlarge", "c6i.2xlarge"}));
  FleetPlan plan = CapacityPlan();
  plan.replicas = 0;
  plan.replica = {"r7g.large", Arch::kArm64};
  EXPECT_EQ(FleetTypes(plan), (std::vector<std::string>{"c7g.4xlarge", "c6i.2xlarge"}));
  plan.replicas = 1;
  EXPECT_EQ(FleetTypes(plan),
            (std::vector<std::string>{"c7g.4xlarge", "c6i.2xlarge", "r7g.large"}));
}

TEST(FleetCapacityTest, ArchitectureAgainstWhatTheProcessorRuns) {
  const std::vector<InstanceTypeInfo> types = {
      {"c7g.4xlarge", {"arm64"}, 16}, {"c6i.2xlarge", {"x86_64"}, 8}, {"c7g.large", {"arm64"}, 2}};
  EXPECT_EQ(ArchitectureRefusal(CapacityPlan(), types), "");
  FleetPlan plan = CapacityPlan();
  plan.server = {"c7g.large", Arch::kX86_64};
  EXPECT_EQ(ArchitectureRefusal(plan, types),
            "--server-instance c7g.large is arm64 only; --server-arch x86_64 cannot run on it: "
            "pass --server-arch arm64 or a type that runs x86_64");
  plan = CapacityPlan();
  plan.client = {"c6i.2xlarge", Arch::kArm64};
  EXPECT_NE(ArchitectureRefusal(plan, types).find("--client-arch arm64"), std::string::npos);
  // A replica's architecture only matters when there are replicas.
  plan = CapacityPlan();
  plan.replica = {"c6i.2xlarge", Arch::kArm64};
  EXPECT_NE(ArchitectureRefusal(plan, types).find("--replica-instance"), std::string::npos);
  plan.replicas = 0;
  EXPECT_EQ(ArchitectureRefusal(plan, types), "");
  // i386 beside x86_64 is still x86_64.
  plan = CapacityPlan();
  plan.client = {"c1.medium", Arch::kX86_64};
  EXPECT_EQ(ArchitectureRefusal(plan, {{"c1.medium", {"i386", "x86_64"}, 2}}), "");
}

TEST(FleetCapacityTest, TheFirstZoneOfferingEveryType) {
  const std::vector<std::string> types = {"hpc7g.16xlarge", "c6i.2xlarge"};
  const ZoneOffers offers = {{"us-east-1a", {"c6i.2xlarge"}},
                             {"us-east-1b", {"c6i.2xlarge"}},
                             {"us-east-1c", {"c6i.2xlarge", "hpc7g.16xlarge"}},
                             {"us-east-1d", {"c6i.2xlarge", "hpc7g.16xlarge"}}};
  auto zone = PickZone(offers, types, "us-east-1");
  ASSERT_TRUE(zone) << zone.error().message;
  EXPECT_EQ(*zone, "us-east-1c");

  auto none = PickZone({{"us-east-1a", {"c6i.2xlarge"}}, {"us-east-1c", {"hpc7g.16xlarge"}}}, types,
                       "us-east-1");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(none.error().message,
            "no availability zone of us-east-1 offers every instance type of the fleet "
            "(us-east-1a lacks hpc7g.16xlarge; us-east-1c lacks c6i.2xlarge): pick types one "
            "zone offers together, or another --region");
  auto nowhere = PickZone({}, types, "us-east-1");
  ASSERT_FALSE(nowhere);
  EXPECT_NE(nowhere.error().message.find("none of its zones offers hpc7g.16xlarge, c6i.2xlarge"),
            std::string::npos);
}

TEST(FleetCapacityTest, QuotaOfEachFamily) {
  const std::map<std::string, std::string> want = {
      {"c7g.large", "L-1216C47A"},       {"m5.large", "L-1216C47A"},
      {"i4i.large", "L-1216C47A"},       {"im4gn.large", "L-1216C47A"},
      {"z1d.large", "L-1216C47A"},       {"d3.xlarge", "L-1216C47A"},
      {"h1.2xlarge", "L-1216C47A"},      {"g5.xlarge", "L-DB2E81BA"},
      {"vt1.3xlarge", "L-DB2E81BA"},     {"p5.48xlarge", "L-417A185B"},
      {"x2idn.16xlarge", "L-7295265B"},  {"f2.6xlarge", "L-74FC7D96"},
      {"inf2.xlarge", "L-1945791B"},     {"trn1.2xlarge", "L-2C3B7624"},
      {"dl1.24xlarge", "L-6E869C2A"},    {"hpc7g.16xlarge", "L-F7808C92"},
      {"u-6tb1.56xlarge", "L-43DA4232"}, {"u7i-12tb.224xlarge", "L-43DA4232"}};
  for (const auto& [type, code] : want) {
    auto q = OnDemandVcpuQuota(type);
    ASSERT_TRUE(q) << type;
    EXPECT_EQ(q->code, code) << type;
  }
  EXPECT_FALSE(OnDemandVcpuQuota("mac2.metal"));
  EXPECT_FALSE(OnDemandVcpuQuota("q9.large"));
  EXPECT_FALSE(OnDemandVcpuQuota(""));
}

TEST(FleetCapacityTest, VcpusSummedPerQuota) {
  // 1 server and 2 replicas of 16 vCPUs, 3 clients of 8.
  std::vector<std::string> unchecked;
  EXPECT_EQ(VcpusPerQuota(CapacityPlan(), {{"c7g.4xlarge", 16}, {"c6i.2xlarge", 8}}, &unchecked),
            (std::map<std::string, int>{{"L-1216C47A", 72}}));
  EXPECT_TRUE(unchecked.empty());
  FleetPlan plan = CapacityPlan();
  plan.server = {"g5.xlarge", Arch::kX86_64};
  plan.replicas = 0;
  plan.client = {"mac2.metal", Arch::kArm64};
  EXPECT_EQ(VcpusPerQuota(plan, {{"g5.xlarge", 4}, {"mac2.metal", 12}}, &unchecked),
            (std::map<std::string, int>{{"L-DB2E81BA", 4}}));
  EXPECT_EQ(unchecked, std::vector<std::string>{"mac2.metal"});
}

EnvLookup ScriptedEndpoint(const std::string& url) {
  return [url](const std::string& name) -> std::optional<std::string> {
    if (name == "AWS_ENDPOINT_URL") return url;
    return std::nullopt;
  };
}

// A quota too small for the fleet: the emulator knows no EC2 quota codes (it answers
// NoSuchResourceException), so a scripted server stands in for Service Quotas here.
TEST(FleetCapacityTest, AQuotaTooSmallIsRefusedWithBothNumbers) {
  testing::ScriptedHttpServer server(
      {{200, R"({"Quota": {"ServiceCode": "ec2", "QuotaCode": "L-1216C47A", "Value": 32.0}})"}});
  const Client client({"AK", "S", "", "test"}, "us-east-1", ScriptedEndpoint(server.url()));
  auto st = CheckVcpuQuotas(client, CapacityPlan(), {{"c7g.4xlarge", 16}, {"c6i.2xlarge", 8}});
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kEnvironment);
  const std::string& line = st.error().message;
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find("needs 72 vCPUs"), std::string::npos) << line;
  EXPECT_NE(line.find("quota in us-east-1 is 32"), std::string::npos) << line;
  EXPECT_NE(line.find("--quota-code L-1216C47A --desired-value 72"), std::string::npos) << line;
  ASSERT_EQ(server.requests().size(), 1u);
  const std::string request = server.requests()[0];
  EXPECT_NE(request.find("ServiceQuotasV20190624.GetServiceQuota"), std::string::npos);
  EXPECT_NE(request.find(R"("QuotaCode":"L-1216C47A")"), std::string::npos) << request;
  EXPECT_NE(request.find("/servicequotas/aws4_request"), std::string::npos) << request;

  // Enough: no refusal.
  EXPECT_TRUE(CheckVcpuQuotas(client, CapacityPlan(), {{"c7g.4xlarge", 8}, {"c6i.2xlarge", 2}}));
}

// Denied: the emulator never checks permissions unless set up to, and then refuses everything.
TEST(FleetCapacityTest, AQuotaThatCannotBeReadIsNotARefusal) {
  testing::ScriptedHttpServer server(
      {{400, R"({"__type": "AccessDeniedException", "message": "not authorized"})"}});
  const Client client({"AK", "S", "", "test"}, "us-east-1", ScriptedEndpoint(server.url()));
  EXPECT_TRUE(CheckVcpuQuotas(client, CapacityPlan(), {{"c7g.4xlarge", 16}, {"c6i.2xlarge", 8}}));
}

}  // namespace
}  // namespace dfbench::aws
