#include "results/schema.h"

#include <gtest/gtest.h>

#include <cmath>

#include "results/json_fields.h"
#include "results/test_fixtures.h"
#include "results/writers.h"

namespace dfbench::results {
namespace {

using testing::Trial;

// The RunResults example of the reference README, with its "{...}" placeholders filled in.
constexpr const char* kReferenceRunResults = R"({
  "run_id": "20260408-143217",
  "created_at": "2026-04-08T14:32:17Z",
  "completed_at": "2026-04-08T14:41:05Z",
  "status": "completed",
  "region": "us-east-1",
  "aws_account": "123456789012",
  "server_instance": "c7g.4xlarge",
  "client_instance": "c7g.4xlarge",
  "memtier": {
    "threads": 8, "clients": 50, "requests": 1000000,
    "ratio": "1:10", "data_size": 256, "pipeline": 30,
    "distinct_client_seed": false
  },
  "warmup_requests": 100000,
  "trials": 3,
  "engines": [
    {
      "engine": "dragonfly",
      "version": "dragonfly v1.27.0",
      "trials": [
        {"trial": 1, "throughput": 2646502, "p50": 4.6, "p99": 7.1, "p999": 9.8, "avg_latency": 4.72}
      ],
      "throughput": {"median": 2646502, "min": 2601000, "max": 2672000, "stddev": 35400},
      "p50": {"median": 4.6, "min": 4.5, "max": 4.7, "stddev": 0.1},
      "p99": {"median": 7.1, "min": 7, "max": 7.3, "stddev": 0.15},
      "p999": {"median": 9.8, "min": 9.5, "max": 10.2, "stddev": 0.35},
      "avg_latency": {"median": 4.72, "min": 4.66, "max": 4.8, "stddev": 0.07}
    }
  ]
})";

Stats MakeStats(double median, double min, double max, double stddev) {
  return Stats{.median = median, .min = min, .max = max, .stddev = stddev};
}

RunResults FullRun() {
  RunResults r = testing::CompletedRun<RunResults>("perf-may");
  r.aws_account = "123456789012";
  r.server_instance = "c7g.4xlarge";
  r.client_instance = "c7g.2xlarge";
  r.memtier.threads = 8;
  r.memtier.clients = 100;
  r.memtier.requests = 5000000;
  r.memtier.ratio = "1:4";
  r.memtier.data_size = 512;
  r.memtier.pipeline = 50;
  r.memtier.distinct_client_seed = true;
  r.warmup_requests = 0;
  r.trials = 2;
  EngineResult e;
  e.engine = "dragonfly";
  e.version = "dragonfly v1.27.0";
  e.origin = "release";
  e.sha256 = std::string(64, 'a');
  e.trials = {Trial(1, 2646502.25, 4.6, 7.1, 9.8, 4.72), Trial(2, 2601000, 4.5, 7.0, 9.5, 4.66)};
  for (TrialResult& t : e.trials) {
    t.ops = 5000000;
    t.raw_file = "memtier/dragonfly-t" + std::to_string(t.trial) + ".json";
  }
  e.trials[0].errors = 3;
  e.trials[0].duration_sec = 1.889;
  e.trials[1].duration_sec = 1.922;
  e.Aggregate();
  e.tuning = {{"num_shards", 14}, {"conn_use_incoming_cpu", true}};
  e.num_shards = 14;
  e.conn_use_incoming_cpu = true;
  e.approximate = true;
  EngineResult failed;
  failed.engine = "redis";
  failed.version = "Redis server v=7.0.15";
  failed.error = "redis-server exited: exit code 1";
  failed.io_threads = 0;
  failed.pin_network = false;
  r.engines = {e, failed};
  r.context.build_type = "Release";
  r.context.provider = "local";
  r.context.load_generator = core::LoadGenerator::kBuiltin;
  r.context.hosts = {testing::FullHost(core::Role::Local())};
  return r;
}

void ExpectStatsEq(const Stats& a, const Stats& b) {
  EXPECT_DOUBLE_EQ(a.median, b.median);
  EXPECT_DOUBLE_EQ(a.min, b.min);
  EXPECT_DOUBLE_EQ(a.max, b.max);
  EXPECT_DOUBLE_EQ(a.stddev, b.stddev);
}

TEST(Summarize, OddCount) {
  Stats s = Summarize({5, 1, 3});
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.stddev, 2);  // mean 3, squares 4+0+4, / (3-1)
}

TEST(Summarize, EvenCountTakesMeanOfMiddleValues) {
  Stats s = Summarize({10, 4, 1, 6});
  EXPECT_EQ(s.median, 5);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 10);
  // mean 5.25; squares 22.5625 + 1.5625 + 18.0625 + 0.5625 = 42.75; / 3
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(42.75 / 3));
}

TEST(Summarize, OneValueHasNoSpread) {
  Stats s = Summarize({42.5});
  ExpectStatsEq(s, MakeStats(42.5, 42.5, 42.5, 0));
}

TEST(Summarize, NoValuesIsAllZero) {
  ExpectStatsEq(Summarize({}), Stats{});
}

TEST(EngineResult, AggregateSummarizesEachMetric) {
  EngineResult e;
  e.trials = {Trial(1, 100, 1, 2, 3, 1.5), Trial(2, 300, 3, 4, 5, 2.5), Trial(3, 200, 2, 9, 7, 2)};
  e.Aggregate();
  ExpectStatsEq(e.throughput, MakeStats(200, 100, 300, 100));
  ExpectStatsEq(e.p50, MakeStats(2, 1, 3, 1));
  EXPECT_EQ(e.p99.median, 4);
  EXPECT_EQ(e.p999.max, 7);
  EXPECT_EQ(e.avg_latency.min, 1.5);
}

TEST(EngineResult, AggregateLeavesFailedTrialsOut) {
  EngineResult e;
  e.trials = {Trial(1, 100, 1, 2, 3, 1.5), Trial(2, 0, 0, 0, 0, 0), Trial(3, 300, 3, 4, 5, 2.5)};
  e.trials[1].failed = "no request succeeded (20 errors)";
  e.Aggregate();
  ExpectStatsEq(e.throughput, MakeStats(200, 100, 300, std::sqrt(20000.0)));
  e.trials = {e.trials[1]};
  e.Aggregate();
  ExpectStatsEq(e.throughput, MakeStats(0, 0, 0, 0));
}

TEST(TrialFailure, JudgesByTheShareOfFailedRequests) {
  TrialResult t;
  EXPECT_EQ(TrialFailure(t, 1), "no request was answered");
  t.errors = 20;
  EXPECT_EQ(TrialFailure(t, 100), "no request succeeded (20 errors)");
  t.ops = 980;                        // 20 of 1000: 2 %
  EXPECT_EQ(TrialFailure(t, 2), "");  // exactly the limit passes
  EXPECT_EQ(TrialFailure(t, 1.5), "2.00 % of requests failed (20 errors), above the 1.5 % allowed");
  t.errors = 0;
  EXPECT_EQ(TrialFailure(t, 0), "");
  t.errors = 1;
  EXPECT_NE(TrialFailure(t, 0), "");
}

// A window cut short and a server that counted fewer than were answered fail the trial, before
// any error share is looked at; a server that counted more (in flight, shared) does not.
TEST(TrialFailure, AnEarlyEndAndLostWorkFail) {
  TrialResult t{.ops = 1000, .errors = 4};
  t.ended_early = "a connection was lost (Connection reset by peer) at 1.49 s of 4.00 s";
  EXPECT_EQ(TrialFailure(t, 100),
            "the measured window ended early: a connection was lost (Connection reset by peer) at "
            "1.49 s of 4.00 s");
  t.ended_early.clear();
  t.server_ops = 500;
  EXPECT_EQ(TrialFailure(t, 100),
            "the server counted 500 operations, fewer than the 1000 the load generator saw "
            "answered (lost work)");
  t.server_ops = 1000;
  EXPECT_EQ(TrialFailure(t, 1), "");
  t.server_ops = 1200;
  EXPECT_EQ(TrialFailure(t, 1), "");
  t.server_ops.reset();  // unknown: nothing to judge by
  EXPECT_EQ(TrialFailure(t, 1), "");
}

TEST(EngineResult, TrialsThatEndedEarlyAreLeftOutOfTheMedians) {
  EngineResult e;
  TrialResult good{.throughput = 100, .ops = 1000};
  TrialResult cut{.throughput = 300, .ops = 1000};
  cut.ended_early = "the server stopped answering at 1.48 s of 4.00 s";
  cut.failed = TrialFailure(cut, 1);
  e.trials = {good, cut, good};
  e.Aggregate();
  EXPECT_DOUBLE_EQ(e.throughput.median, 100);
  EXPECT_DOUBLE_EQ(e.throughput.max, 100);
}

// A server count that could not be read is null in the file, not 0, and reads back as unknown.
TEST(RunResultsJson, UnknownServerCountsAreNull) {
  RunResults in = FullRun();
  in.engines[0].server_ops.reset();
  in.engines[0].trials[0].server_ops = 5000003;
  in.engines[0].trials[0].ended_early = "the server stopped answering at 1.00 s of 2.00 s";
  const nlohmann::json j = nlohmann::json::parse(RenderRunJson(in));
  EXPECT_TRUE(j["engines"][0].contains("server_ops"));
  EXPECT_TRUE(j["engines"][0]["server_ops"].is_null());
  EXPECT_EQ(j["engines"][0]["trials"][0]["server_ops"], 5000003);
  // A trial's unknown count is null too, said rather than left out.
  EXPECT_TRUE(j["engines"][0]["trials"][1].contains("server_ops"));
  EXPECT_TRUE(j["engines"][0]["trials"][1]["server_ops"].is_null());
  RunResults out;
  ASSERT_TRUE(testing::RoundTrips(in, RenderRunJson, &out));
  EXPECT_FALSE(out.engines[0].server_ops.has_value());
  EXPECT_EQ(out.engines[0].trials[0].server_ops, 5000003u);
  EXPECT_EQ(out.engines[0].trials[0].ended_early, in.engines[0].trials[0].ended_early);
  EXPECT_FALSE(out.engines[0].trials[1].server_ops.has_value());
  in.engines[0].server_ops = 0;  // a server that counted nothing says 0
  EXPECT_EQ(nlohmann::json::parse(RenderRunJson(in))["engines"][0]["server_ops"], 0);
}

TEST(RunResultsJson, RoundTripKeepsEveryField) {
  const RunResults in = FullRun();
  RunResults out;
  // Writing the read value again gives the same document.
  ASSERT_TRUE(testing::RoundTrips(in, RenderRunJson, &out));
  EXPECT_EQ(out.setup_id, "perf-may");
  EXPECT_EQ(out.memtier.ratio, "1:4");
  EXPECT_TRUE(out.memtier.distinct_client_seed);
  EXPECT_EQ(out.warmup_requests, 0u);
  ASSERT_EQ(out.engines.size(), 2u);
  const EngineResult& e = out.engines[0];
  ASSERT_EQ(e.trials.size(), 2u);
  EXPECT_DOUBLE_EQ(e.trials[0].throughput, 2646502.25);
  EXPECT_EQ(e.trials[0].ops, 5000000u);
  EXPECT_EQ(e.trials[0].errors, 3u);
  EXPECT_DOUBLE_EQ(e.trials[1].duration_sec, 1.922);
  EXPECT_EQ(e.trials[1].raw_file, "memtier/dragonfly-t2.json");
  ExpectStatsEq(e.throughput, in.engines[0].throughput);
  ExpectStatsEq(e.avg_latency, in.engines[0].avg_latency);
  EXPECT_EQ(e.origin, "release");
  EXPECT_EQ(e.sha256, std::string(64, 'a'));
  EXPECT_EQ(e.tuning["num_shards"], 14);
  EXPECT_TRUE(e.approximate);
  EXPECT_TRUE(e.error.empty());
  EXPECT_EQ(out.engines[1].error, "redis-server exited: exit code 1");
  EXPECT_TRUE(out.engines[1].tuning.is_null());
  ASSERT_EQ(out.context.hosts.size(), 1u);
  EXPECT_EQ(out.context.hosts[0].memory_bytes, 34359738368ULL);
  EXPECT_EQ(out.context.hosts[0].cpus, (std::vector<int>{2, 3}));
  EXPECT_EQ(out.context.provider, "local");
}

TEST(RunResultsJson, OptionalEngineFieldsAreWrittenOnlyWhenSet) {
  const nlohmann::json j = ToJson(FullRun());
  EXPECT_TRUE(j["engines"][0].contains("tuning"));
  EXPECT_TRUE(j["engines"][0].contains("approximate"));
  EXPECT_FALSE(j["engines"][0].contains("error"));
  EXPECT_TRUE(j["engines"][1].contains("error"));
  EXPECT_FALSE(j["engines"][1].contains("tuning"));
  EXPECT_FALSE(j["engines"][1].contains("approximate"));
  // An engine whose install is unknown (older setups) writes neither field.
  EXPECT_EQ(j["engines"][0]["origin"], "release");
  EXPECT_FALSE(j["engines"][1].contains("origin"));
  EXPECT_FALSE(j["engines"][1].contains("sha256"));
}

TEST(RunResultsJson, TuningFieldsSitInTheEngineRowAsInTheReference) {
  const nlohmann::json j = ToJson(FullRun());
  const nlohmann::json& dragonfly = j["engines"][0];
  EXPECT_EQ(dragonfly["num_shards"], 14);
  EXPECT_EQ(dragonfly["conn_use_incoming_cpu"], true);
  EXPECT_FALSE(dragonfly.contains("io_threads"));
  EXPECT_FALSE(dragonfly.contains("pin_network"));
  EXPECT_EQ(dragonfly["tuning"]["num_shards"], 14);  // the tuning record stays
  const nlohmann::json& redis = j["engines"][1];
  EXPECT_EQ(redis["io_threads"], 0);  // written when set, zero included
  EXPECT_EQ(redis["pin_network"], false);
  EXPECT_FALSE(redis.contains("num_shards"));
  EXPECT_FALSE(redis.contains("conn_use_incoming_cpu"));

  RunResults back;
  ASSERT_TRUE(testing::RoundTrips(FullRun(), RenderRunJson, &back));
  EXPECT_EQ(back.engines[0].num_shards, 14);
  EXPECT_EQ(back.engines[0].conn_use_incoming_cpu, true);
  EXPECT_FALSE(back.engines[0].io_threads.has_value());
  EXPECT_EQ(back.engines[1].io_threads, 0);
  EXPECT_EQ(back.engines[1].pin_network, false);
  // The reference's own file: the fields read as they are.
  RunResults reference;
  std::string error;
  ASSERT_TRUE(FromJson(nlohmann::json::parse(
                           R"({"engines": [{"engine": "redis", "io_threads": 8,
                                            "pin_network": true}]})"),
                       &reference, &error))
      << error;
  EXPECT_EQ(reference.engines[0].io_threads, 8);
  EXPECT_EQ(reference.engines[0].pin_network, true);
}

TEST(RunResultsJson, WritesKeysInReferenceOrderAndWholeNumbersAsIntegers) {
  const std::string text = RenderRunJson(FullRun());
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.rfind("{\n  \"run_id\": \"20260408-143217\",\n  \"setup_id\": \"perf-may\",\n", 0),
            0u)
      << text;
  EXPECT_LT(text.find("\"memtier\""), text.find("\"engines\""));
  EXPECT_LT(text.find("\"median\""), text.find("\"min\""));
  EXPECT_NE(text.find("\"throughput\": 2601000,"), std::string::npos) << text;
  EXPECT_NE(text.find("\"throughput\": 2646502.25,"), std::string::npos) << text;
}

TEST(RunResultsJson, ReadsTheReferenceExample) {
  RunResults r;
  ASSERT_TRUE(testing::Reads(kReferenceRunResults, &r));
  EXPECT_EQ(r.run_id, "20260408-143217");
  EXPECT_EQ(r.completed_at, "2026-04-08T14:41:05Z");
  EXPECT_EQ(r.aws_account, "123456789012");
  EXPECT_EQ(r.memtier.threads, 8);
  EXPECT_EQ(r.memtier.requests, 1000000u);
  EXPECT_FALSE(r.memtier.distinct_client_seed);
  EXPECT_EQ(r.warmup_requests, 100000u);
  EXPECT_EQ(r.trials, 3);
  ASSERT_EQ(r.engines.size(), 1u);
  const EngineResult& e = r.engines[0];
  EXPECT_EQ(e.version, "dragonfly v1.27.0");
  EXPECT_TRUE(e.origin.empty());  // ours only: absent in the reference's files
  EXPECT_TRUE(e.sha256.empty());
  ASSERT_EQ(e.trials.size(), 1u);
  EXPECT_EQ(e.trials[0].throughput, 2646502);
  EXPECT_DOUBLE_EQ(e.trials[0].avg_latency, 4.72);
  EXPECT_EQ(e.trials[0].ops, 0u);  // ours only: defaults
  ExpectStatsEq(e.throughput, MakeStats(2646502, 2601000, 2672000, 35400));
  ExpectStatsEq(e.p99, MakeStats(7.1, 7, 7.3, 0.15));
  EXPECT_DOUBLE_EQ(e.avg_latency.max, 4.8);
  EXPECT_TRUE(e.error.empty());
  EXPECT_TRUE(e.tuning.is_null());
  EXPECT_TRUE(r.setup_id.empty());
  EXPECT_TRUE(r.context.hosts.empty());
}

TEST(RunResultsJson, EmptyStatsObjectsReadAsZero) {
  // The reference's per-command example writes "p50": {}.
  auto j = nlohmann::json::parse(kReferenceRunResults);
  j["engines"][0]["p50"] = nlohmann::json::object();
  RunResults r;
  std::string error;
  ASSERT_TRUE(FromJson(j, &r, &error)) << error;
  ExpectStatsEq(r.engines[0].p50, Stats{});
}

// The error message for `j` after `mutate`, or "" when it reads.
std::string ReadError(void (*mutate)(nlohmann::json&)) {
  auto j = nlohmann::json::parse(kReferenceRunResults);
  j["engines"].push_back(j["engines"][0]);
  mutate(j);
  RunResults r;
  std::string error;
  return FromJson(j, &r, &error) ? "" : error;
}

TEST(RunResultsJson, WrongTypesNameTheFieldPath) {
  EXPECT_EQ(ReadError([](nlohmann::json& j) { j["engines"][1]["trials"][0]["throughput"] = "x"; }),
            "engines[1].trials[0].throughput: expected a number");
  EXPECT_EQ(ReadError([](nlohmann::json& j) { j["engines"] = nlohmann::json::object(); }),
            "engines: expected an array");
  EXPECT_EQ(ReadError([](nlohmann::json& j) { j["memtier"]["threads"] = 4.5; }),
            "memtier.threads: expected an integer");
  EXPECT_EQ(ReadError([](nlohmann::json& j) { j["warmup_requests"] = -1; }),
            "warmup_requests: expected a non-negative integer");
  EXPECT_EQ(ReadError([](nlohmann::json& j) { j["engines"][0]["p99"] = 7; }),
            "engines[0].p99: expected an object");
  EXPECT_EQ(ReadError([](nlohmann::json& j) { j["engines"][1]["version"] = 7; }),
            "engines[1].version: expected a string");
  EXPECT_EQ(ReadError([](nlohmann::json& j) { j["memtier"]["distinct_client_seed"] = "no"; }),
            "memtier.distinct_client_seed: expected true or false");
  EXPECT_EQ(ReadError([](nlohmann::json& j) {
              j["context"] = nlohmann::json::parse(R"({"hosts": [{"cpus": [1, "2"]}]})");
            }),
            "context.hosts[0].cpus[1]: expected an integer");
}

TEST(RunResultsJson, NumbersConvertWhenLossless) {
  EXPECT_EQ(ReadError([](nlohmann::json& j) {
              j["trials"] = 3.0;                           // whole double for an integer
              j["engines"][0]["trials"][0]["ops"] = 12.0;  // and for an unsigned one
              j["engines"][0]["p50"]["median"] = 5;        // integer for a double
              j["memtier"]["threads"] = nullptr;           // null keeps the default
            }),
            "");
  EXPECT_EQ(ReadError([](nlohmann::json& j) { j["trials"] = 3e10; }),
            "trials: expected an integer");
}

TEST(RunResultsJson, RootMustBeAnObjectAndFailureLeavesOutputAlone) {
  RunResults r;
  r.run_id = "keep";
  std::string error;
  EXPECT_FALSE(FromJson(nlohmann::json::array(), &r, &error));
  EXPECT_EQ(error, "expected an object");
  EXPECT_FALSE(FromJson(nlohmann::json::parse(R"({"run_id": "x", "trials": "3"})"), &r, &error));
  EXPECT_EQ(error, "trials: expected an integer");
  EXPECT_EQ(r.run_id, "keep");
}

TEST(HostFactsJson, PathAwareReaderPrefixesErrors) {
  HostFacts h;
  std::string error;
  EXPECT_FALSE(FieldsFromJson(nlohmann::json{{"vcpus", "many"}}, "hosts[2]", &h, &error));
  EXPECT_EQ(error, "hosts[2].vcpus: expected an integer");
  EXPECT_TRUE(
      FieldsFromJson(nlohmann::json{{"vcpus", 8}, {"role", "server"}}, "hosts[0]", &h, &error));
  EXPECT_EQ(h.vcpus, 8);
  EXPECT_EQ(h.role.Name(), "server");
}

}  // namespace
}  // namespace dfbench::results
