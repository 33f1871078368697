#include "providers/aws_preflight.h"

#include <gtest/gtest.h>
#include <sys/utsname.h>

#include "core/files.h"
#include "hosts/remote_facts.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;
using engines::VersionSpec;

// The architecture this machine is not: a build of this machine is wrong for it.
aws::Arch OtherArch() {
  utsname u{};
  uname(&u);
  return hosts::CanonicalArch(u.machine) == "aarch64" ? aws::Arch::kX86_64 : aws::Arch::kArm64;
}
aws::Arch ThisArch() {
  return OtherArch() == aws::Arch::kArm64 ? aws::Arch::kX86_64 : aws::Arch::kArm64;
}

TEST(AwsPreflightTest, ALocalBuildMustMatchTheHostArch) {
  const auto* redis = engines::FindEngine("redis");
  ASSERT_NE(redis, nullptr);
  // This test binary is a build of this machine's architecture.
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const VersionSpec local{VersionSpec::Kind::kLocalFile, self};
  EXPECT_TRUE(CheckEngineObtainable(*redis, local, "22.04", ThisArch(), "server"));
  auto refused = CheckEngineObtainable(*redis, local, "22.04", OtherArch(), "replicas");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(refused.error().message.find("--redis_version: " + self + " is built for "),
            std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("(the replicas (Ubuntu 22.04 "), std::string::npos)
      << refused.error().message;
  // An archive is only opened on the host.
  const VersionSpec archive{VersionSpec::Kind::kLocalFile, "/tmp/redis.tar.gz"};
  EXPECT_TRUE(CheckEngineObtainable(*redis, archive, "22.04", OtherArch(), "server"));
}

TEST(AwsPreflightTest, EveryKnownEngineIsObtainableOnBothArches) {
  for (const auto& spec : engines::KnownEngines()) {
    for (aws::Arch arch : {aws::Arch::kX86_64, aws::Arch::kArm64}) {
      for (const VersionSpec& v : {VersionSpec{}, VersionSpec{VersionSpec::Kind::kLatest, "latest"},
                                   VersionSpec{VersionSpec::Kind::kSystem, "system"}}) {
        EXPECT_TRUE(CheckEngineObtainable(spec, v, "22.04", arch, "server"))
            << spec.name << " " << aws::ArchName(arch) << " " << v.value;
      }
    }
  }
}

TEST(AwsPreflightTest, NoBuildAndNoSourceIsRefused) {
  // An engine whose project publishes neither builds nor sources: nothing apt could change.
  engines::EngineSpec spec{.name = "nobuild",
                           .program = "nobuild-server",
                           .protocol = core::Protocol::kRedis,
                           .versioned_builds = true};
  auto refused = CheckEngineObtainable(spec, VersionSpec{}, "24.04", aws::Arch::kArm64, "server");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "nobuild for the server (Ubuntu 24.04 arm64): no nobuild build is published for "
            "Ubuntu 24.04 (aarch64) and it has no source release; pass --nobuild_version with a "
            "local build, or --nobuild_binary PATH");
}

TEST(AwsPreflightTest, KeyMaterial) {
  testing::ScopedTempDir dir("preflight-key");
  KeyPair key{.private_key = dir / "id_rsa",
              .public_key = dir / "id_rsa.pub",
              .public_line = "ssh-rsa AAAAB3Nza dfbench-x",
              .generated = false};
  EXPECT_FALSE(CheckKeyMaterial(key));  // no private key
  ASSERT_TRUE(core::WriteFileAtomic(key.private_key, "private"));
  fs::permissions(key.private_key, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_TRUE(CheckKeyMaterial(key));
  fs::permissions(key.private_key, fs::perms::group_read, fs::perm_options::add);
  auto open = CheckKeyMaterial(key);
  ASSERT_FALSE(open);
  EXPECT_NE(open.error().message.find("is readable by others"), std::string::npos);
  fs::permissions(key.private_key, fs::perms::owner_read | fs::perms::owner_write);
  key.public_line = "garbage";
  EXPECT_FALSE(CheckKeyMaterial(key));
}

TEST(AwsPreflightTest, RunPreflightStopsAtTheFirstRefusal) {
  std::vector<std::string> ran;
  std::vector<PreflightCheck> checks = {
      {.what = "a",
       .run =
           [&] {
             ran.emplace_back("a");
             return core::Ok();
           }},
      {.what = "b",
       .run = [&]() -> core::Status {
         ran.emplace_back("b");
         return core::Fail(core::ErrorKind::kUsage, "b refused");
       }},
      {.what = "c",
       .run =
           [&] {
             ran.emplace_back("c");
             return core::Ok();
           }},
  };
  auto st = RunPreflight("x", checks);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "b refused");
  EXPECT_EQ(ran, (std::vector<std::string>{"a", "b"}));
  checks.erase(checks.begin() + 1);
  ran.clear();
  EXPECT_TRUE(RunPreflight("x", checks));
  EXPECT_EQ(ran, (std::vector<std::string>{"a", "c"}));
}

TEST(AwsPreflightTest, FleetChecksRunLocalOnesFirstThenReads) {
  SetupRequest request;
  request.engines = {engines::FindEngine("dragonfly"), engines::FindEngine("redis")};
  const aws::FleetPlan plan{.setup_id = "x",
                            .region = "us-east-1",
                            .server = {"c7g.large", aws::Arch::kArm64},
                            .client = {"c5.large", aws::Arch::kX86_64},
                            .replica = {"c7g.large", aws::Arch::kArm64},
                            .replicas = 1,
                            .ubuntu_version = "24.04",
                            .public_key = "ssh-rsa AAAA x"};
  const KeyPair key{.public_line = "ssh-rsa AAAA x"};
  // Never called here: the checks are only listed.
  const aws::Client client(aws::Credentials{}, "us-east-1");
  aws::CallerIdentity caller;
  std::vector<std::string> names;
  for (const auto& c : FleetPreflight(request, plan, key, client, &caller)) names.push_back(c.what);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "instance types and architectures", "the SSH key pair",
                       "engines for the server (Ubuntu 24.04 arm64)",
                       "engines for the replicas (Ubuntu 24.04 arm64)", "AWS credentials",
                       "the instance types in us-east-1", "an availability zone offering them",
                       "the Ubuntu 24.04 arm64 AMI", "the Ubuntu 24.04 x86_64 AMI",
                       "the On-Demand vCPU quotas"}));
}

}  // namespace
}  // namespace dfbench::providers
