// Every option memtier_benchmark 2.3.0's --help lists (the test beds' build) against
// `dfbench loadgen`: each is given with a value memtier takes, and dfbench must not refuse it as a
// usage error (exit 2). The options not taken yet are listed here by name, and must still be
// refused: the list shrinks as each lands, and an option refused that is not on it fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/files.h"
#include "core/subprocess.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"
#include "support/test_server.h"
#include "support/test_tls.h"
#include "support/testbed_engines.h"

namespace dfbench {
namespace {

// The long options of memtier's --help: an option line starts with two spaces and a short
// option, or six spaces and the long one (descriptions are indented further).
std::set<std::string> MemtierLongOptions(const std::string& help) {
  static const std::regex kOptionLine(R"(^(?:  -[A-Za-z0-9],?\s+|      )--([a-z0-9-]+))");
  std::set<std::string> options;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, kOptionLine)) options.insert(m[1]);
  }
  return options;
}

// memtier's options dfbench loadgen does not take yet.
const std::set<std::string> kNotTakenYet = {
    "data-verify",
    "multi-key-get",
    "verify-only",
};

class MemtierOptions : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = testing::MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
    auto certs = testing::MakeTestCertificates(dir_.path());
    ASSERT_TRUE(certs) << certs.error().message;
    certs_ = *certs;
    ASSERT_TRUE(core::WriteFileAtomic(
        monitor_, "1700000000.000000 [0 127.0.0.1:50000] \"SET\" \"k\" \"v\"\n"));
    ASSERT_TRUE(core::WriteFileAtomic(
        import_,
        "dumpflags, time, exptime, nbytes, nsuffix, it_flags, clsid, nkey, key, data\n"
        "0, 0, 0, 3, 0, 0, 1, 1, \"k\", \"v\"\n"));
  }

  // Each memtier option with arguments memtier takes: the option, then what it needs beside it.
  std::map<std::string, std::vector<std::string>> Samples() const {
    auto samples = ConnectionAndOutputSamples();
    samples.merge(LoadSamples());
    return samples;
  }
  // Connection, general, output and reconnection options.
  std::map<std::string, std::vector<std::string>> ConnectionAndOutputSamples() const {
    const std::string port = std::to_string(port_);
    return {
        {"authenticate", {"--authenticate", "secret"}},
        {"cacert", {"--tls", "--cacert", certs_.ca_cert}},
        {"cert", {"--tls", "--cert", certs_.client_cert, "--key", certs_.client_key}},
        {"client-stats", {"--client-stats", (dir_.path() / "clients").string()}},
        {"cluster-mode", {"--cluster-mode"}},
        {"command-stats-breakdown", {"--command-stats-breakdown", "line"}},
        {"connection-timeout", {"--connection-timeout", "1"}},
        {"debug", {"--debug"}},
        {"graphite-port", {"--statsd-host", "127.0.0.1", "--graphite-port", port}},
        {"help", {"--help"}},
        {"hdr-file-prefix", {"--hdr-file-prefix", (dir_.path() / "hdr").string()}},
        {"hide-histogram", {"--hide-histogram"}},
        {"host", {"--host", "127.0.0.1", "--port", port}},
        {"ipv4", {"--ipv4"}},
        {"ipv6", {"--ipv6", "--server", "::1", "--port", port}},
        {"json-out-file", {"--json-out-file", (dir_.path() / "out.json").string()}},
        {"key", {"--tls", "--cert", certs_.client_cert, "--key", certs_.client_key}},
        {"max-reconnect-attempts", {"--reconnect-on-error", "--max-reconnect-attempts", "2"}},
        {"out-file", {"--out-file", (dir_.path() / "out.txt").string()}},
        {"port", {"--server", "127.0.0.1", "--port", port}},
        {"print-all-runs", {"--run-count", "2", "--print-all-runs"}},
        {"print-percentiles", {"--print-percentiles", "0,50,100"}},
        {"protocol", {"--protocol", "resp2"}},
        {"reconnect-backoff-factor", {"--reconnect-on-error", "--reconnect-backoff-factor", "2"}},
        {"reconnect-interval", {"--reconnect-interval", "10"}},
        {"reconnect-on-error", {"--reconnect-on-error"}},
        {"run-count", {"--run-count", "2"}},
        {"select-db", {"--select-db", "1"}},
        {"server", {"--server", "127.0.0.1", "--port", port}},
        {"show-config", {"--show-config"}},
        {"sni", {"--tls", "--sni", "example.invalid"}},
        {"statsd-host", {"--statsd-host", "127.0.0.1"}},
        {"statsd-port", {"--statsd-host", "127.0.0.1", "--statsd-port", port}},
        {"statsd-prefix", {"--statsd-host", "127.0.0.1", "--statsd-prefix", "p"}},
        {"statsd-run-label", {"--statsd-host", "127.0.0.1", "--statsd-run-label", "r"}},
        {"tls", {"--tls"}},
        {"tls-protocols", {"--tls", "--tls-protocols", "TLSv1.2,TLSv1.3"}},
        {"tls-skip-verify", {"--tls", "--tls-skip-verify"}},
        {"unix-socket", {"--unix-socket", (dir_.path() / "none.sock").string()}},
        {"uri", {"--uri", "redis://127.0.0.1:" + port + "/1"}},
        {"version", {"--version"}},
    };
  }
  // Test, object, key and data options.
  std::map<std::string, std::vector<std::string>> LoadSamples() const {
    return {
        {"clients", {"--clients", "1"}},
        {"clients-start",
         {"--clients", "2", "--clients-start", "1", "--clients-step", "1", "--step-duration", "1",
          "--test-time", "1"}},
        {"clients-step",
         {"--clients", "2", "--clients-start", "1", "--clients-step", "1", "--step-duration", "1",
          "--test-time", "1"}},
        {"command", {"--command", "SET __key__ __data__"}},
        {"command-key-pattern", {"--command", "GET __key__", "--command-key-pattern", "S"}},
        {"command-ratio", {"--command", "GET __key__", "--command-ratio", "2"}},
        {"data-import", {"--data-import", import_.string()}},
        {"data-offset", {"--data-offset", "4"}},
        {"data-size", {"--data-size", "16"}},
        {"data-size-list", {"--data-size-list", "16:1,32:2"}},
        {"data-size-pattern", {"--data-size-range", "16-32", "--data-size-pattern", "S"}},
        {"data-size-range", {"--data-size-range", "16-32"}},
        {"data-verify", {"--data-import", import_.string(), "--data-verify"}},
        {"distinct-client-seed", {"--distinct-client-seed"}},
        {"expiry-range", {"--expiry-range", "10-20"}},
        {"generate-keys", {"--data-import", import_.string(), "--generate-keys"}},
        {"key-maximum", {"--key-maximum", "100"}},
        {"key-median", {"--key-pattern", "G:G", "--key-median", "50"}},
        {"key-minimum", {"--key-minimum", "1"}},
        {"key-pattern", {"--key-pattern", "S:S"}},
        {"key-prefix", {"--key-prefix", "k-"}},
        {"key-stddev", {"--key-pattern", "G:G", "--key-stddev", "10"}},
        {"key-zipf-exp", {"--key-pattern", "Z:Z", "--key-zipf-exp", "1.5"}},
        {"monitor-input", {"--monitor-input", monitor_.string(), "--command", "__monitor_line1__"}},
        {"monitor-pattern",
         {"--monitor-input", monitor_.string(), "--command", "__monitor_line@__",
          "--monitor-pattern", "R"}},
        {"multi-key-get", {"--multi-key-get", "3"}},
        {"no-expiry", {"--data-import", import_.string(), "--no-expiry"}},
        {"num-slaves", {"--num-slaves", "1-1", "--wait-ratio", "1:1"}},
        {"pipeline", {"--pipeline", "2"}},
        {"random-data", {"--random-data"}},
        {"randomize", {"--randomize"}},
        {"rate-limiting", {"--rate-limiting", "100"}},
        {"ratio", {"--ratio", "1:1"}},
        {"requests", {"--requests", "5"}},
        {"scan-incremental-iteration", {"--command", "SCAN 0", "--scan-incremental-iteration"}},
        {"scan-incremental-max-iterations",
         {"--command", "SCAN 0", "--scan-incremental-iteration",
          "--scan-incremental-max-iterations", "3"}},
        {"step-duration",
         {"--clients", "2", "--clients-start", "1", "--clients-step", "1", "--step-duration", "1",
          "--test-time", "1"}},
        {"test-time", {"--test-time", "1"}},
        {"thread-conn-start-max-jitter-micros", {"--thread-conn-start-max-jitter-micros", "10"}},
        {"thread-conn-start-min-jitter-micros",
         {"--thread-conn-start-min-jitter-micros", "1", "--thread-conn-start-max-jitter-micros",
          "10"}},
        {"threads", {"--threads", "1"}},
        {"verify-only", {"--data-import", import_.string(), "--verify-only"}},
        {"wait-ratio", {"--num-slaves", "1-1", "--wait-ratio", "1:1"}},
        {"wait-timeout", {"--num-slaves", "1-1", "--wait-ratio", "1:1", "--wait-timeout", "1-2"}},
    };
  }

  // dfbench loadgen with `args` against a port nothing listens on: a taken option ends with
  // that server unreachable (exit 5) or its own output (exit 0), never a usage error. The
  // small run's flags are added unless `args` gives them.
  core::CapturedOutput Loadgen(const std::vector<std::string>& args) const {
    const auto gives = [&](std::initializer_list<std::string_view> flags) {
      return std::ranges::any_of(
          args, [&](const std::string& a) { return std::ranges::find(flags, a) != flags.end(); });
    };
    std::vector<std::string> argv = {LOADGEN_BINARY, "loadgen"};
    if (!gives({"--server", "--host", "--port", "--uri", "--unix-socket"})) {
      argv.insert(argv.end(), {"--server", "127.0.0.1", "--port", std::to_string(port_)});
    }
    if (!gives({"--threads"})) argv.insert(argv.end(), {"--threads", "1"});
    if (!gives({"--clients"})) argv.insert(argv.end(), {"--clients", "1"});
    if (!gives({"--requests", "--test-time"})) argv.insert(argv.end(), {"--requests", "1"});
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = core::RunCapture(argv, std::chrono::seconds(60));
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : core::CapturedOutput{};
  }

  testing::ScopedTempDir dir_{"memtier-options"};
  std::filesystem::path monitor_ = dir_.path() / "monitor.txt";
  std::filesystem::path import_ = dir_.path() / "import.csv";
  testing::TestCertificates certs_;
  int port_ = testing::FreePort();
};

TEST_F(MemtierOptions, EveryOptionOfMemtiersHelpIsTakenOrListedAsNotYet) {
  auto help =
      core::RunCapture({testing::MemtierBinary().string(), "--help"}, std::chrono::seconds(30));
  ASSERT_TRUE(help) << help.error().message;
  const std::set<std::string> options = MemtierLongOptions(help->out + help->err);
  ASSERT_GE(options.size(), 80u) << help->out;

  const auto samples = Samples();
  size_t taken = 0;
  for (const std::string& option : options) {
    const auto sample = samples.find(option);
    ASSERT_NE(sample, samples.end()) << "memtier's --" << option << " has no sample here";
    const core::CapturedOutput out = Loadgen(sample->second);
    if (kNotTakenYet.contains(option)) {
      EXPECT_EQ(out.status.code, 2) << "--" << option << " is taken now: take it off the list";
      continue;
    }
    EXPECT_NE(out.status.code, 2) << "--" << option << " refused: " << out.err;
    ++taken;
  }
  for (const std::string& option : kNotTakenYet) EXPECT_TRUE(options.contains(option)) << option;
  std::cout << "memtier_benchmark options: " << options.size()
            << ", taken by dfbench loadgen: " << taken << ", not yet: " << kNotTakenYet.size()
            << "\n";
}

}  // namespace
}  // namespace dfbench
