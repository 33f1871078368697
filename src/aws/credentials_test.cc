#include "aws/credentials.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "aws/region.h"
#include "aws/shared_files.h"

namespace dfbench::aws {
namespace {

namespace fs = std::filesystem;

// Shared files and variables in a scratch HOME; the process environment is never read.
class CredentialsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = fs::path(::testing::TempDir()) /
            ("aws-creds-" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(home_);
    fs::create_directories(home_ / ".aws");
    vars_["HOME"] = home_.string();
    vars_["PATH"] = "/usr/bin:/bin";
  }
  EnvLookup Env() const {
    return [vars = vars_](const std::string& name) -> std::optional<std::string> {
      auto it = vars.find(name);
      if (it == vars.end() || it->second.empty()) return std::nullopt;
      return it->second;
    };
  }
  // What the chain finds, as "key|secret|token|source", or the error's message.
  std::string Loaded() const {
    auto c = LoadCredentials(Env());
    if (!c) return "error: " + c.error().message;
    return c->access_key_id + "|" + c->secret_access_key + "|" + c->session_token + "|" + c->source;
  }
  void Write(const fs::path& path, const std::string& text, bool executable = false) {
    std::ofstream(path) << text;
    if (executable) fs::permissions(path, fs::perms::owner_all);
  }

  fs::path home_;
  std::map<std::string, std::string> vars_;
};

TEST_F(CredentialsTest, EnvironmentComesFirst) {
  vars_["AWS_ACCESS_KEY_ID"] = "AKENV";
  vars_["AWS_SECRET_ACCESS_KEY"] = "secret";
  vars_["AWS_SESSION_TOKEN"] = "token";
  Write(home_ / ".aws/credentials",
        "[default]\naws_access_key_id = AKFILE\n"
        "aws_secret_access_key = s\n");
  EXPECT_EQ(Loaded(), "AKENV|secret|token|environment");
}

TEST_F(CredentialsTest, HalfSetEnvironmentIsOneLine) {
  vars_["AWS_ACCESS_KEY_ID"] = "AKENV";
  auto c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_EQ(c.error().message, "AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY");
}

TEST_F(CredentialsTest, DefaultProfileFromCredentialsFile) {
  Write(home_ / ".aws/credentials",
        "# comment\n[default]\naws_access_key_id = AKDEF\naws_secret_access_key = sdef\n"
        "\n[other]\naws_access_key_id=AKOTHER\naws_secret_access_key=sother\n");
  EXPECT_EQ(Loaded(), "AKDEF|sdef||profile default");
}

TEST_F(CredentialsTest, NamedProfileFromConfigFileAndOverride) {
  Write(home_ / ".aws/config",
        "[default]\nregion = eu-west-1\n[profile dev]\nregion = us-west-2\n"
        "aws_access_key_id = AKCFG\naws_secret_access_key = scfg\n"
        "s3 =\n  max_concurrent_requests = 20\n");
  vars_["AWS_PROFILE"] = "dev";
  auto c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->access_key_id, "AKCFG");
  EXPECT_EQ(ResolveRegion("", Env()).name, "us-west-2");
  EXPECT_EQ(ResolveRegion("ap-south-1", Env()).name, "ap-south-1");
  vars_["AWS_DEFAULT_REGION"] = "ca-central-1";
  EXPECT_EQ(ResolveRegion("", Env()).name, "ca-central-1");
  vars_["AWS_REGION"] = "sa-east-1";
  EXPECT_EQ(ResolveRegion("", Env()).name, "sa-east-1");

  // The credentials file wins over the config file for the same profile.
  Write(home_ / ".aws/credentials",
        "[dev]\naws_access_key_id = AKCRED\n"
        "aws_secret_access_key = scred\n");
  c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->access_key_id, "AKCRED");
}

TEST_F(CredentialsTest, FilesFromTheirVariables) {
  Write(home_ / "creds.ini", "[ci]\naws_access_key_id = AKCI\naws_secret_access_key = s\n");
  Write(home_ / "config.ini", "[profile ci]\nregion = eu-north-1\n");
  vars_["AWS_SHARED_CREDENTIALS_FILE"] = (home_ / "creds.ini").string();
  vars_["AWS_CONFIG_FILE"] = (home_ / "config.ini").string();
  vars_["AWS_PROFILE"] = "ci";
  auto c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->access_key_id, "AKCI");
  EXPECT_EQ(ResolveRegion("", Env()).name, "eu-north-1");
}

TEST_F(CredentialsTest, MissingProfileAndNoCredentials) {
  auto c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(c.error().message.find("no AWS credentials"), std::string::npos);
  EXPECT_EQ(ResolveRegion("", Env()).source, "default");

  vars_["AWS_PROFILE"] = "nope";
  c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("AWS profile 'nope' not found"), std::string::npos);
}

TEST_F(CredentialsTest, MalformedFileNamesTheLine) {
  Write(home_ / ".aws/credentials", "[default]\nthis is not ini\n");
  auto c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(c.error().message.find("credentials:2: not an INI line"), std::string::npos);
}

TEST_F(CredentialsTest, CredentialProcessIsRunAndParsed) {
  Write(home_ / "creds.sh",
        "#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": \"AKPROC\", "
        "\"SecretAccessKey\": \"sproc\", \"SessionToken\": \"tproc\", "
        "\"Expiration\": \"2999-01-01T00:00:00Z\"}'\n",
        true);
  Write(home_ / ".aws/config",
        "[profile proc]\ncredential_process = " + (home_ / "creds.sh").string() + " --flag\n");
  vars_["AWS_PROFILE"] = "proc";
  EXPECT_EQ(Loaded(), "AKPROC|sproc|tproc|profile proc (credential_process)");
}

TEST_F(CredentialsTest, FailingCredentialProcessSaysWhy) {
  Write(home_ / "creds.sh", "#!/bin/sh\necho 'vault is sealed' >&2\nexit 3\n", true);
  Write(home_ / ".aws/config",
        "[default]\ncredential_process = " + (home_ / "creds.sh").string() + "\n");
  auto c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(c.error().message.find("exit code 3"), std::string::npos) << c.error().message;
  EXPECT_NE(c.error().message.find("vault is sealed"), std::string::npos);
}

TEST_F(CredentialsTest, ExpiredProcessCredentialsGiveTheAdvice) {
  auto c = ParseProcessCredentials(
      R"({"Version": 1, "AccessKeyId": "A", "SecretAccessKey": "S",
          "Expiration": "2020-01-01T00:00:00+00:00"})",
      "test");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, kExpiredCredentialsAdvice);
  EXPECT_FALSE(ParseProcessCredentials("not json", "test"));
  EXPECT_FALSE(ParseProcessCredentials(R"({"Version": 2, "AccessKeyId": "A"})", "test"));
  EXPECT_TRUE(ParseProcessCredentials(
      R"({"Version": 1, "AccessKeyId": "A", "SecretAccessKey": "S",
          "Expiration": "2999-01-01T00:00:00.000Z"})",
      "test"));
}

TEST_F(CredentialsTest, SsoProfileUsesTheAwsCli) {
  // A stand-in `aws` on PATH records its arguments; the real CLI needs a live SSO session.
  fs::create_directories(home_ / "bin");
  Write(home_ / "bin/aws",
        "#!/bin/sh\necho \"$@\" > " + (home_ / "aws-args").string() +
            "\necho '{\"Version\": 1, \"AccessKeyId\": \"AKSSO\", \"SecretAccessKey\": \"s\", "
            "\"SessionToken\": \"t\"}'\n",
        true);
  Write(home_ / ".aws/config",
        "[profile sso]\nsso_session = corp\nsso_account_id = 1\n"
        "[sso-session corp]\nsso_start_url = https://example.awsapps.com/start\n");
  vars_["AWS_PROFILE"] = "sso";
  vars_["PATH"] = (home_ / "bin").string() + ":/usr/bin:/bin";
  // FindOnPath reads the process's PATH; restored when the test ends.
  const std::string saved_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  struct RestorePath {
    std::string value;
    ~RestorePath() { ::setenv("PATH", value.c_str(), 1); }
  } restore{saved_path};
  ::setenv("PATH", vars_["PATH"].c_str(), 1);
  auto c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->access_key_id, "AKSSO");
  std::ifstream args(home_ / "aws-args");
  std::string line;
  std::getline(args, line);
  EXPECT_EQ(line, "configure export-credentials --profile sso --format process");

  // An expired SSO session, in the CLI's words.
  Write(home_ / "bin/aws",
        "#!/bin/sh\necho 'Error loading SSO Token: Token for corp does not exist' >&2\n"
        "echo 'The SSO session associated with this profile has expired or is otherwise "
        "invalid.' >&2\nexit 255\n",
        true);
  c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, kExpiredCredentialsAdvice);
}

TEST(IniTest, SectionsKeysAndComments) {
  auto ini = ParseIni("; top\n[a]\nKey = v = w\n[ profile b ]\nx=\n  nested = 1\ny = 2\n", "f");
  ASSERT_TRUE(ini) << ini.error().message;
  EXPECT_EQ((*ini)["a"]["key"], "v = w");
  EXPECT_EQ((*ini)["profile b"]["x"], "");
  EXPECT_EQ((*ini)["profile b"].count("nested"), 0u);
  EXPECT_EQ((*ini)["profile b"]["y"], "2");
  EXPECT_FALSE(ParseIni("key = before any section\n", "f"));
}

}  // namespace
}  // namespace dfbench::aws
