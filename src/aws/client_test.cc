#include "aws/client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>

#include "aws/api_error.h"
#include "aws/cloudformation.h"
#include "aws/scripted_http_server_test.h"
#include "aws/sts.h"
#include "support/fake_clock.h"

namespace dfbench::aws {
namespace {

using testing::ScriptedHttpServer;
using testing::ScriptedReply;
using testing::SignedWith;

EnvLookup Vars(const std::map<std::string, std::string>& vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

constexpr char kIdentity[] =
    R"(<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>arn:aws:iam::123456789012:user/ops</Arn>
    <UserId>AIDAEXAMPLE</UserId>
    <Account>123456789012</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata><RequestId>01234567-89ab</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>)";

std::string ErrorDoc(const std::string& code, const std::string& message) {
  return "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error>"
         "<Type>Sender</Type><Code>" +
         code + "</Code><Message>" + message +
         "</Message></Error><RequestId>r-1</RequestId></ErrorResponse>";
}

// Fast retries: the tests check the behaviour, never the timing.
RetryPolicy Quick() {
  return {.max_attempts = 4,
          .base_delay = std::chrono::milliseconds(5),
          .max_delay = std::chrono::milliseconds(20)};
}

TEST(ApiErrorTest, ParsesQueryAndEc2ErrorDocuments) {
  ApiError e = ParseApiError(400, ErrorDoc("ValidationError", "Stack with id x does not exist"));
  EXPECT_EQ(e.code, "ValidationError");
  EXPECT_EQ(e.message, "Stack with id x does not exist");
  EXPECT_EQ(e.category, ErrorCategory::kNotFound);

  e = ParseApiError(400,
                    "<Response><Errors><Error><Code>InvalidInstanceID.NotFound</Code><Message>The "
                    "instance ID 'i-1' does not exist</Message></Error></Errors>"
                    "<RequestID>r</RequestID></Response>");
  EXPECT_EQ(e.code, "InvalidInstanceID.NotFound");
  EXPECT_EQ(e.category, ErrorCategory::kNotFound);

  e = ParseApiError(503, "<html>\n<body>Service Unavailable</body></html>");
  EXPECT_EQ(e.code, "");
  EXPECT_EQ(e.message, "HTTP 503: <html>");
  EXPECT_EQ(e.category, ErrorCategory::kServer);
  EXPECT_TRUE(IsRetryable(e));
}

TEST(ApiErrorTest, ClassifiesAuthThrottlingAndOthers) {
  for (const char* code : {"ExpiredToken", "ExpiredTokenException"}) {
    EXPECT_EQ(Classify(400, code, ""), ErrorCategory::kExpired) << code;
  }
  for (const char* code : {"InvalidClientTokenId", "UnrecognizedClientException",
                           "SignatureDoesNotMatch", "AccessDenied"}) {
    EXPECT_EQ(Classify(403, code, ""), ErrorCategory::kAuth) << code;
  }
  for (const char* code :
       {"Throttling", "ThrottlingException", "RequestLimitExceeded", "TooManyRequestsException",
        "RequestThrottled", "RequestThrottledException", "SlowDown"}) {
    EXPECT_EQ(Classify(400, code, ""), ErrorCategory::kThrottling) << code;
  }
  EXPECT_EQ(Classify(429, "", ""), ErrorCategory::kThrottling);
  EXPECT_TRUE(IsRetryable(ParseApiError(429, "Too Many Requests")));
  EXPECT_EQ(Classify(500, "InternalFailure", ""), ErrorCategory::kServer);
  EXPECT_EQ(Classify(400, "AlreadyExistsException", "Stack [x] already exists"),
            ErrorCategory::kService);
  EXPECT_EQ(Classify(400, "ValidationError", "Template format error"), ErrorCategory::kService);
}

TEST(ApiErrorTest, MapsOntoCoreErrorKinds) {
  core::Error e = ToCoreError(ParseApiError(400, ErrorDoc("ExpiredToken", "expired")), "sts:X");
  EXPECT_EQ(e.kind, core::ErrorKind::kEnvironment);
  EXPECT_EQ(e.message,
            "AWS credentials expired (SSO session or token): run 'aws sso login' (or refresh "
            "your credentials) and retry");
  e = ToCoreError(ParseApiError(403, ErrorDoc("InvalidClientTokenId", "bad key")), "sts:X");
  EXPECT_EQ(e.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(e.message.find("sts:X: InvalidClientTokenId: bad key"), std::string::npos);
  e = ToCoreError(ParseApiError(400, ErrorDoc("ValidationError", "Stack x does not exist")), "c");
  EXPECT_EQ(e.kind, core::ErrorKind::kNotFound);
  e = ToCoreError(ParseApiError(400, ErrorDoc("ValidationError", "bad template")), "c");
  EXPECT_EQ(e.kind, core::ErrorKind::kFailure);
  EXPECT_EQ(e.message, "c: ValidationError: bad template");
}

// A skewed clock is named as such, not as wrong keys, and is not retried.
TEST(ApiErrorTest, AClockProblemIsNamed) {
  for (const auto& [code, message] : std::vector<std::pair<std::string, std::string>>{
           {"RequestTimeTooSkewed",
            "The difference between the request time and the current "
            "time is too large."},
           {"SignatureDoesNotMatch",
            "Signature expired: 20261207T010000Z is now earlier than "
            "20261207T020000Z"},
           {"RequestExpired", "Request has expired."}}) {
    const ApiError api = ParseApiError(403, ErrorDoc(code, message));
    EXPECT_EQ(api.category, ErrorCategory::kClock) << code;
    EXPECT_FALSE(IsRetryable(api));
    const core::Error e = ToCoreError(api, "sts:GetCallerIdentity");
    EXPECT_EQ(e.kind, core::ErrorKind::kEnvironment);
    EXPECT_TRUE(
        e.message.starts_with("AWS refused the request's time: this machine's clock is "
                              "off"))
        << e.message;
  }
  EXPECT_EQ(Classify(403, "SignatureDoesNotMatch",
                     "The request signature we calculated does "
                     "not match"),
            ErrorCategory::kAuth);
}

TEST(ClientTest, EndpointsFromTheEnvironment) {
  EXPECT_EQ(ServiceEndpoint("cloudformation", "eu-west-1", Vars({})),
            "https://cloudformation.eu-west-1.amazonaws.com");
  EXPECT_EQ(ServiceEndpoint("cloudformation", "cn-north-1", Vars({})),
            "https://cloudformation.cn-north-1.amazonaws.com.cn");
  EXPECT_EQ(ServiceEndpoint("ec2", "us-gov-west-1", Vars({})),
            "https://ec2.us-gov-west-1.amazonaws.com");
  EXPECT_EQ(ServiceEndpoint("sts", "us-east-1", Vars({{"AWS_ENDPOINT_URL", "http://h:1/"}})),
            "http://h:1");
  auto env = Vars({{"AWS_ENDPOINT_URL", "http://all:1"}, {"AWS_ENDPOINT_URL_EC2", "http://ec2:2"}});
  EXPECT_EQ(ServiceEndpoint("ec2", "us-east-1", env), "http://ec2:2");
  EXPECT_EQ(ServiceEndpoint("ssm", "us-east-1", env), "http://all:1");
}

TEST(ClientTest, FormEncodingEscapesReservedCharacters) {
  EXPECT_EQ(FormEncode({{"Action", "CreateStack"}, {"TemplateBody", "a: b\n- c&d=e/~_."}}),
            "Action=CreateStack&TemplateBody=a%3A%20b%0A-%20c%26d%3De%2F~_.");
}

TEST(ClientTest, BackoffGrowsAndIsBounded) {
  RetryPolicy p{.base_delay = std::chrono::milliseconds(100),
                .max_delay = std::chrono::milliseconds(1000)};
  EXPECT_EQ(BackoffDelay(p, 2, 0.0).count(), 50);
  EXPECT_EQ(BackoffDelay(p, 2, 1.0).count(), 100);
  EXPECT_EQ(BackoffDelay(p, 3, 0.0).count(), 100);
  EXPECT_EQ(BackoffDelay(p, 4, 1.0).count(), 400);
  EXPECT_EQ(BackoffDelay(p, 30, 1.0).count(), 1000);
  EXPECT_EQ(BackoffDelay(p, 30, 0.0).count(), 500);
}

TEST(ClientTest, ThrottlingIsRetriedUntilSuccess) {
  ScriptedHttpServer server({{400, ErrorDoc("Throttling", "Rate exceeded")},
                             {400, ErrorDoc("Throttling", "Rate exceeded")},
                             {200, kIdentity}});
  Client client({"AKTEST", "secret", "session-token", "test"}, "us-east-1",
                Vars({{"AWS_ENDPOINT_URL", server.url()}}), Quick());
  auto id = GetCallerIdentity(client);
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(id->account, "123456789012");
  EXPECT_EQ(id->arn, "arn:aws:iam::123456789012:user/ops");
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  // Signed by curl for the region and service, with the session token sent along.
  EXPECT_NE(requests[0].find("Authorization: AWS4-HMAC-SHA256 Credential=AKTEST/"),
            std::string::npos)
      << requests[0];
  EXPECT_NE(requests[0].find("/us-east-1/sts/aws4_request"), std::string::npos);
  EXPECT_NE(requests[0].find("X-Amz-Security-Token: session-token"), std::string::npos);
  EXPECT_NE(requests[0].find("Action=GetCallerIdentity&Version=2011-06-15"), std::string::npos);
}

TEST(ClientTest, RetriesAreBounded) {
  ScriptedHttpServer server({{400, ErrorDoc("RequestLimitExceeded", "slow down")}});
  Client client({"AK", "S", "", "test"}, "us-east-1", Vars({{"AWS_ENDPOINT_URL", server.url()}}),
                Quick());
  auto id = GetCallerIdentity(client);
  ASSERT_FALSE(id);
  EXPECT_EQ(id.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(id.error().message.find("RequestLimitExceeded: slow down"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 4u);
  EXPECT_EQ(server.requests()[0].find("X-Amz-Security-Token"), std::string::npos);
}

TEST(ClientTest, ExpiredTokenGivesTheAdviceWithoutRetrying) {
  ScriptedHttpServer server(
      {{403, ErrorDoc("ExpiredToken", "The security token included in the request is expired")}});
  Client client({"AK", "S", "T", "test"}, "us-east-1", Vars({{"AWS_ENDPOINT_URL", server.url()}}),
                Quick());
  auto id = GetCallerIdentity(client);
  ASSERT_FALSE(id);
  EXPECT_EQ(id.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_EQ(id.error().message, kExpiredCredentialsAdvice);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(ClientTest, UnreachableEndpointIsAnEnvironmentError) {
  int port;
  {
    ScriptedHttpServer closed({{200, ""}});
    port = closed.port();
  }  // closed: nothing listens on the port any more
  Client client({"AK", "S", "", "test"}, "us-east-1",
                Vars({{"AWS_ENDPOINT_URL", "http://127.0.0.1:" + std::to_string(port)}}), Quick());
  auto id = GetCallerIdentity(client);
  ASSERT_FALSE(id);
  EXPECT_EQ(id.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(id.error().message.find("sts:GetCallerIdentity: cannot reach"), std::string::npos)
      << id.error().message;
}

// A large fleet's events span pages: every page is read, so its first failure is named.
TEST(ClientTest, StackEventsFollowNextToken) {
  auto page = [](const std::string& logical_id, const std::string& status,
                 const std::string& next) {
    return ScriptedReply{
        200,
        "<DescribeStackEventsResponse><DescribeStackEventsResult><StackEvents><member>"
        "<Timestamp>t</Timestamp><LogicalResourceId>" +
            logical_id +
            "</LogicalResourceId><ResourceType>AWS::EC2::Instance"
            "</ResourceType><ResourceStatus>" +
            status + "</ResourceStatus></member></StackEvents>" +
            (next.empty() ? "" : "<NextToken>" + next + "</NextToken>") +
            "</DescribeStackEventsResult></DescribeStackEventsResponse>"};
  };
  ScriptedHttpServer server({page("Replica9Instance", "DELETE_COMPLETE", "p2"),
                             page("ServerInstance", "CREATE_FAILED", "")});
  Client client({"AK", "S", "", "test"}, "us-east-1", Vars({{"AWS_ENDPOINT_URL", server.url()}}),
                Quick());
  auto events = DescribeStackEvents(client, "dfbench-big");
  ASSERT_TRUE(events) << events.error().message;
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[1].logical_id, "ServerInstance");
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].find("NextToken"), std::string::npos);
  EXPECT_NE(requests[1].find("NextToken=p2"), std::string::npos);
}

TEST(ClientTest, UnsignedClientSendsNoAuthorization) {
  ScriptedHttpServer server({{200, kIdentity}});
  const Client client = Client::Unsigned("us-east-1", Vars({{"AWS_ENDPOINT_URL", server.url()}}));
  ASSERT_TRUE(GetCallerIdentity(client));
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].find("Authorization:"), std::string::npos) << server.requests()[0];
  EXPECT_EQ(server.requests()[0].find("X-Amz-Security-Token"), std::string::npos);
  EXPECT_EQ(client.credentials().access_key_id, "");
}

TEST(ClientTest, CredentialsDueWithinFiveMinutesAreRefreshed) {
  ScriptedHttpServer server({{200, kIdentity}});
  dfbench::testing::FakeClock clock(core::SystemTime(std::chrono::seconds(1'000'000)));
  std::atomic<int> resolved = 0;
  auto provider = std::make_shared<CredentialProvider>(
      [&]() -> core::Result<Credentials> {
        const int n = ++resolved;
        return Credentials{
            .access_key_id = "AKID" + std::to_string(n),
            .secret_access_key = "s",
            .session_token = "t" + std::to_string(n),
            .source = "test",
            .expiration = std::chrono::system_clock::to_time_t(clock.WallNow()) + 3600};
      },
      std::nullopt, clock);
  const Client client(provider, "us-east-1", Vars({{"AWS_ENDPOINT_URL", server.url()}}), Quick());

  ASSERT_TRUE(GetCallerIdentity(client));           // first use: resolved once
  clock.Advance(std::chrono::seconds(3600 - 301));  // 5 min 1 s left: still used
  ASSERT_TRUE(GetCallerIdentity(client));
  EXPECT_EQ(resolved, 1);
  clock.Advance(std::chrono::seconds(2));  // 4 min 59 s left: resolved again before the request
  ASSERT_TRUE(GetCallerIdentity(client));
  EXPECT_EQ(resolved, 2);
  EXPECT_EQ(client.credentials().access_key_id, "AKID2");

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(SignedWith(requests[0]), "AKID1");
  EXPECT_EQ(SignedWith(requests[1]), "AKID1");
  EXPECT_EQ(SignedWith(requests[2]), "AKID2");
  EXPECT_NE(requests[2].find("X-Amz-Security-Token: t2"), std::string::npos);
}

TEST(ClientTest, FailedRefreshKeepsCredentialsUntilTheyExpire) {
  ScriptedHttpServer server({{200, kIdentity}});
  dfbench::testing::FakeClock clock(core::SystemTime(std::chrono::seconds(1'000'000)));
  int tries = 0;
  auto provider = std::make_shared<CredentialProvider>(
      [&]() -> core::Result<Credentials> {
        ++tries;
        return core::Fail(core::ErrorKind::kEnvironment, kExpiredCredentialsAdvice);
      },
      Credentials{"AKOLD", "s", "t", "test", 1'000'000 + 120}, clock);
  const Client client(provider, "us-east-1", Vars({{"AWS_ENDPOINT_URL", server.url()}}), Quick());
  ASSERT_TRUE(GetCallerIdentity(client));  // due, refresh fails, still valid for 2 min
  EXPECT_EQ(SignedWith(server.requests()[0]), "AKOLD");
  clock.Advance(std::chrono::seconds(CredentialProvider::kRetryPause - 1));  // not this soon
  ASSERT_TRUE(GetCallerIdentity(client));
  EXPECT_EQ(tries, 1);
  clock.Advance(std::chrono::seconds(1));
  ASSERT_TRUE(GetCallerIdentity(client));
  EXPECT_EQ(tries, 2);
  // 120 s since the start: expired, tried at once, and its error is the call's.
  clock.Advance(std::chrono::seconds(120 - CredentialProvider::kRetryPause));
  auto id = GetCallerIdentity(client);
  ASSERT_FALSE(id);
  EXPECT_EQ(tries, 3);
  EXPECT_EQ(id.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_EQ(id.error().message, kExpiredCredentialsAdvice);
  EXPECT_EQ(server.requests().size(), 3u);  // nothing sent with expired credentials
}

TEST(ClientTest, TemporaryCredentialsAreResolvedAgainThroughTheChain) {
  // The chain's second answer comes from the container endpoint; the first credentials lapse
  // in a minute, so the first request already signs with the refreshed ones.
  ScriptedHttpServer sts({{200, kIdentity}});
  ScriptedHttpServer container(
      {{200, R"({"AccessKeyId": "AKNEW", "SecretAccessKey": "s", "Token": "t",
                 "Expiration": "2999-01-01T00:00:00Z"})"}});
  auto env = Vars({{"AWS_ENDPOINT_URL", sts.url()},
                   {"AWS_CONTAINER_CREDENTIALS_FULL_URI", container.url() + "/creds"},
                   {"AWS_EC2_METADATA_DISABLED", "true"},
                   {"AWS_CONFIG_FILE", "/nonexistent/config"},
                   {"AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials"}});
  const Client client(Credentials{"AKOLD", "s", "t", "test", std::time(nullptr) + 60}, "us-east-1",
                      env, Quick());
  ASSERT_TRUE(GetCallerIdentity(client));
  ASSERT_EQ(sts.requests().size(), 1u);
  EXPECT_EQ(SignedWith(sts.requests()[0]), "AKNEW");
  EXPECT_EQ(container.requests().size(), 1u);
  EXPECT_EQ(client.credentials().source, "ECS container");

  // Long-term keys are never resolved again.
  const Client fixed(Credentials{"AKFIXED", "s", "", "test"}, "us-east-1", env, Quick());
  ASSERT_TRUE(GetCallerIdentity(fixed));
  EXPECT_EQ(SignedWith(sts.requests()[1]), "AKFIXED");
  EXPECT_EQ(container.requests().size(), 1u);
}

}  // namespace
}  // namespace dfbench::aws
