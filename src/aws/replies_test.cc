// The typed calls' request parameters and reply readers, on replies shaped as AWS sends them.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "aws/api_error.h"
#include "aws/cloudformation.h"
#include "aws/ec2.h"
#include "aws/ssm.h"
#include "aws/sts.h"

namespace dfbench::aws {
namespace {

// A reply's rows, each its fields joined by '|' in declaration order: one comparison checks
// every field, the empty ones included.
std::string Joined(std::initializer_list<std::string_view> fields) {
  std::string row;
  for (std::string_view f : fields) (row += f) += '|';
  row.pop_back();
  return row;
}
std::string Row(const StackEvent& e) {
  return Joined({e.timestamp, e.logical_id, e.resource_type, e.physical_id, e.status, e.reason});
}
std::string Row(const Instance& i) {
  return Joined({i.id, i.type, i.architecture, i.state, i.public_ip, i.private_ip});
}
template <class T>
std::vector<std::string> Rows(const std::vector<T>& items) {
  std::vector<std::string> rows;
  for (const T& item : items) rows.push_back(Row(item));
  return rows;
}

TEST(RepliesTest, CreateStackParameters) {
  QueryParams p = CreateStackParams({.stack_name = "dfbench-x",
                                     .template_body = "Resources: {}",
                                     .parameters = {{"ServerAmi", "ami-1"}},
                                     .tags = {{"dfbench:setup", "x"}}});
  QueryParams want = {{"StackName", "dfbench-x"},
                      {"TemplateBody", "Resources: {}"},
                      {"Parameters.member.1.ParameterKey", "ServerAmi"},
                      {"Parameters.member.1.ParameterValue", "ami-1"},
                      {"OnFailure", "DELETE"},
                      {"Tags.member.1.Key", "dfbench:setup"},
                      {"Tags.member.1.Value", "x"}};
  EXPECT_EQ(p, want);
}

TEST(RepliesTest, DescribeStacksStatusReasonAndOutputs) {
  auto stacks = ParseDescribeStacks(
      R"(<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">
  <DescribeStacksResult><Stacks><member>
    <StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/dfbench-x/abc</StackId>
    <StackName>dfbench-x</StackName>
    <StackStatus>ROLLBACK_IN_PROGRESS</StackStatus>
    <StackStatusReason>The following resource(s) failed to create: [ServerInstance].</StackStatusReason>
    <Outputs>
      <member><OutputKey>ServerPublicIp</OutputKey><OutputValue>3.88.12.4</OutputValue></member>
      <member><OutputKey>ServerInstanceId</OutputKey><OutputValue>i-1</OutputValue></member>
    </Outputs>
    <Tags><member><Key>dfbench:setup</Key><Value>x</Value></member></Tags>
  </member></Stacks></DescribeStacksResult>
</DescribeStacksResponse>)");
  ASSERT_TRUE(stacks) << stacks.error().message;
  ASSERT_EQ(stacks->size(), 1u);
  const Stack& s = stacks->front();
  EXPECT_EQ(s.name, "dfbench-x");
  EXPECT_EQ(s.status, "ROLLBACK_IN_PROGRESS");
  EXPECT_EQ(s.status_reason, "The following resource(s) failed to create: [ServerInstance].");
  EXPECT_EQ(s.outputs.at("ServerPublicIp"), "3.88.12.4");
  EXPECT_EQ(s.outputs.at("ServerInstanceId"), "i-1");
  EXPECT_EQ(s.tags.at("dfbench:setup"), "x");
  EXPECT_FALSE(ParseDescribeStacks("not xml <"));
}

TEST(RepliesTest, StackEventsNewestFirst) {
  auto events =
      ParseStackEvents(R"(<DescribeStackEventsResponse><DescribeStackEventsResult><StackEvents>
  <member><Timestamp>2026-04-08T14:31:02Z</Timestamp><LogicalResourceId>ServerInstance</LogicalResourceId>
    <ResourceType>AWS::EC2::Instance</ResourceType><PhysicalResourceId></PhysicalResourceId>
    <ResourceStatus>CREATE_FAILED</ResourceStatus>
    <ResourceStatusReason>We currently do not have sufficient c7g.4xlarge capacity</ResourceStatusReason></member>
  <member><Timestamp>2026-04-08T14:30:50Z</Timestamp><LogicalResourceId>Vpc</LogicalResourceId>
    <ResourceType>AWS::EC2::VPC</ResourceType><PhysicalResourceId>vpc-1</PhysicalResourceId>
    <ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>
</StackEvents></DescribeStackEventsResult></DescribeStackEventsResponse>)");
  ASSERT_TRUE(events) << events.error().message;
  EXPECT_EQ(Rows(*events),
            (std::vector<std::string>{
                "2026-04-08T14:31:02Z|ServerInstance|AWS::EC2::Instance||CREATE_FAILED|"
                "We currently do not have sufficient c7g.4xlarge capacity",
                "2026-04-08T14:30:50Z|Vpc|AWS::EC2::VPC|vpc-1|CREATE_COMPLETE|"}));
}

TEST(RepliesTest, CallerIdentityNeedsAnAccount) {
  EXPECT_FALSE(ParseCallerIdentity("<GetCallerIdentityResponse/>"));
}

TEST(RepliesTest, AssumedRoleCredentials) {
  auto c = ParseAssumedCredentials(
      R"(<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <SourceIdentity>ops</SourceIdentity>
    <AssumedRoleUser>
      <Arn>arn:aws:sts::123456789012:assumed-role/bench/nightly</Arn>
      <AssumedRoleId>ARO123EXAMPLE123:nightly</AssumedRoleId>
    </AssumedRoleUser>
    <Credentials>
      <AccessKeyId>ASIAEXAMPLE</AccessKeyId>
      <SecretAccessKey>wJalrXUtnFEMI</SecretAccessKey>
      <SessionToken>IQoJb3JpZ2luX2Vj</SessionToken>
      <Expiration>2026-12-07T05:00:00Z</Expiration>
    </Credentials>
    <PackedPolicySize>6</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
</AssumeRoleResponse>)",
      "AssumeRole");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(Joined({c->access_key_id, c->secret_access_key, c->session_token}),
            "ASIAEXAMPLE|wJalrXUtnFEMI|IQoJb3JpZ2luX2Vj");
  EXPECT_EQ(c->expiration, ParseExpiration("2026-12-07T05:00:00Z"));
  // The web-identity reply names its own elements; a reply of the other action has none.
  EXPECT_FALSE(ParseAssumedCredentials("<AssumeRoleResponse/>", "AssumeRoleWithWebIdentity"));
  auto bad = ParseAssumedCredentials("not xml <", "AssumeRole");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("sts:AssumeRole"), std::string::npos);
}

TEST(RepliesTest, DescribeInstances) {
  auto instances = ParseDescribeInstances(
      R"(<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <reservationSet><item><instancesSet>
    <item><instanceId>i-1</instanceId><instanceType>c7g.4xlarge</instanceType>
      <architecture>arm64</architecture><instanceState><code>16</code><name>running</name></instanceState>
      <ipAddress>3.88.12.4</ipAddress><privateIpAddress>10.0.1.42</privateIpAddress></item>
    <item><instanceId>i-2</instanceId><instanceState><name>stopped</name></instanceState>
      <privateIpAddress>10.0.1.43</privateIpAddress></item>
  </instancesSet></item></reservationSet>
</DescribeInstancesResponse>)");
  ASSERT_TRUE(instances) << instances.error().message;
  EXPECT_EQ(Rows(*instances),
            (std::vector<std::string>{"i-1|c7g.4xlarge|arm64|running|3.88.12.4|10.0.1.42",
                                      "i-2|||stopped||10.0.1.43"}));
}

TEST(RepliesTest, GetParameterValue) {
  auto ami = ParseGetParameter(
      R"({"Parameter": {"Name": "/aws/service/canonical/ubuntu/server/22.04/stable/current/)"
      R"(amd64/hvm/ebs-gp2/ami-id", "Type": "String", "Value": "ami-0abc", "Version": 1}})");
  ASSERT_TRUE(ami) << ami.error().message;
  EXPECT_EQ(*ami, "ami-0abc");
  EXPECT_FALSE(ParseGetParameter(R"({"Parameter": {}})"));
  EXPECT_FALSE(ParseGetParameter("not json"));
}

TEST(RepliesTest, JsonProtocolErrors) {
  const ApiError missing = ParseApiError(
      400, R"({"__type": "ParameterNotFound", "message": "Parameter /x not found."})");
  EXPECT_EQ(missing.code, "ParameterNotFound");
  EXPECT_EQ(missing.message, "Parameter /x not found.");
  EXPECT_EQ(missing.category, ErrorCategory::kNotFound);
  const ApiError denied = ParseApiError(
      400, R"({"__type": "com.amazon.coral.service#AccessDeniedException", "Message": "no"})");
  EXPECT_EQ(denied.code, "AccessDeniedException");
  EXPECT_EQ(denied.message, "no");
  EXPECT_EQ(denied.category, ErrorCategory::kAuth);
}

}  // namespace
}  // namespace dfbench::aws
