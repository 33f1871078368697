#include "core/files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

namespace dfbench::core {
namespace {

TEST(Files, AtomicWriteCreatesParentsAndReplaces) {
  auto dir = std::filesystem::path(testing::TempDir()) / "files_test" / "a" / "b";
  std::filesystem::remove_all(dir);
  auto path = dir / "x.json";
  ASSERT_TRUE(WriteFileAtomic(path, "first"));
  ASSERT_TRUE(WriteFileAtomic(path, "second"));
  EXPECT_EQ(*ReadFile(path), "second");
  // No temporary files left behind.
  int count = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++count;
  }
  EXPECT_EQ(count, 1);
}

TEST(Files, TreeBytesSumsRegularFilesWithoutFollowingLinks) {
  auto dir = std::filesystem::path(testing::TempDir()) / "files_test_tree";
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(WriteFileAtomic(dir / "a", std::string(1000, 'a')));
  ASSERT_TRUE(WriteFileAtomic(dir / "sub" / "b", std::string(24, 'b')));
  ASSERT_TRUE(MakeDirs(dir / "empty"));
  // A link to a big file elsewhere adds nothing.
  ASSERT_TRUE(WriteFileAtomic(dir.string() + "-big", std::string(5000, 'c')));
  std::filesystem::create_symlink(dir.string() + "-big", dir / "link");
  EXPECT_EQ(TreeBytes(dir), 1024u);
  EXPECT_EQ(TreeBytes(dir / "a"), 1000u);
  EXPECT_EQ(TreeBytes(dir / "empty"), 0u);
  EXPECT_EQ(TreeBytes(dir / "missing"), 0u);
  std::filesystem::remove_all(dir);
  std::filesystem::remove(dir.string() + "-big");
}

TEST(Files, ModeAppliesFromCreation) {
  auto path = std::filesystem::path(testing::TempDir()) / "files_test_mode" / "key";
  ASSERT_TRUE(WriteFileAtomic(path, "secret", 0600));
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(Files, DirsAre0700WhateverTheUmaskAndLeaveExistingOnesAlone) {
  const auto base = std::filesystem::path(testing::TempDir()) / "files_test_private";
  std::filesystem::remove_all(base);
  ASSERT_TRUE(MakeDirs(base));
  ASSERT_EQ(chmod(base.c_str(), 0755), 0);
  const mode_t saved = umask(0);
  auto made = MakeDirs(base / "a" / "b");
  umask(saved);
  ASSERT_TRUE(made) << made.error().message;
  struct stat st;
  ASSERT_EQ(stat(base.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  for (const auto& dir : {base / "a", base / "a" / "b"}) {
    ASSERT_EQ(stat(dir.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u) << dir;
  }
  ASSERT_TRUE(WriteFileAtomic(base / "file", "x"));
  EXPECT_FALSE(MakeDirs(base / "file" / "below"));
}

TEST(Files, MissingFileIsNotFound) {
  auto r = ReadFile("/nonexistent/dfbench/file");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kNotFound);
}

TEST(Files, ReadsOnlyRegularFilesWithoutWaitingOnAFifo) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "files_test_kinds";
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(MakeDirs(dir));
  ASSERT_EQ(mkfifo((dir / "fifo").c_str(), 0600), 0);
  for (const auto& path : {dir, dir / "fifo", std::filesystem::path("/dev/zero")}) {
    auto r = ReadFile(path);
    ASSERT_FALSE(r) << path;
    EXPECT_EQ(r.error().kind, ErrorKind::kUsage) << path;
    EXPECT_NE(r.error().message.find("not a regular file"), std::string::npos);
  }
}

TEST(Files, HeadStopsAtItsSizeAndReadFileAtTheCap) {
  const auto path = std::filesystem::path(testing::TempDir()) / "files_test_head";
  ASSERT_TRUE(WriteFileAtomic(path, "abcdef"));
  EXPECT_EQ(*ReadFileHead(path, 2), "ab");
  EXPECT_EQ(*ReadFileHead(path, 100), "abcdef");
  // Sparse: one byte past the cap, refused from its size alone.
  std::filesystem::resize_file(path, kMaxReadBytes + 1);
  auto r = ReadFile(path);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kUsage);
  EXPECT_NE(r.error().message.find("256 MiB"), std::string::npos) << r.error().message;
  std::filesystem::remove(path);
}

TEST(Files, OutputPathIsARegularFileInADirectoryThatExists) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "files_test_output";
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(MakeDirs(dir));
  EXPECT_EQ(*ResolveOutputPath(dir / "new.html"), dir / "new.html");
  ASSERT_TRUE(WriteFileAtomic(dir / "target.html", "old"));
  std::filesystem::create_symlink(dir / "target.html", dir / "link.html");
  EXPECT_EQ(*ResolveOutputPath(dir / "link.html"), dir / "target.html");
  ASSERT_TRUE(WriteOutputFile(dir / "link.html", "new"));
  EXPECT_EQ(*ReadFile(dir / "target.html"), "new");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.html"));
  for (const auto& refused : {dir, dir / "missing" / "x.html", std::filesystem::path("")}) {
    auto r = ResolveOutputPath(refused);
    ASSERT_FALSE(r) << refused;
    EXPECT_EQ(r.error().kind, ErrorKind::kUsage);
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
}

TEST(Files, TailStartsAtLineBoundary) {
  auto path = std::filesystem::path(testing::TempDir()) / "files_test_tail.log";
  std::string content;
  for (int i = 0; i < 100; ++i) content += "line " + std::to_string(i) + "\n";
  ASSERT_TRUE(WriteFileAtomic(path, content));
  std::string tail = ReadTail(path, 30);
  EXPECT_EQ(tail.rfind("line", 0), 0u);
  EXPECT_NE(tail.find("line 99\n"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::core
