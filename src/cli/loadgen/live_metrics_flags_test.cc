#include "cli/loadgen/live_metrics_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"
#include "cli/loadgen/loadgen_flags.h"

namespace dfbench::cli {
namespace {

const CommandLine<LoadgenOptions, &AddLoadgenFlags, &ToLoadgenConfig> kLoadgenMetrics{"loadgen"};

TEST(LiveMetricsFlags, DefaultsAreMemtiersAndEverythingIsOff) {
  const auto m = kLoadgenMetrics.OptionsOf({}).metrics;
  EXPECT_EQ(m.statsd_host, "");
  EXPECT_EQ(m.statsd_port, 8125);
  EXPECT_EQ(m.statsd_prefix, "memtier");
  EXPECT_EQ(m.statsd_run_label, "default");
  EXPECT_EQ(m.graphite_port, 8080);
  EXPECT_EQ(m.prometheus_port, 0);
  EXPECT_EQ(m.prometheus_bind, "127.0.0.1");
}

TEST(LiveMetricsFlags, EachFlagLands) {
  const auto m = kLoadgenMetrics
                     .OptionsOf(Argv("--statsd-host stats --statsd-port 9125 --statsd-prefix a.b "
                                     "--statsd-run-label r1 --graphite-port 80 "
                                     "--prometheus-port 9100 --prometheus-bind 0.0.0.0"))
                     .metrics;
  EXPECT_EQ(m.statsd_host, "stats");
  EXPECT_EQ(m.statsd_port, 9125);
  EXPECT_EQ(m.statsd_prefix, "a.b");
  EXPECT_EQ(m.statsd_run_label, "r1");
  EXPECT_EQ(m.graphite_port, 80);
  EXPECT_EQ(m.prometheus_port, 9100);
  EXPECT_EQ(m.prometheus_bind, "0.0.0.0");
}

TEST(LiveMetricsFlags, PortsAreCheckedAsMemtierDoes) {
  // memtier refuses port 0 ("must be a valid port number"); so do we, naming the flag.
  for (const char* flag : {"--statsd-port", "--graphite-port", "--prometheus-port"}) {
    const std::string error = kLoadgenMetrics.ParseErrorOf({flag, "0"});
    EXPECT_NE(error.find(flag), std::string::npos) << error;
    EXPECT_NE(kLoadgenMetrics.ParseErrorOf({flag, "65536"}), "");
  }
}

}  // namespace
}  // namespace dfbench::cli
