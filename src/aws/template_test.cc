#include "aws/template.h"

#include <gtest/gtest.h>

#include "aws/instance_types.h"
#include "aws/prices.h"

namespace dfbench::aws {
namespace {

// The roles as the template and the stack's tags spell them.
std::vector<std::string> RoleNames(const std::vector<core::Role>& roles) {
  std::vector<std::string> names;
  names.reserve(roles.size());
  for (const auto& role : roles) names.push_back(role.Name());
  return names;
}

FleetPlan Plan(int replicas = 0) {
  return {.setup_id = "perf-may",
          .region = "us-east-1",
          .server = {"c7g.4xlarge", Arch::kArm64},
          .client = {"c6i.2xlarge", Arch::kX86_64},
          .replica = {"c7g.4xlarge", Arch::kArm64},
          .replicas = replicas,
          .ubuntu_version = "22.04",
          .public_key = "ssh-rsa AAAAB3Nza test@example"};
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(TemplateTest, HoldsTheWholeFleet) {
  const std::string y = RenderTemplate(Plan(2));
  for (const char* type :
       {"AWS::EC2::VPC", "AWS::EC2::Subnet", "AWS::EC2::InternetGateway",
        "AWS::EC2::VPCGatewayAttachment", "AWS::EC2::RouteTable", "AWS::EC2::Route",
        "AWS::EC2::SubnetRouteTableAssociation", "AWS::EC2::SecurityGroup",
        "AWS::EC2::SecurityGroupIngress", "AWS::EC2::KeyPair", "AWS::EC2::PlacementGroup",
        "AWS::EC2::LaunchTemplate"}) {
    EXPECT_EQ(Count(y, "Type: " + std::string(type) + "\n"), 1u) << type;
  }
  EXPECT_EQ(Count(y, "Type: AWS::EC2::Instance\n"), 4u);
  for (const char* name :
       {"ServerInstance:", "ClientInstance:", "Replica0Instance:", "Replica1Instance:"}) {
    EXPECT_NE(y.find(std::string("  ") + name + "\n"), std::string::npos) << name;
  }
  EXPECT_NE(y.find("MapPublicIpOnLaunch: true"), std::string::npos);
  EXPECT_NE(y.find("DestinationCidrBlock: 0.0.0.0/0"), std::string::npos);
  EXPECT_NE(y.find("Strategy: cluster"), std::string::npos);
  EXPECT_NE(y.find("PublicKeyMaterial: \"ssh-rsa AAAAB3Nza test@example\""), std::string::npos);
  EXPECT_EQ(Count(y, "PlacementGroupName: !Ref PlacementGroup"), 4u);
  // VPC, subnet, gateway, route table, security group, key pair, placement group, 4 instances.
  EXPECT_EQ(Count(y, "Key: \"dfbench:setup\"\n          Value: \"perf-may\""), 11u);
  EXPECT_EQ(Count(y, "Key: \"dfbench:setup\"\n              Value: \"perf-may\""), 1u);  // launch
}

TEST(TemplateTest, OnlySshIsOpenAndOnlyToTheGivenBlock) {
  const std::string y = RenderTemplate(Plan(1));
  EXPECT_EQ(Count(y, "CidrIp:"), 1u);
  EXPECT_NE(y.find("FromPort: 22\n          ToPort: 22\n          CidrIp: !Ref SshCidr"),
            std::string::npos);
  EXPECT_NE(y.find("  SshCidr:\n    Type: String\n"), std::string::npos);
  EXPECT_EQ(y.find("0.0.0.0/0\n          Description: SSH"), std::string::npos);
  EXPECT_NE(y.find("IpProtocol: \"-1\"\n      SourceSecurityGroupId: !GetAtt "
                   "SecurityGroup.GroupId"),
            std::string::npos);
  EXPECT_EQ(y.find("6379"), std::string::npos);
}

// What accounts that enforce guardrails require of every instance.
TEST(TemplateTest, InstancesRequireImdsV2AndEncryptTheirVolumes) {
  const std::string y = RenderTemplate(Plan(1));
  EXPECT_NE(y.find("MetadataOptions:\n          HttpTokens: required\n"), std::string::npos);
  EXPECT_EQ(Count(y, "LaunchTemplateId: !Ref LaunchTemplate\n"), 3u);
  EXPECT_EQ(Count(y, "Encrypted: true\n"), 3u);
}

TEST(TemplateTest, OutputsEveryInstance) {
  const FleetPlan plan = Plan(1);
  EXPECT_EQ(RoleNames(FleetRoles(plan)),
            (std::vector<std::string>{"server", "client", "replica-0"}));
  const std::string y = RenderTemplate(plan);
  for (const auto& role : FleetRoles(plan)) {
    RoleOutputs keys = OutputKeys(role);
    EXPECT_NE(y.find("  " + keys.instance_id + ":\n"), std::string::npos) << role.Name();
    EXPECT_NE(y.find("  " + keys.public_ip + ":\n"), std::string::npos) << role.Name();
    EXPECT_NE(y.find("  " + keys.private_ip + ":\n"), std::string::npos) << role.Name();
  }
  EXPECT_EQ(OutputKeys(core::Role::Replica(0)).public_ip, "Replica0PublicIp");
  EXPECT_NE(y.find("Value: !GetAtt Replica0Instance.PrivateIp"), std::string::npos);
}

// Client instances beyond the first are client-2, client-3, ... of the client's type.
TEST(TemplateTest, SeveralClientsAreNumberedInstancesOfTheClientType) {
  FleetPlan plan = Plan(1);
  plan.clients = 3;
  EXPECT_EQ(RoleNames(FleetRoles(plan)),
            (std::vector<std::string>{"server", "client", "client-2", "client-3", "replica-0"}));
  EXPECT_EQ(&InstanceOf(plan, core::Role::Client(2)), &plan.client);
  EXPECT_EQ(&InstanceOf(plan, core::Role::Replica(0)), &plan.replica);
  const std::string y = RenderTemplate(plan);
  EXPECT_NE(y.find("  Client3Instance:\n"), std::string::npos);
  EXPECT_NE(y.find("Value: !GetAtt Client2Instance.PublicIp"), std::string::npos);
  std::vector<std::string> warnings;
  plan.clients = 0;
  EXPECT_EQ(ValidatePlan(plan, &warnings).error().message, "--client-count 0: use 1 to 16");
  plan.clients = 17;
  EXPECT_FALSE(ValidatePlan(plan, &warnings));
}

TEST(TemplateTest, AmiParametersPerArchitectureInUse) {
  EXPECT_EQ(UbuntuAmiParameter("22.04", Arch::kArm64),
            "/aws/service/canonical/ubuntu/server/22.04/stable/current/arm64/hvm/ebs-gp2/ami-id");
  EXPECT_EQ(UbuntuAmiParameter("24.04", Arch::kX86_64),
            "/aws/service/canonical/ubuntu/server/24.04/stable/current/amd64/hvm/ebs-gp3/ami-id");
  EXPECT_EQ(UbuntuAmiParameter("20.04", Arch::kX86_64),
            "/aws/service/canonical/ubuntu/server/20.04/stable/current/amd64/hvm/ebs-gp2/ami-id");

  std::string y = RenderTemplate(Plan());
  EXPECT_NE(y.find("UbuntuAmiArm64:\n    Type: AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>"),
            std::string::npos);
  EXPECT_NE(y.find("UbuntuAmiAmd64:"), std::string::npos);
  FleetPlan arm = Plan();
  arm.client = {"c7g.large", Arch::kArm64};
  y = RenderTemplate(arm);
  EXPECT_EQ(y.find("UbuntuAmiAmd64"), std::string::npos);
  EXPECT_EQ(Count(y, "ImageId: !Ref UbuntuAmiArm64"), 2u);
}

TEST(TemplateTest, SameplanSameYamlAndQuotedText) {
  EXPECT_EQ(RenderTemplate(Plan(1)), RenderTemplate(Plan(1)));
  FleetPlan plan = Plan();
  plan.public_key = "ssh-ed25519 AAAA \"quoted\" \\ comment";
  EXPECT_NE(RenderTemplate(plan).find(R"("ssh-ed25519 AAAA \"quoted\" \\ comment")"),
            std::string::npos);
}

// The zone is a parameter given at CreateStack: a preview and the applied template are one.
TEST(TemplateTest, TheSubnetIsInTheGivenZoneElseTheFirst) {
  const std::string y = RenderTemplate(Plan());
  EXPECT_EQ(Count(y,
                  "AvailabilityZone: !If [ZoneGiven, !Ref AvailabilityZone, !Select [0, "
                  "!GetAZs \"\"]]\n"),
            1u);
  EXPECT_NE(y.find("  AvailabilityZone:\n    Type: String\n    Default: \"\"\n"),
            std::string::npos);
  EXPECT_NE(y.find("  ZoneGiven: !Not [!Equals [!Ref AvailabilityZone, \"\"]]\n"),
            std::string::npos);
}

TEST(TemplateTest, ValidationRefusesWhatAwsWould) {
  std::vector<std::string> warnings;
  EXPECT_TRUE(ValidatePlan(Plan(1), &warnings));
  EXPECT_TRUE(warnings.empty());

  FleetPlan plan = Plan();
  plan.server.type = "t3.medium";
  auto s = ValidatePlan(plan, &warnings);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(s.error().message,
            "--server-instance t3.medium: cluster placement groups refuse the t3 family; use a c "
            "or m family: c5.large, c6i.large, c7g.large (arm64)");

  plan = Plan();
  plan.replica.type = "a1.large";  // not used without replicas
  EXPECT_TRUE(ValidatePlan(plan, &warnings));
  plan.replicas = 1;
  EXPECT_FALSE(ValidatePlan(plan, &warnings));

  plan = Plan();
  plan.ubuntu_version = "23.10";
  s = ValidatePlan(plan, &warnings);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "--ubuntu-version 23.10: use 20.04, 22.04 or 24.04");

  plan = Plan();
  plan.setup_id = "has_underscore";
  EXPECT_FALSE(ValidatePlan(plan, &warnings));
  EXPECT_FALSE(StackName("a.b"));
  EXPECT_EQ(*StackName("perf-may"), "dfbench-perf-may");

  plan = Plan();
  plan.server.arch = Arch::kX86_64;  // c7g is Graviton
  warnings.clear();
  EXPECT_TRUE(ValidatePlan(plan, &warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("--server-instance c7g.4xlarge is an arm64 family"), std::string::npos)
      << warnings[0];
}

TEST(InstanceTypesTest, FamiliesAndArchitectures) {
  for (const char* arm : {"c7g.large", "m7g.xlarge", "c6gn.16xlarge", "r8g.medium", "x2gd.large",
                          "im4gn.large", "c7gn.8xlarge", "g5g.xlarge", "a1.large"}) {
    EXPECT_EQ(FamilyArch(arm), Arch::kArm64) << arm;
  }
  for (const char* x86 : {"c5.large", "c6i.2xlarge", "c7i.4xlarge", "m5.large", "c6a.large",
                          "g5.xlarge", "c5n.9xlarge", "r6i.large", "m7i-flex.large"}) {
    EXPECT_EQ(FamilyArch(x86), Arch::kX86_64) << x86;
  }
  EXPECT_EQ(FamilyArch("c7g"), std::nullopt);
  EXPECT_EQ(FamilyArch("large.c7g"), std::nullopt);
  for (const char* refused : {"t2.micro", "t3.medium", "t3a.large", "t4g.small", "a1.xlarge",
                              "mac1.metal", "mac2-m2pro.metal"}) {
    EXPECT_FALSE(ValidateClusterPlacement(refused, "--server-instance")) << refused;
  }
  EXPECT_TRUE(ValidateClusterPlacement("trn1.2xlarge", "--server-instance"));
  auto s = ValidateClusterPlacement("bogus", "--client-instance");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            "--client-instance bogus: not an EC2 instance type (FAMILY.SIZE, e.g. c6i.2xlarge)");
  EXPECT_EQ(ArchMismatchWarning("c6i.large", Arch::kX86_64, "--server-instance"), "");
  EXPECT_EQ(ParseArch("arm64"), Arch::kArm64);
  EXPECT_EQ(ParseArch("aarch64"), std::nullopt);
}

TEST(PricesTest, ReferenceFigureHolds) {
  // The reference's README: two c7g.4xlarge in us-east-1 cost around $1.16/hr ($1.156).
  const FleetCost cost = EstimateFleetCost({"c7g.4xlarge", "c7g.4xlarge"}, "us-east-1");
  EXPECT_NEAR(cost.known_per_hour, 1.156, 0.0005);
  EXPECT_TRUE(cost.unknown.empty());
}

TEST(PricesTest, TableRegionsAndUnknowns) {
  EXPECT_NEAR(*HourlyPrice("c6i.2xlarge", "us-east-1"), 0.34, 1e-9);
  EXPECT_NEAR(*HourlyPrice("c5.2xlarge", "us-east-1"), 0.34, 1e-9);
  EXPECT_NEAR(*HourlyPrice("m7g.8xlarge", "us-east-1"), 1.3056, 1e-9);
  EXPECT_NEAR(*HourlyPrice("c6gn.8xlarge", "us-east-1"), 1.3824, 1e-9);
  EXPECT_NEAR(*HourlyPrice("c5.9xlarge", "us-east-1"), 1.53, 1e-9);
  EXPECT_GT(*HourlyPrice("c6i.large", "eu-west-1"), *HourlyPrice("c6i.large", "us-east-1"));
  EXPECT_EQ(HourlyPrice("c5.8xlarge", "us-east-1"), std::nullopt);  // c5 has no 8xlarge
  EXPECT_EQ(HourlyPrice("x2idn.large", "us-east-1"), std::nullopt);
  EXPECT_EQ(HourlyPrice("c6i.large", "af-south-1"), std::nullopt);
  const FleetCost cost = EstimateFleetCost({"c6i.2xlarge", "x9.large", "x9.large"}, "us-east-1");
  EXPECT_NEAR(cost.known_per_hour, 0.34, 1e-9);
  EXPECT_EQ(cost.unknown, std::vector<std::string>{"x9.large"});
}

TEST(PricesTest, CostLineNamesTheRateAndTheUnknownTypes) {
  EXPECT_EQ(CostLine({"c6i.2xlarge", "c5.2xlarge"}, "us-east-1"),
            "~$0.680/hr on demand in us-east-1");
  EXPECT_EQ(CostLine({"c6i.2xlarge", "x9.large"}, "us-east-1"),
            "~$0.340/hr on demand in us-east-1 plus price unknown for x9.large");
  EXPECT_EQ(CostLine({"x9.large", "x9.large"}, "us-east-1"),
            "price unknown for x9.large in us-east-1");
}

TEST(PricesTest, CostSoFarIsRateTimesHours) {
  EXPECT_NEAR(CostSoFar(0.68, std::chrono::hours(2)), 1.36, 1e-12);
  EXPECT_NEAR(CostSoFar(0.68, std::chrono::minutes(30)), 0.34, 1e-12);
  EXPECT_EQ(CostSoFar(0.68, std::chrono::seconds(0)), 0);
  EXPECT_EQ(CostSoFar(0.68, std::chrono::seconds(-60)), 0);  // a clock set back
  EXPECT_EQ(CostSoFarLine({"c6i.2xlarge", "c5.2xlarge"}, "us-east-1", std::chrono::hours(2)),
            "~$1.36 so far (2h0m up)");
  EXPECT_EQ(CostSoFarLine({"c6i.2xlarge"}, "us-east-1", std::chrono::minutes(17)),
            "~$0.10 so far (17m up)");
  EXPECT_EQ(CostSoFarLine({"x9.large"}, "us-east-1", std::chrono::hours(1)), "cost so far unknown");
}

}  // namespace
}  // namespace dfbench::aws
