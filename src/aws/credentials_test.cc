#include "aws/credentials.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "aws/credential_sources.h"
#include "aws/region.h"
#include "aws/scripted_http_server_test.h"
#include "aws/shared_files.h"

namespace dfbench::aws {
namespace {

namespace fs = std::filesystem;
using testing::ScriptedHttpServer;
using testing::ScriptedReply;
using testing::SignedWith;

// STS replies as AWS words them.
std::string AssumedRoleReply(const std::string& action, const std::string& key) {
  return "<" + action + "Response xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><" + action +
         "Result><Credentials><AccessKeyId>" + key + "</AccessKeyId><SecretAccessKey>secret-" +
         key + "</SecretAccessKey><SessionToken>token-" + key +
         "</SessionToken><Expiration>2999-01-01T01:00:00Z</Expiration></Credentials>"
         "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/bench/s</Arn>"
         "</AssumedRoleUser></" +
         action + "Result></" + action + "Response>";
}
ScriptedReply AssumeRoleOk(const std::string& key) {
  return {200, AssumedRoleReply("AssumeRole", key)};
}
ScriptedReply WebIdentityOk(const std::string& key) {
  return {200, AssumedRoleReply("AssumeRoleWithWebIdentity", key)};
}
// What the container endpoint and IMDS serve.
ScriptedReply MetadataOk(const std::string& key) {
  return {200, R"({"Code": "Success", "Type": "AWS-HMAC", "AccessKeyId": ")" + key +
                   R"(", "SecretAccessKey": "s", "Token": "t",
                   "Expiration": "2999-01-01T00:00:00Z"})"};
}
// IMDSv2 answering with role "bench-role" and then `key`.
std::vector<ScriptedReply> ImdsScript(const std::string& key) {
  return {{200, "IMDSTOKEN"}, {200, "bench-role\n"}, MetadataOk(key)};
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

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
    // Never the real instance metadata service: tests that want one point it at 127.0.0.1.
    vars_["AWS_EC2_METADATA_DISABLED"] = "true";
  }
  // Instance metadata served by `server`.
  void UseImds(const ScriptedHttpServer& server) {
    vars_.erase("AWS_EC2_METADATA_DISABLED");
    vars_["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = server.url();
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

TEST_F(CredentialsTest, WebIdentityFromTheEnvironmentIsAnUnsignedCall) {
  ScriptedHttpServer sts({WebIdentityOk("AKWEB")});
  Write(home_ / "token", "eyJ.web.token\n");
  vars_["AWS_ENDPOINT_URL_STS"] = sts.url();
  vars_["AWS_WEB_IDENTITY_TOKEN_FILE"] = (home_ / "token").string();
  vars_["AWS_ROLE_ARN"] = "arn:aws:iam::123456789012:role/ci";
  vars_["AWS_ROLE_SESSION_NAME"] = "gha-run";
  auto c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->access_key_id, "AKWEB");
  EXPECT_EQ(c->session_token, "token-AKWEB");
  EXPECT_EQ(c->source, "web identity (AWS_WEB_IDENTITY_TOKEN_FILE)");
  EXPECT_EQ(c->expiration, ParseExpiration("2999-01-01T01:00:00Z"));
  ASSERT_EQ(sts.requests().size(), 1u);
  const std::string request = sts.requests()[0];
  EXPECT_EQ(SignedWith(request), "");
  EXPECT_FALSE(Has(request, "Authorization:")) << request;
  EXPECT_TRUE(Has(request, "Action=AssumeRoleWithWebIdentity&Version=2011-06-15")) << request;
  EXPECT_TRUE(Has(request, "RoleArn=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fci"));
  EXPECT_TRUE(Has(request, "RoleSessionName=gha-run"));
  EXPECT_TRUE(request.ends_with("&WebIdentityToken=eyJ.web.token")) << request;

  vars_.erase("AWS_ROLE_ARN");
  c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "AWS_WEB_IDENTITY_TOKEN_FILE is set without AWS_ROLE_ARN");
}

TEST_F(CredentialsTest, WebIdentityFromAProfile) {
  ScriptedHttpServer sts({WebIdentityOk("AKWEBPROF")});
  Write(home_ / "token", "jwt");
  Write(home_ / ".aws/config",
        "[profile eks]\nrole_arn = arn:aws:iam::1:role/pod\n"
        "web_identity_token_file = " +
            (home_ / "token").string() + "\n");
  vars_["AWS_PROFILE"] = "eks";
  vars_["AWS_ENDPOINT_URL_STS"] = sts.url();
  EXPECT_EQ(Loaded(), "AKWEBPROF|secret-AKWEBPROF|token-AKWEBPROF|profile eks (web identity)");
  ASSERT_EQ(sts.requests().size(), 1u);
  EXPECT_TRUE(Has(sts.requests()[0], "WebIdentityToken=jwt"));
  EXPECT_TRUE(Has(sts.requests()[0], "RoleSessionName=dfbench-"));
}

TEST_F(CredentialsTest, RoleFromSourceProfileIsAssumedWithItsKeys) {
  ScriptedHttpServer sts({AssumeRoleOk("AKROLE")});
  Write(home_ / ".aws/credentials",
        "[base]\naws_access_key_id = AKBASE\n"
        "aws_secret_access_key = sbase\n");
  Write(home_ / ".aws/config",
        "[profile bench]\nregion = eu-west-1\nrole_arn = arn:aws:iam::1:role/bench\n"
        "source_profile = base\nexternal_id = ext-42\nduration_seconds = 1800\n"
        "role_session_name = nightly\n");
  vars_["AWS_PROFILE"] = "bench";
  vars_["AWS_ENDPOINT_URL_STS"] = sts.url();
  EXPECT_EQ(Loaded(),
            "AKROLE|secret-AKROLE|token-AKROLE|profile bench (role_arn, source_profile base)");
  ASSERT_EQ(sts.requests().size(), 1u);
  const std::string request = sts.requests()[0];
  EXPECT_EQ(SignedWith(request), "AKBASE");
  EXPECT_TRUE(Has(request, "/eu-west-1/sts/aws4_request")) << request;
  EXPECT_TRUE(Has(request, "Action=AssumeRole&Version=2011-06-15"));
  EXPECT_TRUE(Has(request, "RoleArn=arn%3Aaws%3Aiam%3A%3A1%3Arole%2Fbench"));
  EXPECT_TRUE(Has(request, "RoleSessionName=nightly"));
  EXPECT_TRUE(Has(request, "ExternalId=ext-42"));
  EXPECT_TRUE(Has(request, "DurationSeconds=1800"));
}

TEST_F(CredentialsTest, SourceProfilesAreResolvedRecursively) {
  // bench -> ops (itself a role) -> base (keys): ops's role signs the request for bench's.
  ScriptedHttpServer sts({AssumeRoleOk("AKOPS"), AssumeRoleOk("AKBENCH")});
  Write(home_ / ".aws/config",
        "[profile bench]\nrole_arn = arn:aws:iam::1:role/bench\nsource_profile = ops\n"
        "[profile ops]\nrole_arn = arn:aws:iam::1:role/ops\nsource_profile = base\n"
        "[profile base]\naws_access_key_id = AKBASE\naws_secret_access_key = s\n"
        // A profile may name itself: its own keys then sign its role.
        "[profile self]\nrole_arn = arn:aws:iam::1:role/self\nsource_profile = self\n"
        "aws_access_key_id = AKSELF\naws_secret_access_key = s\n");
  vars_["AWS_ENDPOINT_URL_STS"] = sts.url();
  vars_["AWS_PROFILE"] = "bench";
  auto c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->access_key_id, "AKBENCH");
  auto requests = sts.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(SignedWith(requests[0]), "AKBASE");
  EXPECT_TRUE(Has(requests[0], "role%2Fops"));
  EXPECT_EQ(SignedWith(requests[1]), "AKOPS");
  EXPECT_TRUE(Has(requests[1], "role%2Fbench"));

  vars_["AWS_PROFILE"] = "self";
  c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(SignedWith(sts.requests().back()), "AKSELF");
  EXPECT_TRUE(Has(sts.requests().back(), "role%2Fself"));
}

TEST_F(CredentialsTest, MalformedRoleProfilesAreOneLine) {
  struct Case {
    std::string config;
    core::ErrorKind kind;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"[profile p]\nrole_arn = arn:r\nsource_profile = q\n"
       "[profile q]\nrole_arn = arn:q\nsource_profile = p\n",
       core::ErrorKind::kUsage, "AWS profiles form a source_profile cycle: p -> q -> p"},
      {"[profile p]\nrole_arn = arn:r\n", core::ErrorKind::kUsage,
       "AWS profile p has role_arn without source_profile, credential_source or "
       "web_identity_token_file"},
      {"[profile p]\nrole_arn = arn:r\ncredential_source = Laptop\n", core::ErrorKind::kUsage,
       "AWS profile p: credential_source must be Environment, Ec2InstanceMetadata or "
       "EcsContainer, not Laptop"},
      {"[profile p]\nrole_arn = arn:r\nsource_profile = q\ncredential_source = Environment\n",
       core::ErrorKind::kUsage, "AWS profile p has both source_profile and credential_source"},
      {"[profile p]\nrole_arn = arn:r\nsource_profile = q\nduration_seconds = 1h\n",
       core::ErrorKind::kUsage, "AWS profile p: duration_seconds is not a number of seconds: 1h"},
      {"[profile p]\nrole_arn = arn:r\nsource_profile = gone\n", core::ErrorKind::kEnvironment,
       "AWS profile p names source_profile 'gone', which is not in "},
      {"[profile p]\nrole_arn = arn:r\ncredential_source = Ec2InstanceMetadata\n",
       core::ErrorKind::kEnvironment,
       "AWS profile p: its credential_source Ec2InstanceMetadata has no credentials"},
  };
  vars_["AWS_PROFILE"] = "p";
  for (const Case& c : cases) {
    Write(home_ / ".aws/config", c.config);
    auto r = LoadCredentials(Env());
    ASSERT_FALSE(r) << c.config;
    EXPECT_EQ(r.error().kind, c.kind) << c.config;
    EXPECT_TRUE(r.error().message.starts_with(c.message)) << r.error().message;
    EXPECT_FALSE(Has(r.error().message, "\n"));
  }
}

TEST_F(CredentialsTest, RoleFromCredentialSource) {
  // Each credential_source gives the keys that sign the AssumeRole call; one server plays the
  // metadata service and then STS, in the order they are asked.
  struct Case {
    std::string credential_source;
    std::vector<ScriptedReply> script;  // before STS's reply
    std::string source_key;
  };
  const std::vector<Case> cases = {
      {"Environment", {}, "AKENVSRC"},
      {"EcsContainer", {MetadataOk("AKECSSRC")}, "AKECSSRC"},
      {"Ec2InstanceMetadata", ImdsScript("AKIMDSSRC"), "AKIMDSSRC"},
  };
  for (const Case& c : cases) {
    auto script = c.script;
    script.push_back(AssumeRoleOk("AKFROM" + c.credential_source));
    ScriptedHttpServer server(script);
    std::map<std::string, std::string> vars = vars_;
    vars["AWS_ENDPOINT_URL_STS"] = server.url();
    vars["AWS_ACCESS_KEY_ID"] = "AKENVSRC";
    vars["AWS_SECRET_ACCESS_KEY"] = "s";
    vars["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = server.url() + "/v2/credentials";
    vars.erase("AWS_EC2_METADATA_DISABLED");
    vars["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = server.url();
    Write(home_ / ".aws/config",
          "[profile p]\nrole_arn = arn:aws:iam::1:role/r\n"
          "credential_source = " +
              c.credential_source + "\n");
    auto files = LoadSharedFiles(Env());
    ASSERT_TRUE(files);
    auto env = [vars](const std::string& name) -> std::optional<std::string> {
      auto it = vars.find(name);
      if (it == vars.end()) return std::nullopt;
      return it->second;
    };
    // The profile alone: the environment's keys would otherwise win as the chain's first source.
    auto r = ProfileCredentials(env, *files, "p");
    ASSERT_TRUE(r) << c.credential_source << ": " << r.error().message;
    ASSERT_TRUE(*r) << c.credential_source;
    EXPECT_EQ((*r)->access_key_id, "AKFROM" + c.credential_source);
    EXPECT_EQ((*r)->source, "profile p (role_arn, credential_source " + c.credential_source + ")");
    auto requests = server.requests();
    ASSERT_EQ(requests.size(), c.script.size() + 1) << c.credential_source;
    EXPECT_EQ(SignedWith(requests.back()), c.source_key) << c.credential_source;
    EXPECT_TRUE(Has(requests.back(), "Action=AssumeRole&"));
  }
}

TEST_F(CredentialsTest, SsoProfileWithAwsCliV1NamesV2) {
  fs::create_directories(home_ / "bin");
  // AWS CLI v1 has no `configure export-credentials`.
  Write(home_ / "bin/aws",
        "#!/bin/sh\nif [ \"$1\" = --version ]; then\n"
        "  echo 'aws-cli/1.22.34 Python/3.10.12 Linux/6.1 botocore/1.23.34'; exit 0\nfi\n"
        "echo 'usage: aws [options] <command> <subcommand>' >&2\n"
        "echo 'aws: error: argument operation: Invalid choice' >&2\nexit 2\n",
        true);
  Write(home_ / ".aws/config",
        "[default]\nsso_start_url = https://example.awsapps.com/start\n"
        "sso_account_id = 1\nsso_role_name = dev\n");
  const std::string saved_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  struct RestorePath {
    std::string value;
    ~RestorePath() { ::setenv("PATH", value.c_str(), 1); }
  } restore{saved_path};
  ::setenv("PATH", ((home_ / "bin").string() + ":/usr/bin:/bin").c_str(), 1);
  auto c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_TRUE(c.error().message.starts_with("SSO profiles need AWS CLI v2")) << c.error().message;
  EXPECT_TRUE(Has(c.error().message, "AWS CLI 1.22.34")) << c.error().message;
  EXPECT_FALSE(Has(c.error().message, "\n"));
}

TEST_F(CredentialsTest, ContainerCredentialsWithAuthorization) {
  ScriptedHttpServer ecs({MetadataOk("AKECS")});
  vars_["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = ecs.url() + "/v2/credentials/abc";
  vars_["AWS_CONTAINER_AUTHORIZATION_TOKEN"] = "from-variable";
  auto c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->access_key_id, "AKECS");
  EXPECT_EQ(c->session_token, "t");
  EXPECT_EQ(c->source, "ECS container");
  EXPECT_EQ(c->expiration, ParseExpiration("2999-01-01T00:00:00Z"));
  ASSERT_EQ(ecs.requests().size(), 1u);
  EXPECT_TRUE(ecs.requests()[0].starts_with("GET /v2/credentials/abc HTTP/1.1\r\n"));
  EXPECT_TRUE(Has(ecs.requests()[0], "Authorization: from-variable\r\n"));

  // The token file (EKS Pod Identity) wins over the variable; read each time.
  Write(home_ / "eks-token", "from-file\n");
  vars_["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"] = (home_ / "eks-token").string();
  ASSERT_TRUE(LoadCredentials(Env()));
  EXPECT_TRUE(Has(ecs.requests()[1], "Authorization: from-file\r\n")) << ecs.requests()[1];
}

TEST_F(CredentialsTest, ContainerEndpointUrls) {
  vars_["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"] = "/v2/credentials/id";
  EXPECT_EQ(ContainerCredentialsUrl(Env()).value(), "http://169.254.170.2/v2/credentials/id");
  vars_.erase("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
  EXPECT_EQ(ContainerCredentialsUrl(Env()).value(), "");
  for (const char* ok : {"http://169.254.170.23/v1/credentials", "http://localhost:8080/c",
                         "http://127.0.0.1:9/c", "http://[::1]:9/c", "https://creds.example/c"}) {
    vars_["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = ok;
    EXPECT_EQ(ContainerCredentialsUrl(Env()).value(), ok);
  }
  for (const char* refused :
       {"http://creds.example/c", "http://10.0.0.1/c", "http://127.0.0.1.evil.example/c"}) {
    vars_["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = refused;
    auto url = ContainerCredentialsUrl(Env());
    ASSERT_FALSE(url) << refused;
    EXPECT_EQ(url.error().kind, core::ErrorKind::kUsage);
  }
}

TEST_F(CredentialsTest, InstanceMetadataV2) {
  ScriptedHttpServer imds(ImdsScript("AKIMDS"));
  UseImds(imds);
  auto c = LoadCredentials(Env());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->access_key_id, "AKIMDS");
  EXPECT_EQ(c->source, "EC2 instance metadata (role bench-role)");
  EXPECT_EQ(c->expiration, ParseExpiration("2999-01-01T00:00:00Z"));
  auto requests = imds.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_TRUE(requests[0].starts_with("PUT /latest/api/token HTTP/1.1\r\n")) << requests[0];
  EXPECT_TRUE(Has(requests[0], "X-aws-ec2-metadata-token-ttl-seconds: 21600\r\n"));
  EXPECT_TRUE(requests[1].starts_with("GET /latest/meta-data/iam/security-credentials/ HTTP"));
  EXPECT_TRUE(Has(requests[1], "X-aws-ec2-metadata-token: IMDSTOKEN\r\n")) << requests[1];
  EXPECT_TRUE(
      requests[2].starts_with("GET /latest/meta-data/iam/security-credentials/bench-role HTTP"));
  EXPECT_TRUE(Has(requests[2], "X-aws-ec2-metadata-token: IMDSTOKEN\r\n"));
}

TEST_F(CredentialsTest, InstanceMetadataAbsentMovesOn) {
  // No role attached to the instance.
  {
    ScriptedHttpServer imds({{200, "IMDSTOKEN"}, {404, "Not Found"}});
    UseImds(imds);
    auto c = LoadCredentials(Env());
    ASSERT_FALSE(c);
    EXPECT_TRUE(
        c.error().message.starts_with("no AWS credentials (tried: environment, web "
                                      "identity, profile default, ECS container, EC2 "
                                      "instance metadata)"))
        << c.error().message;
    EXPECT_EQ(imds.requests().size(), 2u);
  }
  // Nothing listening (not on EC2): still the same line (how soon: the next test).
  int port;
  {
    ScriptedHttpServer closed({{200, ""}});
    port = closed.port();
  }
  vars_["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = "http://127.0.0.1:" + std::to_string(port);
  auto c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_TRUE(c.error().message.starts_with("no AWS credentials")) << c.error().message;
  // Disabled: not asked at all, and the line says so.
  ScriptedHttpServer imds(ImdsScript("AKIMDS"));
  UseImds(imds);
  vars_["AWS_EC2_METADATA_DISABLED"] = "true";
  c = LoadCredentials(Env());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Has(c.error().message, "EC2 instance metadata (disabled)")) << c.error().message;
  EXPECT_EQ(imds.requests().size(), 0u);
}

// Off EC2 nothing may answer at all: each instance metadata request gives up within its short
// timeouts, which the HTTP call is handed, instead of the transport's defaults.
TEST(InstanceMetadataRequest, GivesUpWithinItsShortTimeouts) {
  const HttpRequest r =
      InstanceMetadataRequest("PUT", "http://127.0.0.1:1/latest/api/token", "X-Name: v");
  EXPECT_EQ(r.method, "PUT");
  EXPECT_EQ(r.url, "http://127.0.0.1:1/latest/api/token");
  EXPECT_EQ(r.headers, std::vector<std::string>{"X-Name: v"});
  EXPECT_EQ(r.connect_timeout, std::chrono::seconds(1));
  EXPECT_EQ(r.timeout, std::chrono::seconds(2));
}

TEST_F(CredentialsTest, EarlierSourcesWin) {
  // All five sources configured; dropping the winner each time lets the next one answer.
  Write(home_ / "token", "jwt");
  Write(home_ / ".aws/credentials",
        "[default]\naws_access_key_id = AKPROFILE\n"
        "aws_secret_access_key = s\n");
  struct Step {
    std::string winner;
    std::vector<std::string> drop;  // variables removed before the next step
  };
  const std::vector<Step> steps = {
      {"AKENV", {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}},
      {"AKWEB", {"AWS_WEB_IDENTITY_TOKEN_FILE"}},
      {"AKPROFILE", {"AWS_SHARED_CREDENTIALS_FILE"}},
      {"AKECS", {"AWS_CONTAINER_CREDENTIALS_FULL_URI"}},
      {"AKIMDS", {}},
  };
  ScriptedHttpServer sts({WebIdentityOk("AKWEB")});
  ScriptedHttpServer ecs({MetadataOk("AKECS")});
  ScriptedHttpServer imds(ImdsScript("AKIMDS"));
  vars_["AWS_ACCESS_KEY_ID"] = "AKENV";
  vars_["AWS_SECRET_ACCESS_KEY"] = "s";
  vars_["AWS_WEB_IDENTITY_TOKEN_FILE"] = (home_ / "token").string();
  vars_["AWS_ROLE_ARN"] = "arn:aws:iam::1:role/web";
  vars_["AWS_ENDPOINT_URL_STS"] = sts.url();
  vars_["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = ecs.url() + "/creds";
  UseImds(imds);
  for (const Step& step : steps) {
    auto c = LoadCredentials(Env());
    ASSERT_TRUE(c) << step.winner << ": " << c.error().message;
    EXPECT_EQ(c->access_key_id, step.winner);
    for (const auto& var : step.drop) vars_.erase(var);
    if (step.drop == std::vector<std::string>{"AWS_SHARED_CREDENTIALS_FILE"}) {
      vars_["AWS_SHARED_CREDENTIALS_FILE"] = (home_ / "absent").string();
    }
  }
  // Each later source was asked only once it was the first configured.
  EXPECT_EQ(sts.requests().size(), 1u);
  EXPECT_EQ(ecs.requests().size(), 1u);
  EXPECT_EQ(imds.requests().size(), 3u);
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
