#include "providers/client_build.h"

#include <gtest/gtest.h>
#include <sys/utsname.h>

#include <filesystem>

#include "core/subprocess.h"
#include "hosts/remote_facts.h"

namespace dfbench::providers {
namespace {

using aws::Arch;

TEST(ClientLoadgenCheck, ClientArchsAreTheFlagAndTheFamily) {
  EXPECT_EQ(ClientArchs({"c5.2xlarge", Arch::kX86_64}), std::vector<Arch>{Arch::kX86_64});
  EXPECT_EQ(ClientArchs({"c7g.4xlarge", Arch::kArm64}), std::vector<Arch>{Arch::kArm64});
  // A Graviton family with the default --client-arch still boots arm64 hardware.
  EXPECT_EQ(ClientArchs({"c7g.4xlarge", Arch::kX86_64}),
            (std::vector<Arch>{Arch::kX86_64, Arch::kArm64}));
  EXPECT_EQ(ClientArchs({"c6i.large", Arch::kArm64}),
            (std::vector<Arch>{Arch::kArm64, Arch::kX86_64}));
}

// This test binary has no client build beside it: its own architecture is served, the other
// one is refused with the file and the command to make it.
TEST(ClientLoadgenCheck, OwnArchPassesOtherArchNamesWhatIsMissing) {
  struct utsname u;
  ASSERT_EQ(uname(&u), 0);
  const bool arm = hosts::CanonicalArch(u.machine) == "aarch64";
  const Arch own = arm ? Arch::kArm64 : Arch::kX86_64;
  const Arch other = arm ? Arch::kX86_64 : Arch::kArm64;
  auto binary = LoadgenForArch(own);
  ASSERT_TRUE(binary) << binary.error().message;
  EXPECT_EQ(*binary, core::SelfExecutable());
  EXPECT_TRUE(CheckClientLoadgen({arm ? "c7g.large" : "c5.large", own}));

  const std::string missing = (std::filesystem::path(core::SelfExecutable()).parent_path() /
                               (arm ? "dfbench-linux-x86_64" : "dfbench-linux-aarch64"))
                                  .string();
  ASSERT_FALSE(std::filesystem::exists(missing)) << missing;
  EXPECT_FALSE(LoadgenForArch(other));
  auto st = CheckClientLoadgen({arm ? "c5.large" : "c7g.4xlarge", own});
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(st.error().message.find(missing + " is missing"), std::string::npos)
      << st.error().message;
  // The family decided: the flag said the machine's own architecture.
  EXPECT_EQ(st.error().message.rfind(
                arm ? "client c5.large (x86_64): " : "client c7g.4xlarge (arm64): ", 0),
            0u)
      << st.error().message;
}

}  // namespace
}  // namespace dfbench::providers
