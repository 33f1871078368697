#include "hosts/ssh_command.h"

#include <gtest/gtest.h>

#include "core/subprocess.h"
#include "support/test_data.h"

namespace dfbench::hosts {
namespace {

// What /bin/sh makes of a quoted command line: the arguments it would pass, NUL-separated.
std::vector<std::string> ShellSplit(const std::string& command_line) {
  auto r = core::RunCapture({"/bin/sh", "-c", "printf '%s\\0' " + command_line});
  EXPECT_TRUE(r && r->status.ok());
  return testing::SplitNul(r ? r->out : "");
}

const std::vector<std::string> kHostile = {"plain",
                                           "",
                                           "two words",
                                           "semi;colon",
                                           "$(touch /tmp/dfbench-pwned)",
                                           "`id`",
                                           "'",
                                           "it's",
                                           "\"double\"",
                                           "back\\slash",
                                           "new\nline",
                                           "$HOME",
                                           "*",
                                           "~",
                                           "a'b'c",
                                           "--flag=x y",
                                           "tab\there",
                                           "!bang",
                                           "&& rm -rf /tmp/nothing",
                                           "|",
                                           ">out",
                                           "#comment"};

TEST(ShellQuote, RoundTripsThroughAShell) {
  EXPECT_EQ(ShellQuote("abc"), "'abc'");
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellSplit(ShellJoin(kHostile)), kHostile);
}

TEST(ShellJoinForDisplay, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(ShellJoinForDisplay({"ssh", "-i", "/home/a b/id_rsa", "root@10.0.0.1"}),
            "ssh -i '/home/a b/id_rsa' root@10.0.0.1");
  EXPECT_EQ(ShellJoinForDisplay({"echo", "", "$x"}), "echo '' '$x'");
}

SshEndpoint Endpoint() {
  return {.user = "ubuntu",
          .host = "10.200.0.2",
          .port = 2222,
          .key_path = "/k/id_rsa",
          .control_path = "/c/cm-server"};
}

bool HasOption(const std::vector<std::string>& argv, const std::string& option) {
  for (size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] == "-o" && argv[i + 1] == option) return true;
  }
  return false;
}

TEST(SshCommandArgv, QuotesTheRemoteCommandAndSharesTheConnection) {
  auto argv = SshCommandArgv(Endpoint(), {"printf", "%s\n", "a b", "$(x)"});
  EXPECT_EQ(argv.front(), "ssh");
  for (const char* o : {"BatchMode=yes", "StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null",
                        "LogLevel=ERROR", "ConnectTimeout=10", "ControlPath=/c/cm-server",
                        "ControlMaster=auto", "ControlPersist=300", "IdentitiesOnly=yes"}) {
    EXPECT_TRUE(HasOption(argv, o)) << o;
  }
  // The destination follows "--" so that no host can be read as an option; the remote command
  // is one argument.
  ASSERT_GE(argv.size(), 3u);
  EXPECT_EQ(argv[argv.size() - 3], "--");
  EXPECT_EQ(argv[argv.size() - 2], "ubuntu@10.200.0.2");
  EXPECT_EQ(argv.back(), "'printf' '%s\n' 'a b' '$(x)'");
  auto port = std::find(argv.begin(), argv.end(), "-p");
  ASSERT_NE(port, argv.end());
  EXPECT_EQ(*(port + 1), "2222");
  auto key = std::find(argv.begin(), argv.end(), "-i");
  ASSERT_NE(key, argv.end());
  EXPECT_EQ(*(key + 1), "/k/id_rsa");
}

TEST(SshCommandArgv, NoKeyNoSharing) {
  SshEndpoint e{.user = "root", .host = "h"};
  auto argv = SshCommandArgv(e, {"true"});
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "-i"), argv.end());
  for (const auto& a : argv) EXPECT_EQ(a.find("ControlPath"), std::string::npos);
}

TEST(SshMasterArgv, BackgroundsAfterLogin) {
  auto argv = SshMasterArgv(Endpoint());
  EXPECT_EQ(std::vector<std::string>(argv.begin(), argv.begin() + 4),
            (std::vector<std::string>{"ssh", "-M", "-N", "-f"}));
  EXPECT_EQ(argv.back(), "ubuntu@10.200.0.2");
  auto exit_argv = SshControlArgv(Endpoint(), "exit");
  EXPECT_NE(std::find(exit_argv.begin(), exit_argv.end(), "exit"), exit_argv.end());
  EXPECT_TRUE(HasOption(exit_argv, "ControlPath=/c/cm-server"));
}

TEST(MasterPidFromCheck, ReadsThePidOrZero) {
  EXPECT_EQ(MasterPidFromCheck("Master running (pid=41235)\r\n"), 41235);
  EXPECT_EQ(MasterPidFromCheck("Control socket connect(/c/cm): No such file or directory\n"), 0);
  EXPECT_EQ(MasterPidFromCheck("Master running (pid=12x)"), 0);
  EXPECT_EQ(MasterPidFromCheck("Master running (pid=77"), 0);
  EXPECT_EQ(MasterPidFromCheck(""), 0);
}

TEST(SshForwardArgv, ForwardsALoopbackPortOverTheSharedConnection) {
  EXPECT_EQ(ShellJoinForDisplay(SshForwardArgv(Endpoint(), "forward", 40001, "10.0.0.7", 6379)),
            "ssh -o ControlPath=/c/cm-server -o LogLevel=ERROR -O forward "
            "-L 127.0.0.1:40001:10.0.0.7:6379 -p 2222 -- ubuntu@10.200.0.2");
  auto cancel = SshForwardArgv(Endpoint(), "cancel", 40001, "fd00::7", 6379);
  EXPECT_NE(std::find(cancel.begin(), cancel.end(), "127.0.0.1:40001:[fd00::7]:6379"),
            cancel.end());
  EXPECT_NE(std::find(cancel.begin(), cancel.end(), "cancel"), cancel.end());
}

TEST(SshLoginArgv, MatchesWhatPeopleType) {
  EXPECT_EQ(ShellJoinForDisplay(SshLoginArgv(Endpoint())),
            "ssh -i /k/id_rsa -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
            "-o LogLevel=ERROR -p 2222 ubuntu@10.200.0.2");
  SshEndpoint e{.user = "root", .host = "10.0.0.1", .key_path = "/k"};
  auto argv = SshLoginArgv(e);
  EXPECT_EQ(argv.back(), "root@10.0.0.1");
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "-p"), argv.end());
}

TEST(PrivilegedArgv, SudoWithoutPromptWhenNotRoot) {
  EXPECT_EQ(PrivilegedArgv(true, {"apt-get", "install", "-y", "x"}),
            (std::vector<std::string>{"apt-get", "install", "-y", "x"}));
  EXPECT_EQ(PrivilegedArgv(false, {"apt-get", "update"}),
            (std::vector<std::string>{"sudo", "-n", "apt-get", "update"}));
}

TEST(ValidateEndpoint, RefusesOptionsAndShellText) {
  EXPECT_TRUE(ValidateEndpoint({.user = "ubuntu", .host = "ip-10-0-0-1.ec2.internal"}));
  EXPECT_TRUE(ValidateEndpoint({.user = "root", .host = "fd00::2"}));
  EXPECT_FALSE(ValidateEndpoint({.user = "root", .host = "-oProxyCommand=x"}));
  EXPECT_FALSE(ValidateEndpoint({.user = "root", .host = "a;b"}));
  EXPECT_FALSE(ValidateEndpoint({.user = "root", .host = ""}));
  EXPECT_FALSE(ValidateEndpoint({.user = "-l", .host = "h"}));
  EXPECT_FALSE(ValidateEndpoint({.user = "a b", .host = "h"}));
  EXPECT_FALSE(ValidateEndpoint({.user = "root", .host = "h", .port = 0}));
  EXPECT_FALSE(ValidateEndpoint({.user = "root", .host = "h", .port = 70000}));
}

}  // namespace
}  // namespace dfbench::hosts
