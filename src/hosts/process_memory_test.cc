#include "hosts/process_memory.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "hosts/local_host.h"
#include "support/scoped_temp_dir.h"
#include "support/wait_until.h"

namespace dfbench::hosts {
namespace {

TEST(ProcessMemory, ParsesTheScriptOutput) {
  auto m = ParseProcessTreeMemory("2 3000 1500\n20000\n");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->processes, 2);
  EXPECT_EQ(m->rss_bytes, 3000u * 1024);
  EXPECT_EQ(m->pss_bytes, 1500u * 1024);
  EXPECT_EQ(m->mem_available_bytes, 20000u * 1024);
}

TEST(ProcessMemory, RejectsOutputWithoutProcesses) {
  EXPECT_FALSE(ParseProcessTreeMemory(""));
  EXPECT_FALSE(ParseProcessTreeMemory("0 0 0\n100\n"));
}

// A real tree: a shell whose forked children hold memory of their own; the children count.
TEST(ProcessMemory, CountsTheWholeTree) {
  testing::ScopedTempDir dir("process-memory");
  LocalHost host(dir.path());
  auto daemon = host.StartDaemon(
      {.argv = {"sh", "-c", "sleep 60 & sleep 60 & wait"}, .log_path = (dir / "log").string()});
  ASSERT_TRUE(daemon) << daemon.error().message;
  core::Result<ProcessTreeMemory> m;
  ASSERT_TRUE(testing::WaitUntil(
      [&] {
        m = ReadProcessTreeMemory(host, daemon->pid);
        return m && m->processes >= 3;
      },
      std::chrono::seconds(5), "both children forked"));
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_GE(m->processes, 3);
  EXPECT_GT(m->pss_bytes, 0u);
  EXPECT_GE(m->rss_bytes, m->pss_bytes);  // shared pages count whole in RSS, split in PSS
  EXPECT_GT(m->mem_available_bytes, 0u);
  ASSERT_TRUE(host.StopDaemon(*daemon, std::chrono::seconds(1)));
  EXPECT_FALSE(ReadProcessTreeMemory(host, daemon->pid));
}

}  // namespace
}  // namespace dfbench::hosts
