// The typed calls' request parameters and reply readers, on replies shaped as AWS sends them.
#include <gtest/gtest.h>

#include "aws/cloudformation.h"
#include "aws/ec2.h"
#include "aws/sts.h"

namespace dfbench::aws {
namespace {

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
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[0].logical_id, "ServerInstance");
  EXPECT_EQ((*events)[0].status, "CREATE_FAILED");
  EXPECT_EQ((*events)[0].reason, "We currently do not have sufficient c7g.4xlarge capacity");
  EXPECT_EQ((*events)[1].resource_type, "AWS::EC2::VPC");
  EXPECT_EQ((*events)[1].physical_id, "vpc-1");
  EXPECT_EQ((*events)[1].reason, "");
}

TEST(RepliesTest, CallerIdentityNeedsAnAccount) {
  EXPECT_FALSE(ParseCallerIdentity("<GetCallerIdentityResponse/>"));
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
  ASSERT_EQ(instances->size(), 2u);
  EXPECT_EQ((*instances)[0].type, "c7g.4xlarge");
  EXPECT_EQ((*instances)[0].architecture, "arm64");
  EXPECT_EQ((*instances)[0].state, "running");
  EXPECT_EQ((*instances)[0].public_ip, "3.88.12.4");
  EXPECT_EQ((*instances)[1].public_ip, "");
  EXPECT_EQ((*instances)[1].private_ip, "10.0.1.43");
}

}  // namespace
}  // namespace dfbench::aws
