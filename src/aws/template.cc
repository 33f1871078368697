#include "aws/template.h"

#include <cctype>
#include <set>

#include "core/format.h"

namespace dfbench::aws {
namespace {

// A YAML double-quoted scalar: safe for any text (ids, key comments, descriptions).
std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += core::Format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// The role's name in CamelCase (replica 1 → "Replica1"): its part of logical ids and output keys.
std::string RolePrefix(core::Role role) {
  std::string out;
  bool upper = true;
  for (char c : role.Name()) {
    if (c == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::string AmiParameterName(Arch arch) {
  return arch == Arch::kArm64 ? "UbuntuAmiArm64" : "UbuntuAmiAmd64";
}

// The tags of a resource as YAML list items, each line starting with `indent`.
std::string TagList(const FleetPlan& plan, const std::string& name, const std::string& indent,
                    const std::string& role = "") {
  auto item = [&](const std::string& key, const std::string& value) {
    return indent + "- Key: " + key + "\n" + indent + "  Value: " + Quote(value) + "\n";
  };
  std::string out = item("Name", name) + item("\"dfbench:setup\"", plan.setup_id);
  if (!role.empty()) out += item("\"dfbench:role\"", role);
  return out;
}

// The Tags block of a resource, indented for a resource's Properties.
std::string Tags(const FleetPlan& plan, const std::string& name, const std::string& role = "") {
  return "      Tags:\n" + TagList(plan, name, "        ", role);
}

// The VPC, its public subnet and the route to the internet. Tagged resources take `{tags}`.
std::string Network(const FleetPlan& plan, const std::string& base) {
  return core::Format(
      R"(  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: 10.0.0.0/16
      EnableDnsSupport: true
      EnableDnsHostnames: true
{tags}  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: 10.0.1.0/24
      AvailabilityZone: !If [ZoneGiven, !Ref AvailabilityZone, !Select [0, !GetAZs ""]]
      MapPublicIpOnLaunch: true
{tags}  InternetGateway:
    Type: AWS::EC2::InternetGateway
    Properties:
{tags}  GatewayAttachment:
    Type: AWS::EC2::VPCGatewayAttachment
    Properties:
      VpcId: !Ref Vpc
      InternetGatewayId: !Ref InternetGateway
  RouteTable:
    Type: AWS::EC2::RouteTable
    Properties:
      VpcId: !Ref Vpc
{tags}  DefaultRoute:
    Type: AWS::EC2::Route
    DependsOn: GatewayAttachment
    Properties:
      RouteTableId: !Ref RouteTable
      DestinationCidrBlock: 0.0.0.0/0
      GatewayId: !Ref InternetGateway
  SubnetRouteTableAssociation:
    Type: AWS::EC2::SubnetRouteTableAssociation
    Properties:
      SubnetId: !Ref Subnet
      RouteTableId: !Ref RouteTable
)",
      fmt::arg("tags", Tags(plan, base)));
}

// SSH only from the block of the SshCidr parameter (this machine's public address at setup);
// engine ports reachable only from instances in the group, never from the internet. The key
// pair, and one placement group: the same rack for every instance, whose sub-millisecond RTT
// keeps engine results comparable. The launch template requires IMDSv2 (session tokens), as
// accounts that enforce it refuse instances without.
std::string Access(const FleetPlan& plan, const std::string& base) {
  return core::Format(
      R"(  SecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: {description}
      VpcId: !Ref Vpc
      SecurityGroupIngress:
        - IpProtocol: tcp
          FromPort: 22
          ToPort: 22
          CidrIp: !Ref SshCidr
          Description: SSH from the machine running dfbench
{tags}  SecurityGroupSelfIngress:
    Type: AWS::EC2::SecurityGroupIngress
    Properties:
      GroupId: !GetAtt SecurityGroup.GroupId
      IpProtocol: "-1"
      SourceSecurityGroupId: !GetAtt SecurityGroup.GroupId
      Description: All traffic between fleet instances
  KeyPair:
    Type: AWS::EC2::KeyPair
    Properties:
      KeyName: {key_name}
      PublicKeyMaterial: {public_key}
{tags}  PlacementGroup:
    Type: AWS::EC2::PlacementGroup
    Properties:
      Strategy: cluster
{tags}  LaunchTemplate:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateData:
        MetadataOptions:
          HttpTokens: required
          HttpEndpoint: enabled
      TagSpecifications:
        - ResourceType: launch-template
          Tags:
{template_tags})",
      fmt::arg("description", Quote(base + ": SSH from one address block, all traffic only "
                                           "between fleet instances")),
      fmt::arg("template_tags", TagList(plan, base, "            ")),
      fmt::arg("key_name", Quote(base)), fmt::arg("public_key", Quote(plan.public_key)),
      fmt::arg("tags", Tags(plan, base)));
}

std::string InstanceResource(const FleetPlan& plan, const std::string& base, core::Role role) {
  const InstanceSpec& spec = InstanceOf(plan, role);
  std::string y = "  " + RolePrefix(role) + "Instance:\n    Type: AWS::EC2::Instance\n";
  // Instances install packages at boot: their route to the internet must exist first.
  y += "    DependsOn:\n      - DefaultRoute\n      - SubnetRouteTableAssociation\n";
  y += "    Properties:\n";
  y += "      ImageId: !Ref " + AmiParameterName(spec.arch) + "\n";
  y += "      InstanceType: " + Quote(spec.type) + "\n";
  y += "      KeyName: !Ref KeyPair\n      SubnetId: !Ref Subnet\n";
  y += "      SecurityGroupIds:\n        - !GetAtt SecurityGroup.GroupId\n";
  y += "      PlacementGroupName: !Ref PlacementGroup\n";
  y += "      LaunchTemplate:\n        LaunchTemplateId: !Ref LaunchTemplate\n";
  y += "        Version: !GetAtt LaunchTemplate.LatestVersionNumber\n";
  // Engines, memtier and dfly_bench builds do not fit the image's 8 GiB root volume.
  y += "      BlockDeviceMappings:\n        - DeviceName: /dev/sda1\n          Ebs:\n";
  y += "            VolumeSize: 40\n            VolumeType: gp3\n";
  y += "            DeleteOnTermination: true\n            Encrypted: true\n";
  y += Tags(plan, base + "-" + role.Name(), role.Name());
  return y;
}

std::string Outputs(const FleetPlan& plan) {
  std::string y = "Outputs:\n";
  for (const auto& role : FleetRoles(plan)) {
    const RoleOutputs keys = OutputKeys(role);
    const std::string resource = RolePrefix(role) + "Instance";
    const std::string name = role.Name();
    y += "  " + keys.instance_id + ":\n    Description: " + Quote("Instance id of the " + name) +
         "\n    Value: !Ref " + resource + "\n";
    y += "  " + keys.public_ip + ":\n    Description: " + Quote("Public IP of the " + name) +
         "\n    Value: !GetAtt " + resource + ".PublicIp\n";
    y += "  " + keys.private_ip + ":\n    Description: " + Quote("Private IP of the " + name) +
         "\n    Value: !GetAtt " + resource + ".PrivateIp\n";
  }
  return y;
}

}  // namespace

core::Result<std::string> StackName(const std::string& setup_id) {
  std::string name = "dfbench-" + setup_id;
  bool ok = !setup_id.empty() && name.size() <= 128;
  for (char c : setup_id) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '-');
  if (!ok) {
    return core::Fail(core::ErrorKind::kUsage,
                      "id '" + setup_id +
                          "' cannot name a CloudFormation stack: use letters, digits and '-' "
                          "(at most 120)");
  }
  return name;
}

std::string UbuntuAmiParameter(const std::string& ubuntu_version, Arch arch) {
  const char* volume = ubuntu_version >= "24.04" ? "ebs-gp3" : "ebs-gp2";
  return core::Format("/aws/service/canonical/ubuntu/server/{}/stable/current/{}/hvm/{}/ami-id",
                      ubuntu_version, UbuntuArchName(arch), volume);
}

std::vector<core::Role> FleetRoles(const FleetPlan& plan) {
  std::vector<core::Role> roles = {core::Role::Server(), core::Role::Client()};
  for (int i = 1; i < plan.clients; ++i) roles.push_back(core::Role::Client(i));
  for (int i = 0; i < plan.replicas; ++i) roles.push_back(core::Role::Replica(i));
  return roles;
}

const InstanceSpec& InstanceOf(const FleetPlan& plan, core::Role role) {
  if (role == core::Role::Server()) return plan.server;
  if (role.IsClient()) return plan.client;
  return plan.replica;
}

RoleOutputs OutputKeys(core::Role role) {
  const std::string p = RolePrefix(role);
  return {p + "InstanceId", p + "PublicIp", p + "PrivateIp"};
}

core::Status ValidatePlan(const FleetPlan& plan, std::vector<std::string>* warnings) {
  if (auto name = StackName(plan.setup_id); !name) return tl::unexpected(name.error());
  if (auto s = ValidateUbuntuVersion(plan.ubuntu_version); !s) return s;
  if (plan.replicas < 0 || plan.replicas > 16) {
    return core::Fail(core::ErrorKind::kUsage,
                      "--replicas " + std::to_string(plan.replicas) + ": use 0 to 16");
  }
  if (plan.clients < 1 || plan.clients > 16) {
    return core::Fail(core::ErrorKind::kUsage,
                      "--client-count " + std::to_string(plan.clients) + ": use 1 to 16");
  }
  if (plan.public_key.empty() || plan.public_key.find('\n') != std::string::npos) {
    return core::Fail(core::ErrorKind::kUsage, "the public key must be one OpenSSH key line");
  }
  struct Checked {
    const InstanceSpec* spec;
    const char* type_flag;
    const char* arch_flag;
  };
  std::vector<Checked> checks = {{&plan.server, "--server-instance", "--server-arch"},
                                 {&plan.client, "--client-instance", "--client-arch"}};
  if (plan.replicas > 0) checks.push_back({&plan.replica, "--replica-instance", "--replica-arch"});
  for (const auto& c : checks) {
    if (auto s = ValidateClusterPlacement(c.spec->type, c.type_flag); !s) return s;
  }
  for (const auto& c : checks) {
    std::string w = ArchMismatchWarning(c.spec->type, c.spec->arch, c.type_flag);
    if (!w.empty() && warnings != nullptr) warnings->push_back(std::move(w));
  }
  return core::Ok();
}

std::string RenderTemplate(const FleetPlan& plan) {
  const std::string base = "dfbench-" + plan.setup_id;
  const std::vector<core::Role> roles = FleetRoles(plan);
  std::string y = "AWSTemplateFormatVersion: \"2010-09-09\"\n";
  y += "Description: " +
       Quote(core::Format("dfbench fleet {} ({}): server {} {}, {} client {} {}, {} replica(s), "
                          "Ubuntu {}",
                          plan.setup_id, plan.region, plan.server.type, ArchName(plan.server.arch),
                          plan.clients, plan.client.type, ArchName(plan.client.arch), plan.replicas,
                          plan.ubuntu_version)) +
       "\n";
  // One AMI parameter per architecture in use (an unused parameter is a lint warning).
  std::set<Arch> arches;
  for (const auto& role : roles) arches.insert(InstanceOf(plan, role).arch);
  y += "Parameters:\n";
  for (Arch arch : arches) {
    y += "  " + AmiParameterName(arch) + ":\n";
    y += "    Type: AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>\n";
    y += "    Default: " + UbuntuAmiParameter(plan.ubuntu_version, arch) + "\n";
    y += "    Description: " +
         Quote("Canonical's Ubuntu " + plan.ubuntu_version + " image for " + ArchName(arch) +
               " instances") +
         "\n";
  }
  // Not in the plan: the address is found when setup runs, so a template rendered earlier
  // (`template`, --dry-run) is the one applied.
  y += "  SshCidr:\n    Type: String\n";
  y += "    AllowedPattern: \"^([0-9]{1,3}\\\\.){3}[0-9]{1,3}/([0-9]|[12][0-9]|3[0-2])$\"\n";
  y += "    Description: \"The only addresses SSH (22) is open to: this machine's at setup, or "
       "--ssh-cidr\"\n";
  // Also found by setup (the first zone offering every type); a template made without it
  // takes the region's first zone.
  y += "  AvailabilityZone:\n    Type: String\n    Default: \"\"\n";
  y += "    Description: \"The fleet's zone (empty: the region's first)\"\n";
  y += "Conditions:\n  ZoneGiven: !Not [!Equals [!Ref AvailabilityZone, \"\"]]\n";
  y += "Resources:\n";
  y += Network(plan, base);
  y += Access(plan, base);
  for (const auto& role : roles) y += InstanceResource(plan, base, role);
  y += Outputs(plan);
  return y;
}

}  // namespace dfbench::aws
