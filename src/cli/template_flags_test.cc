#include "cli/template_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"
#include "core/files.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::cli {
namespace {

aws::FleetPlan TemplateOf(std::vector<std::string> args) {
  args.insert(args.begin(), {"--run-id", "t1"});
  return ToTemplatePlan(*ParseFlags("template", &AddTemplateFlags, std::move(args)));
}

void ExpectTemplateUsage(const std::vector<std::string>& args, const std::string& message) {
  ExpectExitError([&] { return TemplateOf(args); }, core::ErrorKind::kUsage, message);
}

TEST(TemplateFlags, DefaultsAreTheReferencesFleet) {
  const auto p = TemplateOf({});
  EXPECT_EQ(p.setup_id, "t1");
  EXPECT_EQ(p.region, "us-east-1");
  EXPECT_EQ(p.server.type, "c6i.2xlarge");
  EXPECT_EQ(p.server.arch, aws::Arch::kX86_64);
  EXPECT_EQ(p.client.type, "c5.2xlarge");
  EXPECT_EQ(p.replica.type, "c6i.2xlarge");  // the server's
  EXPECT_EQ(p.replicas, 0);
  EXPECT_EQ(p.ubuntu_version, "22.04");
  EXPECT_EQ(p.public_key.rfind("ssh-ed25519 ", 0), 0U);  // the placeholder
  EXPECT_NE(ParseErrorOf("template", &AddTemplateFlags, {}).find("--run-id"), std::string::npos);
}

TEST(TemplateFlags, EachFlagLandsInThePlan) {
  const auto p =
      TemplateOf({"--server-instance", "c7g.xlarge", "--server-arch", "arm64", "--client-instance",
                  "c6i.large", "--client-arch", "x86_64", "--replicas", "2", "--ubuntu-version",
                  "24.04", "--region", "eu-west-1"});
  EXPECT_EQ(p.server.type, "c7g.xlarge");
  EXPECT_EQ(p.server.arch, aws::Arch::kArm64);
  EXPECT_EQ(p.client.type, "c6i.large");
  EXPECT_EQ(p.replica.type, "c7g.xlarge");  // the server's, arch too
  EXPECT_EQ(p.replica.arch, aws::Arch::kArm64);
  EXPECT_EQ(p.replicas, 2);
  EXPECT_EQ(p.ubuntu_version, "24.04");
  EXPECT_EQ(p.region, "eu-west-1");
  const auto own = TemplateOf(
      {"--replicas", "1", "--replica-instance", "m6i.large", "--replica-arch", "x86_64"});
  EXPECT_EQ(own.replica.type, "m6i.large");
  EXPECT_EQ(own.replica.arch, aws::Arch::kX86_64);
}

TEST(TemplateFlags, ThePublicKeyIsItsFilesFirstLine) {
  testing::ScopedTempDir dir("template-flags");
  const std::string key = (dir.path() / "id.pub").string();
  ASSERT_TRUE(core::WriteFileAtomic(key, "ssh-rsa AAAAB3Nza me@host \r\nsecond line\n"));
  EXPECT_EQ(TemplateOf({"--public-key", key}).public_key, "ssh-rsa AAAAB3Nza me@host");
  const std::string not_key = (dir.path() / "not.pub").string();
  ASSERT_TRUE(core::WriteFileAtomic(not_key, "hello\n"));
  ExpectTemplateUsage(
      {"--public-key", not_key},
      "--public-key " + not_key + ": not an OpenSSH public key (expected ssh-rsa AAAA...)");
  const std::string missing = (dir.path() / "missing.pub").string();
  ExpectTemplateUsage({"--public-key", missing}, "--public-key " + missing + ": cannot read it");
}

TEST(TemplateFlags, BadFleetValuesAreOneUsageLineNamingTheFlag) {
  ExpectTemplateUsage({"--region", "Mars"},
                      "--region Mars: not an AWS region name (e.g. us-east-1)");
  ExpectTemplateUsage({"--server-arch", "sparc"}, "--server-arch sparc: use x86_64 or arm64");
  ExpectTemplateUsage({"--replicas", "1", "--replica-arch", "ppc"},
                      "--replica-arch ppc: use x86_64 or arm64");
  const auto burstable = ExitErrorOf([] { return TemplateOf({"--server-instance", "t3.large"}); });
  ASSERT_TRUE(burstable.has_value());
  EXPECT_EQ(burstable->kind, core::ErrorKind::kUsage);
  EXPECT_NE(burstable->message.find("t3.large"), std::string::npos) << burstable->message;
  testing::ScopedTempDir dir("template-flags");
  const std::string nowhere = (dir.path() / "no" / "stack.yaml").string();
  const auto out = ExitErrorOf([&] { return TemplateOf({"--out", nowhere}); });
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->message.find(nowhere), std::string::npos) << out->message;
}

}  // namespace
}  // namespace dfbench::cli
