#include "hosts/remote_facts.h"

#include <gtest/gtest.h>

#include "core/subprocess.h"

namespace dfbench::hosts {
namespace {

const char* kOutput = R"(@@uname
ip-10-0-1-42
6.8.0-1021-aws
aarch64
@@nproc
32
@@cpuinfo
@@lscpu
Model name:                           Neoverse-V1
@@meminfo
MemTotal:       131072000 kB
@@os
PRETTY_NAME="Ubuntu 22.04.5 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
@@addr
1: lo    inet 127.0.0.1/8 scope host lo\       valid_lft forever preferred_lft forever
2: ens5    inet 10.0.1.42/24 metric 100 brd 10.0.1.255 scope global dynamic ens5\       valid_lft 3412sec
3: ens6    inet 10.0.2.42/24 brd 10.0.2.255 scope global ens6\       valid_lft forever
@@route
default via 10.0.1.1 dev ens6 proto dhcp src 10.0.1.42 metric 100
@@queues
ens5 8
ens6 2
lo 1
)";

TEST(ParseFacts, ReadsEverySection) {
  auto f = ParseFacts(kOutput, "10.0.1.42");
  EXPECT_EQ(f.name, "ip-10-0-1-42");
  EXPECT_EQ(f.kernel, "6.8.0-1021-aws");
  EXPECT_EQ(f.arch, "aarch64");
  EXPECT_EQ(f.vcpus, 32);
  EXPECT_EQ(f.cpu_model, "Neoverse-V1");  // from lscpu: ARM's cpuinfo names no model
  EXPECT_EQ(f.memory_bytes, 131072000ull * 1024);
  EXPECT_EQ(f.os, "Ubuntu 22.04.5 LTS");
  EXPECT_EQ(f.nic, "ens5");  // the interface holding the engine address
  EXPECT_EQ(f.rx_queues, 8);
}

TEST(ParseFacts, FallsBackToTheDefaultRouteThenAnyQueuedNic) {
  auto f = ParseFacts(kOutput, "203.0.113.9");  // a public address not on the host (NAT)
  EXPECT_EQ(f.nic, "ens6");
  EXPECT_EQ(f.rx_queues, 2);
  f = ParseFacts("@@queues\nlo 1\neth0 4\n", "");
  EXPECT_EQ(f.nic, "eth0");
  EXPECT_EQ(f.rx_queues, 4);
  EXPECT_EQ(f.cpu_model, "unknown");
  f = ParseFacts("@@nproc\n4\n", "10.0.0.1");  // no queue information at all
  EXPECT_EQ(f.rx_queues, 0);
  EXPECT_EQ(f.nic, "");
}

TEST(RxQueues, ParsesListingsAndVethNames) {
  auto nics = ParseNicQueues("eth0 4\nbad line here\nlo 1\nx y\n");
  ASSERT_EQ(nics.size(), 2u);
  EXPECT_EQ(nics[0].name, "eth0");
  EXPECT_EQ(nics[0].rx_queues, 4);
  EXPECT_EQ(InterfaceWithAddress(
                "7: eth0@if8    inet 10.200.0.2/24 scope global eth0\\       valid_lft forever\n",
                "10.200.0.2"),
            "eth0");
  EXPECT_EQ(InterfaceWithAddress("2: ens5    inet6 fd00::2/64 scope global\n", "fd00::2"), "ens5");
  EXPECT_EQ(InterfaceWithAddress("2: ens5    inet 10.0.0.2/24\n", "10.0.0.20"), "");
  EXPECT_EQ(DefaultRouteInterface("default via 1.2.3.4 dev enp1s0 proto static\n"), "enp1s0");
  EXPECT_EQ(DefaultRouteInterface(""), "");
}

TEST(FactsScript, RunsUnderPosixShHere) {
  auto r = core::RunCapture({"/bin/sh", "-c", FactsScript()});
  ASSERT_TRUE(r && r->status.ok()) << (r ? r->err : r.error().message);
  auto f = ParseFacts(r->out, "127.0.0.1");
  EXPECT_GT(f.vcpus, 0);
  EXPECT_FALSE(f.kernel.empty());
  EXPECT_GT(f.memory_bytes, 0u);
  EXPECT_FALSE(f.os.empty());
}

TEST(Ports, ParsesProcNetTcpAndPicksAFreeOne) {
  const char* tcp =
      "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n"
      "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0\n"
      "   1: 00000000:4E20 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0\n"
      "   0: 00000000000000000000000001000000:4E21 00000000000000000000000000000000:0000 0A\n";
  auto used = PortsInUse(tcp);
  EXPECT_EQ(used, (std::set<int>{8080, 20000, 20001}));
  EXPECT_EQ(PickFreePort(used, 20000, 20005, 0), 20002);
  EXPECT_EQ(PickFreePort(used, 20000, 20005, 3), 20003);
  EXPECT_EQ(PickFreePort(used, 20000, 20002, 7), 0);
  // A connection lingering in TIME_WAIT (06) holds its port without listening.
  const std::string with_time_wait =
      std::string(tcp) +
      "   2: 0200C80A:18EB 0300C80A:9C40 06 00000000:00000000 03:00000000 00000000     0\n";
  EXPECT_EQ(ListeningPorts(with_time_wait), (std::set<int>{8080, 20000, 20001}));
  EXPECT_EQ(PortsInUse(with_time_wait), (std::set<int>{6379, 8080, 20000, 20001}));
}

TEST(CanonicalArch, OneSpellingPerArchitecture) {
  EXPECT_EQ(CanonicalArch("amd64"), "x86_64");
  EXPECT_EQ(CanonicalArch("x86_64"), "x86_64");
  EXPECT_EQ(CanonicalArch("arm64"), "aarch64");
  EXPECT_EQ(CanonicalArch("aarch64"), "aarch64");
  EXPECT_EQ(CanonicalArch("riscv64"), "riscv64");
}

TEST(SplitSections, IgnoresTextBeforeTheFirstMarker) {
  auto s = SplitSections("junk\n@@a\n1\n2\n@@b\n@@c\nx\n");
  EXPECT_EQ(s["a"], "1\n2\n");
  EXPECT_EQ(s["b"], "");
  EXPECT_EQ(s["c"], "x\n");
  EXPECT_EQ(s.count("junk"), 0u);
  EXPECT_EQ(OsReleaseField("PRETTY_NAME='Debian GNU/Linux 12 (bookworm)'\n", "PRETTY_NAME"),
            "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(MemTotalBytes("MemFree: 1 kB\n"), 0u);
}

}  // namespace
}  // namespace dfbench::hosts
