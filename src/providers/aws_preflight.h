// What aws setup checks before its first billable call (CreateStack): every refusal that needs
// no running instance. The checks are one list, run in order; the first that refuses stops
// setup with its line, and nothing is created in AWS. A check that becomes knowable before
// launch is one more entry in FleetPreflight.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "aws/client.h"
#include "aws/sts.h"
#include "aws/template.h"
#include "core/error.h"
#include "engines/engine.h"
#include "engines/install.h"
#include "providers/provider.h"
#include "providers/ssh_key.h"

namespace dfbench::providers {

struct PreflightCheck {
  std::string what;                   // "engines for the server (Ubuntu 22.04 arm64)"
  std::function<core::Status()> run;  // an error says what to change
};

// The checks of one fleet, in the order they run: the plan's instance types and
// architectures, the key pair, the engines for the server and for the replicas, the AWS
// credentials (sts:GetCallerIdentity, whose answer lands in `*caller`), the instance types
// in the region (ec2:DescribeInstanceTypes: each known there and running its role's
// architecture), one availability zone offering them all (ec2:DescribeInstanceTypeOfferings;
// the first in name order lands in `*availability_zone` when given), the Ubuntu AMI of each
// architecture in use (ssm:GetParameter), then the account's On-Demand vCPU quotas
// (servicequotas:GetServiceQuota; unreadable ones are a note). Reads, never launches: none is
// billed. The checks refer to `request`, `plan`, `key`, `client`, `caller` and
// `availability_zone`: run them while those live.
std::vector<PreflightCheck> FleetPreflight(const SetupRequest& request, const aws::FleetPlan& plan,
                                           const KeyPair& key, const aws::Client& client,
                                           aws::CallerIdentity* caller,
                                           std::string* availability_zone = nullptr);

// Runs `checks` in order: the first refusal as it is (each check's line names what it
// checked); else a line on stderr naming what passed.
core::Status RunPreflight(const std::string& setup_id, const std::vector<PreflightCheck>& checks);

// kUsage, one line, when `spec` at `version` cannot be had on a fresh Ubuntu `ubuntu_version`
// host of `arch`, whatever that host's apt offers: a local build (--<engine>_version FILE) for
// another architecture, or no build published for it and no source release. `role` names the
// host. Pure but for reading a local file's ELF header.
core::Status CheckEngineObtainable(const engines::EngineSpec& spec,
                                   const engines::VersionSpec& version,
                                   const std::string& ubuntu_version, aws::Arch arch,
                                   const std::string& role);

// kUsage unless the private key is readable by its owner only (ssh refuses it otherwise, on
// every host) and the public half is one "ssh-rsa <base64> ..." line.
core::Status CheckKeyMaterial(const KeyPair& key);

}  // namespace dfbench::providers
