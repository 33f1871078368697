// The CloudFormation template of a benchmark fleet, rendered from a plan by a pure function:
// the same plan always gives the same YAML, so `dfbench template` previews exactly what setup
// applies. One stack holds everything, so DeleteStack removes everything.
//
// Resources: a VPC with one public subnet (public IPs on launch), an internet gateway and a
// route table with the default route; a security group open on 22 only to the block of the
// SshCidr parameter (given at CreateStack: this machine's address /32, or --ssh-cidr) and on
// every port only within itself (engine ports never public); the SSH key pair from the plan's
// public key (its subnet in the zone of the AvailabilityZone parameter, which setup gives as
// the one its checks found offering every type; the region's first zone when empty); a cluster
// placement group; a launch template that requires IMDSv2; the server,
// client and N replica instances on Canonical's Ubuntu AMIs (SSM parameters, one per
// architecture used) with encrypted root volumes. Every resource that takes tags carries
// `dfbench:setup` = setup id. Outputs: each role's instance id, public and private IP.
#pragma once

#include <string>
#include <vector>

#include "aws/instance_types.h"
#include "core/error.h"
#include "core/role.h"

namespace dfbench::aws {

struct InstanceSpec {
  std::string type;  // "c6i.2xlarge"
  Arch arch = Arch::kX86_64;
};

struct FleetPlan {
  std::string setup_id;
  std::string region;  // recorded in the template's description
  InstanceSpec server;
  InstanceSpec client;
  InstanceSpec replica;  // used when replicas > 0
  int replicas = 0;
  std::string ubuntu_version = "22.04";
  std::string public_key;  // one OpenSSH public key line ("ssh-rsa AAAA... comment")
  int clients = 1;         // client instances (core::Role::Client(0), ...), all of `client`'s type
};

// kUsage, one line, for what AWS would refuse later (instance families outside cluster
// placement, an Ubuntu release without Canonical AMIs, a setup id that cannot name a stack,
// a replica count outside 0..16 or a client count outside 1..16, an empty public key); architecture
// mismatches are appended to `warnings` (non-fatal).
core::Status ValidatePlan(const FleetPlan& plan, std::vector<std::string>* warnings);

// The stack of a setup: "dfbench-<id>". kUsage when the id has characters a stack name refuses
// (only letters, digits and '-'; at most 128 characters in all).
core::Result<std::string> StackName(const std::string& setup_id);

// Canonical's SSM parameter of the Ubuntu AMI: gp3 volumes for 24.04, gp2 before.
//   /aws/service/canonical/ubuntu/server/22.04/stable/current/arm64/hvm/ebs-gp2/ami-id
std::string UbuntuAmiParameter(const std::string& ubuntu_version, Arch arch);

// The roles of the plan's instances, in the order the ssh provider logs in to hosts: the server,
// the clients, then the replicas.
std::vector<core::Role> FleetRoles(const FleetPlan& plan);

// The instance type and architecture of one of the plan's roles.
const InstanceSpec& InstanceOf(const FleetPlan& plan, core::Role role);

// The Outputs keys of one role (replica 1 → "Replica1InstanceId", ...).
struct RoleOutputs {
  std::string instance_id;
  std::string public_ip;
  std::string private_ip;
};
RoleOutputs OutputKeys(core::Role role);

// The template. Expects a plan ValidatePlan accepted.
std::string RenderTemplate(const FleetPlan& plan);

}  // namespace dfbench::aws
