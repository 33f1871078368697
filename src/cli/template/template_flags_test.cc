#include "cli/template/template_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"
#include "core/files.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::cli {
namespace {

const CommandLine<TemplateFlags, &AddTemplateFlags, &ToTemplatePlan> kTemplate{"template",
                                                                               {"--run-id", "t1"}};

TEST(TemplateFlags, DefaultsAreTheReferencesFleet) {
  const auto p = kTemplate.OptionsOf({});
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
  const auto p = kTemplate.OptionsOf({"--server-instance", "c7g.xlarge", "--server-arch", "arm64",
                                      "--client-instance", "c6i.large", "--client-arch", "x86_64",
                                      "--replicas", "2", "--ubuntu-version", "24.04", "--region",
                                      "eu-west-1"});
  EXPECT_EQ(p.server.type, "c7g.xlarge");
  EXPECT_EQ(p.server.arch, aws::Arch::kArm64);
  EXPECT_EQ(p.client.type, "c6i.large");
  EXPECT_EQ(p.replica.type, "c7g.xlarge");  // the server's, arch too
  EXPECT_EQ(p.replica.arch, aws::Arch::kArm64);
  EXPECT_EQ(p.replicas, 2);
  EXPECT_EQ(p.ubuntu_version, "24.04");
  EXPECT_EQ(p.region, "eu-west-1");
  const auto own = kTemplate.OptionsOf(
      {"--replicas", "1", "--replica-instance", "m6i.large", "--replica-arch", "x86_64"});
  EXPECT_EQ(own.replica.type, "m6i.large");
  EXPECT_EQ(own.replica.arch, aws::Arch::kX86_64);
}

TEST(TemplateFlags, ThePublicKeyIsItsFilesFirstLine) {
  testing::ScopedTempDir dir("template-flags");
  const std::string key = (dir.path() / "id.pub").string();
  ASSERT_TRUE(core::WriteFileAtomic(key, "ssh-rsa AAAAB3Nza me@host \r\nsecond line\n"));
  EXPECT_EQ(kTemplate.OptionsOf({"--public-key", key}).public_key, "ssh-rsa AAAAB3Nza me@host");
  const std::string not_key = (dir.path() / "not.pub").string();
  ASSERT_TRUE(core::WriteFileAtomic(not_key, "hello\n"));
  kTemplate.ExpectUsage(
      {"--public-key", not_key},
      "--public-key " + not_key + ": not an OpenSSH public key (expected ssh-rsa AAAA...)");
  const std::string missing = (dir.path() / "missing.pub").string();
  kTemplate.ExpectUsage({"--public-key", missing}, "--public-key " + missing + ": cannot read it");
}

TEST(TemplateFlags, BadFleetValuesAreOneUsageLineNamingTheFlag) {
  kTemplate.ExpectUsage({"--region", "Mars"},
                        "--region Mars: not an AWS region name (e.g. us-east-1)");
  kTemplate.ExpectUsage({"--server-arch", "sparc"}, "--server-arch sparc: use x86_64 or arm64");
  kTemplate.ExpectUsage({"--replicas", "1", "--replica-arch", "ppc"},
                        "--replica-arch ppc: use x86_64 or arm64");
  ExpectUsageErrorNaming("t3.large", [] {
    return kTemplate.OptionsOf({"--server-instance", "t3.large"});
  });
  testing::ScopedTempDir dir("template-flags");
  const std::string nowhere = (dir.path() / "no" / "stack.yaml").string();
  ExpectUsageErrorNaming(nowhere, [&] { return kTemplate.OptionsOf({"--out", nowhere}); });
}

}  // namespace
}  // namespace dfbench::cli
