// memtier's --data-import, --no-expiry and --generate-keys through the binary against a real
// redis-server: what the file holds is what the server holds after the run, read back on a
// control connection, and what memtier refuses is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/subprocess.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"

// Its own namespace: the test binary compiles its files as one (unity build).
namespace dfbench::import_cli {
namespace {

using testing::ScopedTempDir;
using testing::TestServer;

constexpr std::string_view kFile =
    "dumpflags, time, exptime, nbytes, nsuffix, it_flags, clsid, nkey, key, data\n"
    "0, 0, 600, 7, 0, 0, 1, 4, \"key1\", \"val1x\"\n"
    "0, 0, 0, 5, 0, 0, 1, 4, \"key2\", \"a\"\"b\"\n"
    "0, 0, 900, 8, 0, 0, 1, 4, \"key3\", \"z,\r\nzz\"\n";

class LoadgenImport : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = TestServer::StartRedis();
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    ASSERT_TRUE(core::WriteFileAtomic(file_, std::string(kFile)));
  }

  // Three SETs on one connection: each item of the file once.
  core::CapturedOutput Loadgen(std::vector<std::string> args) const {
    std::vector<std::string> argv = {
        LOADGEN_BINARY, "loadgen", "-p", std::to_string(server_->port()), "-t", "1", "-c", "1"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = core::RunCapture(argv, std::chrono::seconds(60));
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : core::CapturedOutput{};
  }
  std::vector<std::string> Import() const {
    return {"--data-import", file_.string(), "-n", "3", "--ratio", "1:0", "--hide-histogram"};
  }
  std::string Get(const std::string& key) {
    auto client = server_->Client();
    auto reply = client.Command({"GET", key});
    EXPECT_TRUE(reply) << reply.error().message;
    return reply ? reply->str : "";
  }
  int64_t Ttl(const std::string& key) {
    auto client = server_->Client();
    auto reply = client.Command({"TTL", key});
    EXPECT_TRUE(reply) << reply.error().message;
    return reply ? reply->integer : -3;
  }
  int64_t DbSize() {
    auto client = server_->Client();
    auto reply = client.Command({"DBSIZE"});
    return reply ? reply->integer : -1;
  }

  std::optional<TestServer> server_;
  ScopedTempDir dir_{"loadgen-import"};
  std::filesystem::path file_ = dir_ / "import.csv";
};

TEST_F(LoadgenImport, WritesExactlyTheFilesKeysValuesAndExpiry) {
  const auto out = Loadgen(Import());
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_NE(out.err.find("Reading keys from " + file_.string() + "... 3 keys read.\n"),
            std::string::npos)
      << out.err;
  EXPECT_EQ(DbSize(), 3);
  EXPECT_EQ(Get("key1"), "val1x");
  EXPECT_EQ(Get("key2"), "a\"b");
  EXPECT_EQ(Get("key3"), "z,\r\nzz");
  EXPECT_GT(Ttl("key1"), 500);
  EXPECT_LE(Ttl("key1"), 600);
  EXPECT_EQ(Ttl("key2"), -1);
  EXPECT_GT(Ttl("key3"), 800);
}

TEST_F(LoadgenImport, NoExpiryLeavesNoTtl) {
  auto args = Import();
  args.emplace_back("--no-expiry");
  const auto out = Loadgen(args);
  ASSERT_EQ(out.status.code, 0) << out.err;
  for (const char* key : {"key1", "key2", "key3"}) EXPECT_EQ(Ttl(key), -1) << key;
  EXPECT_EQ(Get("key1"), "val1x");
}

TEST_F(LoadgenImport, GenerateKeysWritesTheFilesValuesUnderGeneratedKeys) {
  auto args = Import();
  args.insert(args.end(), {"--generate-keys", "--key-pattern", "S:S", "--key-minimum", "1",
                           "--key-maximum", "3", "--key-prefix", "g-"});
  const auto out = Loadgen(args);
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(DbSize(), 3);
  EXPECT_EQ(Get("g-1"), "val1x");
  EXPECT_EQ(Get("g-2"), "a\"b");
  EXPECT_EQ(Get("g-3"), "z,\r\nzz");
}

TEST_F(LoadgenImport, GetsReadTheImportedKeys) {
  auto out = Loadgen(Import());
  ASSERT_EQ(out.status.code, 0) << out.err;
  out = Loadgen({"--data-import", file_.string(), "-n", "30", "--ratio", "0:1", "--json-out-file",
                 (dir_ / "gets.json").string()});
  ASSERT_EQ(out.status.code, 0) << out.err;
  const auto json = nlohmann::json::parse(core::ReadFile(dir_ / "gets.json").value_or(""), nullptr,
                                          /*allow_exceptions=*/false);
  // Every GET hit: it asked for a key of the file.
  EXPECT_EQ(json["ALL STATS"]["Gets"]["Count"], 30) << json.dump();
  EXPECT_EQ(json["ALL STATS"]["Gets"]["Misses/sec"], 0) << json.dump();
}

TEST_F(LoadgenImport, RefusesWhatMemtierRefuses) {
  const std::string file = file_.string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--no-expiry"}, "use --no-expiry only with --data-import"},
      {{"--data-import", file, "-d", "10"}, "--data-size cannot be specified when importing"},
      {{"--data-import", file, "-R"}, "--random-data cannot be specified when importing"},
      {{"--data-import", file, "--key-maximum", "5"},
       "use --key-minimum, --key-maximum and --key-prefix only with --generate-keys"},
      {{"--data-import", file, "--cluster-mode"}, "--cluster-mode cannot be specified"},
  };
  for (const auto& [args, why] : cases) {
    const auto out = Loadgen(args);
    EXPECT_EQ(out.status.code, 2) << why;
    EXPECT_NE(out.err.find(why), std::string::npos) << out.err;
  }
  EXPECT_EQ(DbSize(), 0);
}

TEST_F(LoadgenImport, AMalformedFileIsNamedWithItsLine) {
  ASSERT_TRUE(core::WriteFileAtomic(
      file_, std::string(kFile) + "0, 0, 0, 9, 0, 0, 1, 4, \"key4\", \"short\"\n"));
  const auto out = Loadgen(Import());
  EXPECT_EQ(out.status.code, 2);
  EXPECT_NE(out.err.find(file_.string() + ":6: data column is 5 bytes, the line says 7"),
            std::string::npos)
      << out.err;
  EXPECT_EQ(DbSize(), 0);
}

}  // namespace
}  // namespace dfbench::import_cli
