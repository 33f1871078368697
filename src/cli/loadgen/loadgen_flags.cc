#include "cli/loadgen/loadgen_flags.h"

#include <cstdlib>
#include <functional>

#include "cli/flag_ranges.h"
#include "cli/loadgen/live_metrics_flags.h"
#include "cli/loadgen/loadgen_outputs.h"
#include "cli/loadgen/wait_flags.h"
#include "core/files.h"
#include "core/format.h"
#include "protocol/server_endpoint.h"

namespace dfbench::cli {
namespace {

// A flag that applies to the --command before it, so it is handled as it is parsed, in
// command-line order: `apply` sets it on that command, or returns what is wrong with the value.
using ApplyToCommand = std::function<std::string(const std::string&, loadgen::CommandConfig*)>;
void AddPerCommandFlag(CLI::App* sub, LoadgenOptions* o, const std::string& flag,
                       ApplyToCommand apply, const std::string& help) {
  sub->add_option_function<std::string>(
         flag,
         [o, flag, apply = std::move(apply)](const std::string& text) {
           if (o->config.commands.empty()) {
             o->options_error = flag + " must follow the --command it applies to";
             return;
           }
           std::string error = apply(text, &o->config.commands.back());
           if (!error.empty()) o->options_error = std::move(error);
         },
         help)
      ->trigger_on_parse()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// memtier's replay of a MONITOR capture and its SCAN walk, both through --command.
void AddReplayFlags(CLI::App* sub, LoadgenOptions* o) {
  sub->add_option("--monitor-input", o->config.monitor_input,
                  "A redis MONITOR capture: --command __monitor_lineN__ sends its N-th command, "
                  "__monitor_line@__ one of them per request");
  sub->add_option("--monitor-pattern", o->monitor_pattern,
                  "How __monitor_line@__ picks: S the captured commands in turn, R at random")
      ->default_str("S");
  AddBoolFlag(sub, "--scan-incremental-iteration", &o->config.scan_incremental,
              "The one --command, \"SCAN 0 ...\", follows the cursor of each reply "
              "(\"SCAN <cursor> ...\") until it is 0, then starts again; needs --pipeline 1");
  AddRangedOption(sub, "--scan-incremental-max-iterations", &o->config.scan_max_iterations,
                  NumberKind::kInteger,
                  "Continuation SCANs of a walk before it starts again (0: until the cursor is 0)");
}

void AddCommandFlags(CLI::App* sub, LoadgenOptions* o) {
  sub->add_option_function<std::string>(
         "--command",
         [o](const std::string& text) {
           o->config.commands.push_back(loadgen::CommandConfig{text});
         },
         "Custom command with __key__ and __data__ placeholders (repeatable), e.g. "
         "\"LPUSH __key__ __data__\"")
      ->trigger_on_parse()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  AddPerCommandFlag(
      sub, o, "--command-ratio",
      [](const std::string& text, loadgen::CommandConfig* command) -> std::string {
        char* end = nullptr;
        const unsigned long v = std::strtoul(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || v == 0 || v > UINT32_MAX) {
          return "invalid --command-ratio '" + text + "' (expected a count >= 1)";
        }
        command->ratio = static_cast<uint32_t>(v);
        return "";
      },
      "Times the preceding --command is sent in sequence (default 1)");
  AddPerCommandFlag(
      sub, o, "--command-key-pattern",
      [](const std::string& text, loadgen::CommandConfig* command) -> std::string {
        auto p = ParseKeyPatternLetter(text);
        if (!p) return "--command-key-pattern: " + p.error().message;
        command->key_pattern = *p;
        return "";
      },
      "Key pattern of the preceding --command: R, S, P, G or Z (default R)");
  AddReplayFlags(sub, o);
}

// memtier's -4 and -6: the addresses --server may resolve to. As with getopt, the last given wins.
void AddAddressFamilyFlags(CLI::App* sub, LoadgenOptions* o) {
  using loadgen::AddressFamily;
  const auto set = [o](AddressFamily family) {
    return [o, family](bool on) {
      if (on) {
        o->config.address_family = family;
      } else if (o->config.address_family == family) {
        o->config.address_family = AddressFamily::kAny;
      }
    };
  };
  AddBoolFlag(sub, "-4,--ipv4", set(AddressFamily::kIpv4), "Resolve --server to IPv4 only")
      ->trigger_on_parse();
  AddBoolFlag(sub, "-6,--ipv6", set(AddressFamily::kIpv6), "Resolve --server to IPv6 only")
      ->trigger_on_parse();
}

// memtier's pauses between a thread's opening one connection and the next.
void AddConnStartJitterFlags(CLI::App* sub, LoadgenOptions* o) {
  using enum NumberKind;
  AddRangedOption(sub, "--thread-conn-start-min-jitter-micros", &o->config.conn_start_jitter_min_us,
                  kInteger,
                  "Shortest pause between a thread's opening one connection and the next (us)");
  AddRangedOption(sub, "--thread-conn-start-max-jitter-micros", &o->config.conn_start_jitter_max_us,
                  kInteger, "Longest such pause; 0: none (each pause is random in min..max)");
}

// memtier's client staircase: each thread's clients join a few at a time.
void AddStaircaseFlags(CLI::App* sub, LoadgenOptions* o) {
  using enum NumberKind;
  AddRangedOption(sub, "--clients-start", &o->config.clients_start, kInteger,
                  "Clients each thread starts with, fewer than --clients (with --clients-step "
                  "and --step-duration, and --test-time)");
  AddRangedOption(sub, "--clients-step", &o->config.clients_step, kInteger,
                  "Clients each thread adds at every step, up to --clients");
  AddRangedOption(sub, "--step-duration", &o->config.step_duration_s, kInteger,
                  "Seconds of each step before the next clients join");
}

// memtier's reconnect flags, with memtier's meanings, beside our --reconnect.
void AddReconnectFlags(CLI::App* sub, LoadgenOptions* o) {
  using enum NumberKind;
  AddRangedOption(sub, "--reconnect-interval", &o->config.reconnect_interval, kInteger,
                  "Close and reopen each connection after this many requests, all answered "
                  "first (0: never)");
  AddBoolFlag(sub, "--reconnect-on-error", &o->reconnect_on_error,
              "Reconnect lost connections (memtier's; already our default, --reconnect on)");
  WithRange(sub->add_option("--max-reconnect-attempts", o->max_reconnect_attempts,
                            "Give a lost connection up after this many failed attempts (0: "
                            "unlimited; default: after 10 s without the server)"),
            kInteger);
  sub->add_option("--reconnect-backoff-factor", o->reconnect_backoff_factor,
                  "memtier's waits between attempts: F^n s before the n-th (0: 1 s each; "
                  "default: 10 ms doubling to 1 s)");
  AddRangedOption(sub, "--connection-timeout", &o->config.connection_timeout_s, kInteger,
                  "Seconds a connect (and TLS handshake) may take before it fails and is "
                  "retried (0: the kernel's)");
}

// Where the server is and how to reach it: address or socket, credentials, protocol, TLS.
void AddConnectionFlags(CLI::App* sub, LoadgenOptions* o) {
  using enum NumberKind;
  // memtier's -h is --host, a synonym of -s (memtier_benchmark.cpp's getopt string has "h:"), so
  // `-h localhost` names the server; help stays --help.
  sub->set_help_flag("--help", "Print this help message and exit");
  sub->add_option("-s,-h,--server,--host", o->config.server, "Server address")
      ->capture_default_str();
  AddRangedOption(sub, "-p,--port", &o->config.port, kInteger, "Server port");
  AddAddressFamilyFlags(sub, o);
  sub->add_option("-u,--uri", o->uri,
                  "Server as redis://[[USER]:PASS@]HOST[:PORT][/DB], rediss:// for TLS; it "
                  "takes precedence over -s, -p, -a and --select-db");
  sub->add_option("-S,--unix-socket", o->config.unix_socket,
                  "Unix domain socket of the server (instead of --server and --port)");
  sub->add_option("-a,--authenticate", o->password,
                  "Password (AUTH PASS), or USER:PASS for an ACL user; :PASS for a password "
                  "with a colon. Not given: $" +
                      std::string(protocol::kPasswordEnv) + ", when set, is the password");
  sub->add_option("--user", o->config.user, "ACL user; -a is then its password, colons and all");
  AddRangedOption(sub, "--select-db", &o->config.select_db, kInteger,
                  "Database to SELECT on every connection");
  sub->add_option("-P,--protocol", o->protocol,
                  "redis, resp2, resp3 (HELLO 2 or 3 on every connection) or memcache_text")
      ->capture_default_str();
  const std::string tls = "TLS";
  AddBoolFlag(sub, "--tls", &o->config.tls.enabled, "Connect over TLS")->group(tls);
  sub->add_option("--cert", o->config.tls.cert,
                  "Client certificate (PEM), for servers that ask for one")
      ->group(tls);
  sub->add_option("--key", o->config.tls.key, "The client certificate's private key (PEM)")
      ->group(tls);
  sub->add_option("--cacert", o->config.tls.cacert,
                  "CA bundle to verify the server's certificate with (default: the system's)")
      ->group(tls);
  AddBoolFlag(sub, "--tls-skip-verify", &o->config.tls.skip_verify,
              "Do not verify the server's certificate")
      ->group(tls);
  sub->add_option("--sni", o->config.tls.sni, "Server name to send in the TLS handshake (SNI)")
      ->group(tls);
  sub->add_option("--tls-protocols", o->tls_protocols,
                  "TLS versions the handshake may use: a comma list of TLSv1, TLSv1.1, TLSv1.2, "
                  "TLSv1.3 (default: OpenSSL's)")
      ->group(tls);
  AddBoolFlag(sub, "--cluster-mode", &o->config.cluster_mode,
              "Redis Cluster: --server is any node; each client connects to every primary and "
              "routes requests by key slot, following MOVED and ASK");
}

// How big values are, what bytes they hold and where they go: memtier's -d, --data-size-range,
// --data-size-list, --data-size-pattern, -R and --data-offset.
void AddValueFlags(CLI::App* sub, LoadgenOptions* o) {
  using enum NumberKind;
  AddRangedOption(sub, "-d,--data-size", &o->config.load.data_size, kInteger, "Value size in bytes")
      ->each([o](const std::string&) { o->data_size_given = true; });
  sub->add_option("--data-size-range", o->data_size_range, "Random value size in min-max");
  sub->add_option("--data-size-list", o->data_size_list,
                  "Value sizes in turn, each for WEIGHT requests: SIZE1:WEIGHT1,SIZE2:WEIGHT2,...");
  sub->add_option("--data-size-pattern", o->data_size_pattern,
                  "With --data-size-range: R random sizes, S sizes growing with the key from the "
                  "minimum at --key-minimum to the maximum at --key-maximum")
      ->default_str("R");
  AddBoolFlag(sub, "-R,--random-data", &o->config.random_data,
              "Values of random bytes, each one byte off the last (default: fixed bytes)");
  AddRangedOption(sub, "--data-offset", &o->config.data_offset, kInteger,
                  "SET and GET become SETRANGE KEY N VALUE and GETRANGE KEY N -1 at this offset "
                  "(redis; not with --expiry-range)");
}

// memtier's --data-import and the flags that go with it.
void AddImportFlags(CLI::App* sub, LoadgenOptions* o) {
  sub->add_option("--data-import", o->config.data_import, "Read object data from file");
  AddBoolFlag(sub, "--generate-keys", &o->config.generate_keys,
              "Generate keys for imported objects");
  AddBoolFlag(sub, "--no-expiry", &o->config.no_expiry,
              "Ignore expiry information in imported data");
}

// The keys' prefix, range and patterns, and the seeds of their draws.
void AddKeyFlags(CLI::App* sub, LoadgenOptions* o) {
  using enum NumberKind;
  const auto given = [o](const std::string&) { o->key_range_given = true; };
  sub->add_option("--key-prefix", o->config.load.key_prefix, "Key prefix")
      ->capture_default_str()
      ->each(given);
  AddRangedOption(sub, "--key-minimum", &o->config.load.key_minimum, kInteger, "Smallest key index")
      ->each(given);
  AddRangedOption(sub, "--key-maximum", &o->config.load.key_maximum, kInteger, "Largest key index")
      ->each(given);
  sub->add_option("--key-pattern", o->key_pattern,
                  "SET:GET key patterns (default R:R): R random, S sequential, P parallel "
                  "slices (P:P only), G gaussian, Z zipf");
  sub->add_option("--key-stddev", o->config.key_stddev,
                  "G pattern: standard deviation (default range/6)");
  sub->add_option("--key-median", o->config.key_median, "G pattern: median (default mid-range)");
  sub->add_option("--key-zipf-exp", o->config.key_zipf_exp, "Z pattern: exponent in (0, 5]")
      ->capture_default_str();
  AddBoolFlag(sub, "--distinct-client-seed", &o->config.load.distinct_client_seed,
              "Give each connection its own random seed (default: all share one)");
  AddBoolFlag(sub, "--randomize", &o->config.randomize, "Seed from a random source");
}

// The open loop's rate, the warm-up, and what lines several generators of one run up.
void AddPacingFlags(CLI::App* sub, LoadgenOptions* o) {
  using enum NumberKind;
  WithRange(sub->add_option("--rate", o->rate,
                            "Open loop: TOTAL target ops/sec (e.g. 50k); latency counts from "
                            "each request's due time"),
            kCount);
  WithRange(sub->add_option("--rate-limiting", o->rate_limiting,
                            "memtier's rate per connection: the open loop of --rate at this many "
                            "ops/sec on each connection"),
            kCount);
  WithRange(sub->add_option("--warmup-time", o->warmup_time,
                            "Run this long first and leave it out of the main figures"),
            kDuration);
  WithRange(sub->add_option("--start-at", o->config.pass.start_at_us,
                            "Connect, then hold the load until this instant (microseconds since "
                            "the epoch, this host's clock) less the warm-up: how several "
                            "generators start their measured parts together"),
            kInteger);
  WithRange(sub->add_option("--seed-client-base", o->config.load.seed_client_base,
                            "With --distinct-client-seed, seed connection i as connection N + i "
                            "(several generators of one run continue one another's seeds)"),
            kInteger);
}

}  // namespace

void AddLoadgenFlags(CLI::App* sub, LoadgenOptions* o) {
  using enum NumberKind;
  // As with getopt, a repeated flag takes its last value.
  sub->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  AddConnectionFlags(sub, o);
  AddRangedOption(sub, "-t,--threads", &o->config.load.threads, kInteger, "Worker threads");
  AddRangedOption(sub, "-c,--clients", &o->config.load.clients, kInteger, "Connections per thread");
  AddConnStartJitterFlags(sub, o);
  AddStaircaseFlags(sub, o);
  AddRangedOption(sub, "--pipeline", &o->config.load.pipeline, kInteger,
                  "Requests in flight per connection (open loop: the cap)");
  WithRange(sub->add_option("-n,--requests", o->requests,
                            "Requests per connection (default 10000), or 'allkeys' (with P:P, "
                            "each connection writes its slice of the key range once)"),
            kCount, "allkeys");
  WithRange(sub->add_option("--test-time", o->test_time, "Run for this long instead (30, 30s, 2m)"),
            kDuration);
  sub->add_option("--ratio", o->ratio, "SET:GET ratio (default 1:10)");
  AddValueFlags(sub, o);
  AddKeyFlags(sub, o);
  AddImportFlags(sub, o);
  AddCommandFlags(sub, o);
  sub->add_option("--expiry-range", o->expiry_range,
                  "SETs get a random TTL in min-max seconds (SETEX / memcache exptime)");
  sub->add_option("--json-out-file", o->config.json_out_file, "Write the JSON report here");
  sub->add_option("--hdr-file-prefix", o->config.hdr_file_prefix,
                  "Write HdrHistogram files as memtier does: PREFIX_FULL_RUN_1.txt (percentile "
                  "table, ms) and PREFIX_FULL_RUN_1.hgrm (histogram log, values in ns), and "
                  "PREFIX_<COMMAND>_command_run_1.* per command");
  sub->add_option("--client-stats", o->config.client_stats,
                  "Write each client's CSV file as memtier does: FILE-<run>-<thread>-<client>.csv "
                  "(per-second figures, latency tables)")
      ->type_name("FILE");
  // Read as it is given, over the Config's default, which --help shows.
  sub->add_option_function<std::string>(
         "--print-percentiles",
         [o](const std::string& text) {
           o->config.load.percentiles = OrExit(ParsePercentiles(text));
         },
         "Percentiles to report")
      ->default_str(core::Format("{}", fmt::join(o->config.load.percentiles, ",")));
  AddBoolFlag(sub, "--hide-histogram", &o->config.hide_histogram,
              "Don't print the request latency distribution");
  AddPacingFlags(sub, o);
  sub->add_option("--reconnect", o->reconnect,
                  "Reconnect lost connections with backoff (on), giving up after 10 s "
                  "without the server; or end the run at the first loss (off)")
      ->capture_default_str();
  AddReconnectFlags(sub, o);
  sub->add_option("--progress", o->progress,
                  "memtier's lines on stderr (where the report goes, the run's announcements, "
                  "the progress line each second): auto or always (the same: terminal or not), "
                  "never")
      ->capture_default_str();
  AddOutputFlags(sub, o);
  AddWaitFlags(sub, o);
  AddLiveMetricsFlags(sub, &o->config.metrics);
}

loadgen::Config ToLoadgenConfig(const LoadgenOptions& given) {
  LoadgenOptions options = given;
  if (options.password.empty()) {
    // The password whole: a leading ":" keeps its colons from naming a user.
    if (const char* password = std::getenv(protocol::kPasswordEnv)) {
      options.password = (options.config.user.empty() ? ":" : "") + std::string(password);
    }
  }
  loadgen::Config config = OrExit(ParseLoadgenOptions(options));
  // A path that cannot be written is refused before the load, not after it.
  if (!config.json_out_file.empty()) OrExit(core::ResolveOutputPath(config.json_out_file));
  if (!config.out_file.empty() && config.out_file != "-") {
    OrExit(core::ResolveOutputPath(config.out_file));
  }
  // The first client's file stands for all: they go in one directory.
  if (!config.client_stats.empty()) {
    if (auto path = core::ResolveOutputPath(config.client_stats + "-1-0-0.csv"); !path) {
      ExitWith(core::ErrorKind::kUsage, "--client-stats: " + path.error().message);
    }
  }
  return config;
}

}  // namespace dfbench::cli
