// loadgen's flags as typed, and the rule that reads them into the generator's Config: the values
// that are text on the command line (durations, counts, ratio, key patterns, words) are parsed
// here; the rest land in Config directly, over its own (memtier's) defaults.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "loadgen/config.h"

namespace dfbench::cli {

struct LoadgenOptions {
  // The flags that need no parsing (server, port, connections, value size, prefix, TLS, the
  // --command list, the files...) and --print-percentiles, read as it is given; the parse
  // starts from it.
  loadgen::Config config;
  std::string uri;       // -u: redis[s]://[[user]:password@]host[:port][/db]; it takes precedence
  std::string password;  // -a: PASS, USER:PASS, or :PASS (a password with a colon)
  std::string protocol = "redis";
  std::string requests;         // "" = Config's, "10000", "10k", "allkeys"
  std::string test_time;        // "" = by requests; "30" or "30s"
  std::string ratio;            // "" = Config's 1:10; read by core::ParseRatio
  std::string data_size_range;  // "min-max"
  std::string key_pattern;      // "" = R:R
  std::string options_error;    // set by the flags for misplaced --command-* flags
  std::string expiry_range;     // "min-max" seconds
  std::string rate;             // total ops/s, "" = closed loop
  std::string warmup_time;      // "" = none
  std::string reconnect = "on";
  std::string progress = "auto";
  // memtier's output flags (loadgen_outputs.h).
  std::string stats_breakdown = "command";
  std::string error_replies = "ops";
  bool show_config = false;
  bool version = false;
  // Value shapes beyond -d and --data-size-range (memtier's).
  bool data_size_given = false;   // -d was on the command line
  bool key_range_given = false;   // --key-prefix, --key-minimum or --key-maximum was
  std::string data_size_list;     // "size:weight,..."
  std::string data_size_pattern;  // "" = R; R or S
  std::string tls_protocols;      // "TLSv1.2,TLSv1.3"; "" = OpenSSL's defaults
  std::string rate_limiting;      // memtier's per-connection ops/s; "" = not given
  std::string monitor_pattern;    // "" = S; S or R, either case
  // memtier's reconnect flags that must be told from unset (the others bind into `config`).
  bool reconnect_on_error = false;       // reconnects on; refused beside --reconnect off
  std::string max_reconnect_attempts;    // "" = ours: give up after 10 s without the server
  std::string reconnect_backoff_factor;  // "" = ours: 10 ms doubling to 1 s
  // memtier's WAIT flags (wait_flags.h); "" = not given.
  std::string wait_ratio;    // "SETS:WAITS"
  std::string num_slaves;    // "MIN-MAX"
  std::string wait_timeout;  // "MIN-MAX" ms
};

// Parses and validates (loadgen::Validate). kUsage with one clear message on any bad value.
core::Result<loadgen::Config> ParseLoadgenOptions(const LoadgenOptions& options);

// "R" -> kRandom ...; kUsage on anything else.
core::Result<core::KeyPattern> ParseKeyPatternLetter(std::string_view text);

// "50,99,99.9" -> {50, 99, 99.9}; each in [0, 100].
core::Result<std::vector<double>> ParsePercentiles(std::string_view text);

}  // namespace dfbench::cli
