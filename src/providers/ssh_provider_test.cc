#include "providers/ssh_provider.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files.h"
#include "core/subprocess.h"
#include "providers/net_tune.h"
#include "providers/provider.h"
#include "providers/ssh_key.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;

TEST(SshKey, GeneratesAPairOpenSshAcceptsWithAPrivateMode) {
  const testing::ScopedTempDir scratch("ssh-key");
  const fs::path dir = scratch / "ssh";
  auto pair = EnsureKeyPair(dir, "dfbench-test");
  ASSERT_TRUE(pair) << pair.error().message;
  EXPECT_TRUE(pair->generated);
  struct stat st;
  ASSERT_EQ(stat(pair->private_key.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_EQ(pair->public_line.rfind("ssh-rsa AAAAB3NzaC1yc2E", 0), 0u) << pair->public_line;
  EXPECT_EQ(pair->public_line.substr(pair->public_line.rfind(' ') + 1), "dfbench-test");
  EXPECT_EQ(*core::ReadFile(pair->public_key), pair->public_line + "\n");
  EXPECT_FALSE(fs::exists(pair->private_key.string() + ".tmp"));
  if (core::FindOnPath("ssh-keygen")) {
    // OpenSSH derives the same public key from the private one, and sees 4096 bits.
    auto derived = core::RunCapture({"ssh-keygen", "-y", "-f", pair->private_key.string()});
    ASSERT_TRUE(derived && derived->status.ok()) << (derived ? derived->err : "");
    EXPECT_EQ(derived->out.substr(0, derived->out.find_last_not_of(" \n") + 1),
              pair->public_line.substr(0, pair->public_line.rfind(' ')));
    auto bits = core::RunCapture({"ssh-keygen", "-l", "-f", pair->public_key.string()});
    ASSERT_TRUE(bits);
    EXPECT_EQ(bits->out.rfind("4096 ", 0), 0u) << bits->out;
  }
  // A second call reuses the pair.
  auto again = EnsureKeyPair(dir, "dfbench-test");
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->generated);
  EXPECT_EQ(again->public_line, pair->public_line);
}

TEST(SshKey, PublicLineEncodesMpints) {
  // e = 65537, n = 0x80 0x01: the high bit of n needs a leading zero byte.
  std::string line = OpenSshRsaPublicLine(std::string("\x01\x00\x01", 3), "\x80\x01", "c");
  // blob: 00000007 "ssh-rsa" 00000003 010001 00000003 008001
  EXPECT_EQ(line, "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAAwCAAQ== c");
}

TEST(NetTune, CpuMasks) {
  EXPECT_EQ(CpuMaskHex({}), "0");
  EXPECT_EQ(CpuMaskHex({1}), "00000002");
  EXPECT_EQ(CpuMaskHex({16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}),
            "ffff0000");
  EXPECT_EQ(CpuMaskHex({32}), "00000001,00000000");
  EXPECT_EQ(CpuMaskHex({0, 63}), "80000000,00000001");
  EXPECT_NE(std::string(NetTuneScript()).find("rps_cpus"), std::string::npos);
}

state::SetupState WithSsh() {
  state::SetupState s;
  s.id = "lab";
  s.provider = state::ProviderKind::kSsh;
  s.provider_data.ssh = state::SshRecord{
      .user = "ubuntu",
      .port = 2222,
      .key_path = "/home/me/.dfbench/runs/lab/ssh/id_rsa",
      .key_generated = true,
      .hosts = {
          {.role = core::Role::Server(), .address = "10.0.0.2", .private_address = "192.168.0.2"},
          {.role = core::Role::Client(), .address = "10.0.0.3"},
          {.role = core::Role::Replica(0), .address = "10.0.0.4"}}};
  return s;
}

TEST(SshProvider, LoginEndpointsFromState) {
  auto s = WithSsh();
  EXPECT_EQ(SshRoles(s), (std::vector<core::Role>{core::Role::Server(), core::Role::Client(),
                                                  core::Role::Replica(0)}));
  auto server = LoginEndpoint(s, "server");
  ASSERT_TRUE(server);
  EXPECT_EQ(server->user, "ubuntu");
  EXPECT_EQ(server->host, "10.0.0.2");  // people log in on the address dfbench uses
  EXPECT_EQ(server->port, 2222);
  EXPECT_EQ(server->key_path, "/home/me/.dfbench/runs/lab/ssh/id_rsa");
  auto missing = LoginEndpoint(s, "replica-3");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("server, client, replica-0"), std::string::npos);
  state::SetupState local;
  local.id = "l";
  local.provider = state::ProviderKind::kLocal;
  EXPECT_TRUE(SshRoles(local).empty());
  EXPECT_EQ(LoginEndpoint(local, "server").error().kind, core::ErrorKind::kUsage);
}

TEST(SshProvider, ProvisionValidatesTheRequest) {
  auto provider = MakeProvider(state::ProviderKind::kSsh);
  EXPECT_EQ(provider->Name(), "ssh");
  state::SetupState s;
  s.id = "v";
  SetupRequest r;
  r.ssh.user = "root";
  r.ssh.hosts = {{core::Role::Server(), "10.200.0.2", ""}};  // no client
  auto st = provider->Provision(&s, r);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kUsage);
}

}  // namespace
}  // namespace dfbench::providers
