#include "cli/aws_flags.h"

#include <regex>

#include "aws/prices.h"
#include "aws/region.h"
#include "cli/flag_ranges.h"
#include "core/log.h"

namespace dfbench::cli {
namespace {

// A public key only for checking a plan: a setup generates its own pair.
constexpr char kPlanCheckKey[] = "ssh-rsa AAAA dfbench-plan-check";

aws::Arch ArchOrExit(const std::string& value, const char* flag) {
  auto arch = aws::ParseArch(value);
  if (!arch)
    ExitWith(core::ErrorKind::kUsage, std::string(flag) + " " + value + ": use x86_64 or arm64");
  return *arch;
}

}  // namespace

void AddAwsFleetFlags(CLI::App* sub, AwsFleetFlags* f) {
  const FlagGroup group(sub, "AWS fleet");
  sub->add_option("--server-instance", f->server_instance,
                  "EC2 type of the engine host (no t2/t3/t3a/t4g/a1/mac*: cluster placement)")
      ->capture_default_str();
  sub->add_option("--client-instance", f->client_instance, "EC2 type of the load generator host")
      ->capture_default_str();
  sub->add_option("--server-arch", f->server_arch, "x86_64 or arm64 (Graviton: c7g, m7g, ...)")
      ->capture_default_str();
  sub->add_option("--client-arch", f->client_arch,
                  "x86_64 or arm64 (arm64 runs dfbench-linux-aarch64 from beside dfbench: "
                  "scripts/build-arm64.sh)")
      ->capture_default_str();
  AddRangedOption(sub, "--client-count", &f->client_count, NumberKind::kInteger,
                  "Client instances (1-16): a run splits its load among them and merges their "
                  "histograms");
  auto* replicas =
      sub->add_option(
             "--replicas", f->replicas,
             "Replica hosts to provision (0-16); with --provider local, replica engines on "
             "this machine")
          ->capture_default_str();
  WithRange(replicas, NumberKind::kInteger);
  sub->add_option("--replica-instance", f->replica_instance,
                  "EC2 type of each replica (default: --server-instance)");
  sub->add_option("--replica-arch", f->replica_arch,
                  "Architecture of each replica (default: --server-arch)");
  sub->add_option("--ubuntu-version", f->ubuntu_version,
                  "Ubuntu release of every host: 20.04, 22.04 or 24.04 (Canonical's AMIs)")
      ->capture_default_str();
  sub->add_option("--region", f->region,
                  "AWS region (default: AWS_REGION, AWS_DEFAULT_REGION, the profile's region, "
                  "else us-east-1)");
}

void ApplyAwsFleetFlags(const AwsFleetFlags& flags, scenarios::SetupOptions* o) {
  if (o->provider == state::ProviderKind::kLocal) o->local_replicas = flags.replicas;
  if (o->provider != state::ProviderKind::kAws) return;
  const aws::FleetPlan plan = ToFleetPlan(flags, o->id, kPlanCheckKey);
  o->aws.region = plan.region;
  o->aws.region_source = aws::ResolveRegion(flags.region, aws::ProcessEnv()).source;
  o->aws.server = plan.server;
  o->aws.client = plan.client;
  o->aws.replica = plan.replica;
  o->aws.replicas = plan.replicas;
  o->aws.clients = plan.clients;
  o->aws.ubuntu_version = plan.ubuntu_version;
}

aws::FleetPlan ToFleetPlan(const AwsFleetFlags& f, const std::string& setup_id,
                           const std::string& public_key) {
  static const std::regex kRegion("[a-z]{2}(-[a-z]+)+-[0-9]+");
  const aws::Region region = aws::ResolveRegion(f.region, aws::ProcessEnv());
  if (!std::regex_match(region.name, kRegion)) {
    ExitWith(core::ErrorKind::kUsage,
             (region.source == "--region"
                  ? "--region " + region.name
                  : "the region " + region.name + " (from " + region.source + ")") +
                 ": not an AWS region name (e.g. us-east-1)");
  }
  aws::FleetPlan plan;
  plan.setup_id = setup_id;
  plan.region = region.name;
  plan.server = {f.server_instance, ArchOrExit(f.server_arch, "--server-arch")};
  plan.client = {f.client_instance, ArchOrExit(f.client_arch, "--client-arch")};
  plan.replica = {
      f.replica_instance.empty() ? f.server_instance : f.replica_instance,
      f.replica_arch.empty() ? plan.server.arch : ArchOrExit(f.replica_arch, "--replica-arch")};
  plan.replicas = f.replicas;
  plan.clients = f.client_count;
  plan.ubuntu_version = f.ubuntu_version;
  plan.public_key = public_key;
  std::vector<std::string> warnings;
  OrExit(aws::ValidatePlan(plan, &warnings));
  for (const auto& w : warnings) core::Note(w);
  return plan;
}

std::string CostLine(const aws::FleetPlan& plan) {
  std::vector<std::string> types;
  for (const auto& role : aws::FleetRoles(plan)) {
    types.push_back(aws::InstanceOf(plan, role).type);
  }
  return aws::CostLine(types, plan.region);
}

}  // namespace dfbench::cli
