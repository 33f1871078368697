// A setup that fails after its stack exists, on the AWS emulator whose instances are the
// multi-host test bed's hosts: the client host's sshd is stopped, so the client instance never
// accepts SSH. quickstart must delete the stack (on failure and on Ctrl+C); setup keeps it for
// the user to look at and says what it costs and how to destroy it; list and info show it until
// destroy removes it. Skipped, saying why, without the bed or moto.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>

#include "aws/cloudformation.h"
#include "core/files.h"
#include "core/text.h"
#include "dfbench_runner.h"
#include "emulated_fleet_test.h"
#include "support/test_data.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;

// The last line of `text` (without its newline).
std::string LastLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

// Whether something accepts TCP connections on port 22 of `address`.
bool SshPortOpen(const char* address) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(22);
  ::inet_pton(AF_INET, address, &addr.sin_addr);
  const bool open = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return open;
}

// Stops the client host's sshd (the bed's own record of its pid), once for the whole binary:
// every test here wants a client that never takes SSH, and the bed is torn down afterwards.
// Fails the test when the port is still open after 10 s.
void StopClientSshd() {
  if (!SshPortOpen(Testbed::kClient)) return;
  const auto pid = core::ReadFile(Bed().base / "client" / "sshd.rootpid");
  ASSERT_TRUE(pid) << "the bed records no sshd pid for the client";
  ASSERT_EQ(::kill(std::stoi(core::Trim(*pid)), SIGTERM), 0);
  ASSERT_TRUE(WaitUntil([] { return !SshPortOpen(Testbed::kClient); }, std::chrono::seconds(10),
                        "the client's sshd to stop accepting connections"));
}

class AwsFailedSetupTest : public EmulatedFleetTest {
 protected:
  void SetUp() override {
    EmulatedFleetTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    StopClientSshd();
  }
};

// Flags of a setup on the bed (its hosts log in as root) whose hosts get `wait` to take SSH.
std::vector<std::string> FleetArgs(const std::string& command, const std::string& id,
                                   const std::string& wait) {
  return {command,      "--id", id,      "--provider", "aws", "--engines",  "redis",
          "--ssh-user", "root", "--yes", "--ssh-wait", wait,  "--ssh-cidr", "10.200.0.1/32"};
}

TEST_F(AwsFailedSetupTest, QuickstartDeletesTheStackWhenAHostNeverTakesSsh) {
  DfbenchRunner dfb("aws-qs-fail");
  CliResult r =
      dfb.Run(Concat(FleetArgs("quickstart", "qsfail", "5s"), kSmallRun), std::chrono::minutes(5));
  EXPECT_EQ(r.code, 5) << r.err;
  for (const std::string& part :
       {std::string("client (root@10.200.0.3) did not accept SSH within 5 s"),
        std::string("setup qsfail failed: deleting its stack dfbench-qsfail"),
        std::string("the stack dfbench-qsfail is deleted")}) {
    EXPECT_TRUE(Contains(r.err, part)) << part << "\n" << r.err;
  }
  EXPECT_EQ(LastLine(r.err),
            "dfbench: quickstart qsfail failed; its stack dfbench-qsfail is deleted, nothing is "
            "left running")
      << r.err;
  ExpectStackGone("qsfail");
  EXPECT_EQ(dfb.State("qsfail")["status"], "destroyed");
  r = dfb.Run({"list", "--all"});
  EXPECT_TRUE(Contains(r.out, "qsfail")) << r.out;
  EXPECT_FALSE(Contains(r.out, "~$")) << r.out;  // nothing held, nothing costed
}

TEST_F(AwsFailedSetupTest, QuickstartInterruptedWhileWaitingForSshDeletesTheStack) {
  DfbenchRunner dfb("aws-qs-int");
  core::Process run = dfb.Start(Concat(FleetArgs("quickstart", "qsint", "5m"), kSmallRun));
  // Interrupted during host setup: once it is trying to log in to the client.
  ASSERT_TRUE(dfb.WaitForBackgroundErr("client is not reachable yet", std::chrono::minutes(2)))
      << dfb.BackgroundErrTail();
  ASSERT_TRUE(StackOf("qsint"));
  dfb.Interrupt(&run);
  EXPECT_TRUE(Contains(dfb.BackgroundErrTail(), "setup qsint failed: deleting its stack"))
      << dfb.BackgroundErrTail();
  ExpectStackGone("qsint");
  EXPECT_EQ(dfb.State("qsint")["status"], "destroyed");
}

// A dropped SSH session to the machine running dfbench (SIGHUP) stops setup as Ctrl+C does: the
// stack is kept, recorded, and the last line says how to remove it.
TEST_F(AwsFailedSetupTest, SetupHungUpWhileWaitingForSshNamesTheStackLeftRunning) {
  DfbenchRunner dfb("aws-setup-hup");
  core::Process run = dfb.Start(FleetArgs("setup", "hup", "5m"));
  ASSERT_TRUE(dfb.WaitForBackgroundErr("client is not reachable yet", std::chrono::minutes(2)))
      << dfb.BackgroundErrTail();
  dfb.Interrupt(&run, std::chrono::seconds(30), SIGHUP);
  EXPECT_EQ(LastLine(dfb.BackgroundErrTail()),
            "dfbench: setup hup failed and its stack is still running: dfbench-hup "
            "(c6i.2xlarge, c5.2xlarge) in us-east-1, ~$0.680/hr on demand in us-east-1; delete "
            "it with: dfbench destroy --id hup")
      << dfb.BackgroundErrTail();
  ASSERT_TRUE(StackOf("hup"));
  CliResult r = dfb.Run({"destroy", "--id", "hup", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  ExpectStackGone("hup");
}

TEST_F(AwsFailedSetupTest, SetupKeepsTheStackSaysSoAndDestroyRemovesIt) {
  DfbenchRunner dfb("aws-setup-fail");
  CliResult r = dfb.Run(FleetArgs("setup", "kept", "5s"), std::chrono::minutes(5));
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_EQ(LastLine(r.err),
            "dfbench: setup kept failed and its stack is still running: dfbench-kept "
            "(c6i.2xlarge, c5.2xlarge) in us-east-1, ~$0.680/hr on demand in us-east-1; delete "
            "it with: dfbench destroy --id kept")
      << r.err;
  EXPECT_TRUE(Contains(r.err, "did not accept SSH within 5 s")) << r.err;
  auto stack = StackOf("kept");
  ASSERT_TRUE(stack) << stack.error().message;
  EXPECT_EQ(stack->status, "CREATE_COMPLETE");
  EXPECT_EQ(dfb.State("kept")["status"], "failed");

  r = dfb.Run({"list"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "COST SO FAR")) << r.out;
  EXPECT_TRUE(Contains(r.out, "kept  failed  us-east-1  c6i.2xlarge x86_64  c5.2xlarge x86_64  "))
      << r.out;
  EXPECT_TRUE(Contains(r.out, "~$0.0")) << r.out;  // a few seconds at $0.68/hr

  r = dfb.Run({"info", "--id", "kept"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& part :
       {std::string("Status:    failed\n"),
        std::string("  Cost:      ~$0.680/hr on demand in us-east-1; ~$0.0"),
        std::string("  Left:      setup failed and its stack is still running; delete it with: "
                    "dfbench destroy --id kept\n")}) {
    EXPECT_TRUE(Contains(r.out, part)) << part << "\n" << r.out;
  }

  r = dfb.Run({"destroy", "--id", "kept", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  ExpectStackGone("kept");
  EXPECT_EQ(dfb.State("kept")["status"], "destroyed");
  r = dfb.Run({"list", "--all"});
  EXPECT_FALSE(Contains(r.out, "~$")) << r.out;
}

}  // namespace
}  // namespace dfbench::testing
