#include "loadgen/report_configuration.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dfbench::loadgen {
namespace {

TEST(MemtierConfiguration, EveryKeyOfMemtiersInItsOrder) {
  // memtier_benchmark 2.3.0's config_print_to_json (a TLS build, no --clients-start).
  const std::vector<std::string> memtier = {"server",
                                            "port",
                                            "uri",
                                            "unix socket",
                                            "address family",
                                            "protocol",
                                            "out_file",
                                            "tls",
                                            "cert",
                                            "key",
                                            "cacert",
                                            "tls_skip_verify",
                                            "sni",
                                            "client_stats",
                                            "run_count",
                                            "debug",
                                            "requests",
                                            "rate_limit",
                                            "clients",
                                            "threads",
                                            "test_time",
                                            "ratio",
                                            "pipeline",
                                            "data_size",
                                            "data_offset",
                                            "random_data",
                                            "data_size_range",
                                            "data_size_list",
                                            "data_size_pattern",
                                            "expiry_range",
                                            "data_import",
                                            "data_verify",
                                            "verify_only",
                                            "generate_keys",
                                            "key_prefix",
                                            "key_minimum",
                                            "key_maximum",
                                            "key_pattern",
                                            "key_stddev",
                                            "key_median",
                                            "key_zipf_exp",
                                            "reconnect_interval",
                                            "connection_timeout",
                                            "thread_conn_start_min_jitter_micros",
                                            "thread_conn_start_max_jitter_micros",
                                            "multi_key_get",
                                            "authenticate",
                                            "select-db",
                                            "no-expiry",
                                            "wait-ratio",
                                            "num-slaves",
                                            "wait-timeout",
                                            "print-all-runs"};
  std::vector<std::string> ours;
  const auto j = MemtierConfigurationJson(Config{});
  for (const auto& [key, value] : j.items()) ours.push_back(key);
  EXPECT_EQ(ours, memtier);
}

TEST(MemtierConfiguration, MemtiersValuesForWhatIsNotGiven) {
  const auto j = MemtierConfigurationJson(Config{});
  for (const char* key :
       {"unix socket", "out_file", "cert", "key", "cacert", "sni", "client_stats", "data_import"}) {
    EXPECT_TRUE(j[key].is_null()) << key;
  }
  EXPECT_EQ(j["uri"], "");
  EXPECT_EQ(j["address family"], "Unspecified");
  EXPECT_EQ(j["tls"], "false");
  EXPECT_EQ(j["debug"], 0);
  EXPECT_EQ(j["data_size_list"], "");
  EXPECT_EQ(j["multi_key_get"], 0);
  EXPECT_EQ(j["no-expiry"], "false");
  EXPECT_EQ(j["wait-ratio"], "0:0");
  EXPECT_EQ(j["num-slaves"], "0:0");
  EXPECT_EQ(j["wait-timeout"], "0-0");
}

TEST(MemtierConfiguration, WhatWasGiven) {
  Config c;
  c.address_family = AddressFamily::kIpv6;
  c.out_file = "out.txt";
  c.data_size_list = {{16, 1}, {32, 2}};
  c.data_offset = 4;
  c.random_data = true;
  c.debug = true;
  c.conn_start_jitter_min_us = 1;
  c.conn_start_jitter_max_us = 10;
  c.tls.cert = "client.crt";
  const auto j = MemtierConfigurationJson(c);
  EXPECT_EQ(j["address family"], "AF_INET6");
  EXPECT_EQ(j["out_file"], "out.txt");
  EXPECT_EQ(j["data_size_list"], "16:1,32:2");
  EXPECT_EQ(j["data_offset"], 4);
  EXPECT_EQ(j["random_data"], "true");
  EXPECT_EQ(j["debug"], 1);
  EXPECT_EQ(j["thread_conn_start_min_jitter_micros"], 1);
  EXPECT_EQ(j["thread_conn_start_max_jitter_micros"], 10);
  EXPECT_EQ(j["cert"], "client.crt");
}

TEST(MemtierConfiguration, UriNeverHoldsThePassword) {
  Config c;
  c.uri = "redis://alice:s3cret@127.0.0.1:6379/2";
  EXPECT_EQ(MemtierConfigurationJson(c)["uri"], "redis://alice:(set)@127.0.0.1:6379/2");
  c.uri = "redis://127.0.0.1:6379";
  EXPECT_EQ(MemtierConfigurationJson(c)["uri"], "redis://127.0.0.1:6379");
}

TEST(OwnConfiguration, WhatMemtiersKeysDoNotSay) {
  Config c;
  c.randomize = true;
  c.commands = {{.text = "GET __key__", .ratio = 2}};
  const auto j = OwnConfigurationJson(c);
  EXPECT_EQ(j["randomize"], true);
  EXPECT_EQ(j["print-percentiles"], "50,99,99.9");
  ASSERT_EQ(j["commands"].size(), 1u);
  EXPECT_EQ(j["commands"][0]["ratio"], 2);
  EXPECT_TRUE(j.contains("warmup_time"));
}

}  // namespace
}  // namespace dfbench::loadgen
