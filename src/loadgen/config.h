// What a load-generator run does (Config) and its check. Defaults follow memtier_benchmark where
// it has the concept; cli reads the flags, spelled as memtier's, into a Config.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "core/wire_protocol.h"
#include "loadgen/client_staircase.h"
#include "loadgen/import_file.h"
#include "loadgen/live_metrics_config.h"
#include "loadgen/monitor_input.h"
#include "protocol/tls.h"

namespace dfbench::loadgen {

// What the generator speaks (core's: the engines serve the same).
using core::Protocol;

enum class ReconnectPolicy { kOn, kOff };
enum class ProgressMode { kAuto, kAlways, kNever };
// How --command rows are reported (memtier's --command-stats-breakdown): one row per command
// name, the commands of one name summed, or one row per --command.
enum class StatsBreakdown { kCommand, kLine };

// One entry of --data-size-list: `weight` consecutive values of `size` bytes.
struct SizeWeight {
  uint32_t size = 0;
  uint32_t weight = 0;
};

// memtier's bound of --data-offset: redis strings end short of 512 MiB.
inline constexpr uint32_t kMaxDataOffset = (1u << 29) - 1;

// Which addresses --server may resolve to: memtier's -4 (--ipv4), -6 (--ipv6), or either.
enum class AddressFamily : uint8_t { kAny, kIpv4, kIpv6 };

// memtier's WAIT traffic (--wait-ratio SETS:WAITS, --num-slaves, --wait-timeout): each client
// sends WAIT NUMREPLICAS TIMEOUT between its SETs and GETs, as often as the ratio says
// (client.cpp, create_request), each drawing its numreplicas uniformly and its timeout (ms) from
// a normal distribution centred in the range.
struct WaitConfig {
  uint32_t sets = 0;
  uint32_t waits = 0;  // 0: no WAIT
  uint32_t replicas_min = 0;
  uint32_t replicas_max = 0;
  uint32_t timeout_min_ms = 0;
  uint32_t timeout_max_ms = 0;
  // --wait-ratio was given (memtier refuses it beside --cluster-mode even when WAITS is 0).
  bool given() const { return sets > 0 || waits > 0; }
  bool on() const { return waits > 0; }
};

// One user command (--command), or one of the built-in SET/GET commands.
struct CommandConfig {
  std::string text;  // "LPUSH __key__ __data__"
  uint32_t ratio = 1;
  core::KeyPattern key_pattern = core::KeyPattern::kRandom;
};

// What a run sends is the project's load: `load` (connections, pipeline, value size, ratio, key
// range and prefix, percentiles, seeds) and `pass` (by requests, by time or "-n allkeys", the
// open loop's rate, warm-up, start instant). The rest is loadgen's own: where it connects, what it
// writes, and the settings a benchmark's load does not have.
struct Config {
  std::string uri;  // memtier's --uri as given ("" = none); server, port and the rest hold it
  std::string server = "127.0.0.1";
  int port = 6379;
  std::string unix_socket;  // set: the server's Unix domain socket, server and port unused
  std::string user;         // ACL user ("" = AUTH with the password alone)
  std::string password;
  int select_db = 0;  // SELECTed on every connection when not 0
  Protocol protocol = Protocol::kRedis;
  // RESP version asked with HELLO on every connection (--protocol resp2 / resp3); 0 = none
  // (--protocol redis: the server's default, RESP2).
  int resp_version = 0;
  protocol::TlsOptions tls;
  // memtier's defaults. Every field is the generator's value: the prefix as sent, the range as
  // walked. `command` and `key_pattern` stay unset: `commands` holds the commands, each with its
  // key pattern. Open loop: `pipeline` caps each connection's requests in flight.
  core::Load load{.threads = 4,
                  .clients = 50,
                  .pipeline = 1,
                  .data_size = 32,
                  .key_maximum = 10000000,
                  .key_prefix = "memtier-",
                  .percentiles = {50, 99, 99.9}};
  // kFill is memtier's "-n allkeys": each client's requests are derived from the key range.
  // `rate_per_connection` is dfly_bench's and stays 0.
  core::Pass pass = core::Pass::Requests(10000);
  uint64_t data_size_min = 0;  // both 0: fixed load.data_size
  uint64_t data_size_max = 0;
  core::KeyPattern set_pattern = core::KeyPattern::kRandom;
  core::KeyPattern get_pattern = core::KeyPattern::kRandom;
  double key_stddev = 0;  // 0: KeyStddev() is range/6
  double key_median = 0;  // 0: KeyMedian() is the middle of the range
  double key_zipf_exp = 1;
  bool randomize = false;
  std::vector<CommandConfig> commands;  // empty: SET/GET mode
  uint64_t expiry_min_s = 0;            // both 0: no expiry
  uint64_t expiry_max_s = 0;
  std::string json_out_file;
  std::string hdr_file_prefix;  // "": no HdrHistogram files
  // memtier's --client-stats: each client's CSV file, <client_stats>-<run>-<thread>-<client>.csv
  // ("": none, and no per-client figures kept).
  std::string client_stats;
  bool hide_histogram = false;  // no Request Latency Distribution (memtier's --hide-histogram)
  ReconnectPolicy reconnect = ReconnectPolicy::kOn;
  // memtier's reconnect flags (shard_connection.cpp). Each connection is closed and opened
  // again once this many requests were sent on it and all answered; 0: never
  // (--reconnect-interval).
  uint64_t reconnect_interval = 0;
  // Attempts after which a lost connection is given up (--max-reconnect-attempts); 0: never;
  // unset: ours, once 10 s passed without the server.
  std::optional<uint32_t> max_reconnect_attempts;
  // The wait before each attempt (--reconnect-backoff-factor F): memtier's, F^n s before the
  // n-th attempt since the connection was last up, 1 s each when F is 0; unset: ours, 10 ms
  // doubling up to 1 s, reset by a reply.
  std::optional<double> reconnect_backoff_factor;
  // A connect (with its TLS handshake) not done in this many seconds fails, a connection error
  // like any other (--connection-timeout); 0: none but the kernel's.
  uint32_t connection_timeout_s = 10;
  ProgressMode progress = ProgressMode::kAuto;
  // Redis Cluster: the server is one node; every client connects to every primary and routes
  // each request by its key's hash slot (memtier's --cluster-mode).
  bool cluster_mode = false;
  // memtier's outputs. The text report's file ("" or "-": stdout, memtier's -o).
  std::string out_file;
  StatsBreakdown stats_breakdown = StatsBreakdown::kCommand;
  // An error reply is an operation, as memtier counts it (client::handle_response): in the
  // command's ops, latency and, for a GET, misses, and in its errors. false: only in errors.
  bool error_replies_are_ops = true;
  // -D: each connection's connect, setup commands and errors on stderr.
  bool debug = false;
  // memtier's -x/--run-count: the whole test this many times, each on fresh connections; more
  // than one reports the best, worst and averaged runs, and --print-all-runs each run too.
  int run_count = 1;
  bool print_all_runs = false;
  // StatsD, Graphite events and the Prometheus endpoint while the run runs.
  LiveMetricsConfig metrics;
  // Value shapes beyond -d and --data-size-range, as memtier's object_generator has them.
  // --data-size-list: its sizes in turn, each for `weight` requests; empty: not used.
  std::vector<SizeWeight> data_size_list;
  // --data-size-pattern S: a range's size grows with the key, from its minimum at --key-minimum
  // to its maximum at --key-maximum; false (R): random in the range.
  bool data_size_by_key = false;
  // -R: each client's values are random bytes, one of them changed per request; false: the
  // shared fixed bytes.
  bool random_data = false;
  // --data-offset: the SET/GET mix writes SETRANGE key N value and reads GETRANGE key N -1
  // (memtier's redis_protocol::write_command_set/get); 0: SET and GET.
  uint32_t data_offset = 0;
  AddressFamily address_family = AddressFamily::kAny;
  // --thread-conn-start-min/max-jitter-micros: a pause in [min, max] us between one client's
  // connections and the next's, within a thread; max 0: none.
  uint64_t conn_start_jitter_min_us = 0;
  uint64_t conn_start_jitter_max_us = 0;
  // --rate-limiting: memtier's requests per second of each connection, as given (the report's
  // rate_limit); it sets the open loop's total, pass.rate_per_sec. 0: not given.
  uint64_t rate_limit_per_connection = 0;
  // memtier's client staircase: each thread starts with --clients-start clients and adds
  // --clients-step more every --step-duration seconds up to --clients; all three 0: off.
  uint32_t clients_start = 0;
  uint32_t clients_step = 0;
  uint32_t step_duration_s = 0;
  // WAIT requests in the SET/GET mix (redis only; none with --command, as memtier).
  WaitConfig wait;
  // memtier's --data-import: its file's path, and its items (read by cli, shared read-only by
  // every client). Each client's SETs write the items in file order from the first, again
  // from the first at the end; without generate_keys its GETs read the items' keys, the key
  // range being 1..items (key i: item i - 1). Empty path: values are generated.
  std::string data_import;
  std::shared_ptr<const std::vector<ImportedItem>> imported;
  bool generate_keys = false;  // --generate-keys: generated keys, the file's values
  bool no_expiry = false;      // --no-expiry: the file's exptime is not sent

  // --monitor-input: the file (for messages) and the commands cli read from it, which --command
  // placeholders name (loadgen/monitor_input.h). __monitor_line@__ takes them in turn, one
  // sequence for the whole run (--monitor-pattern S), or at random per client (R).
  std::string monitor_input;
  std::vector<MonitorCommand> monitor_commands;
  bool monitor_random = false;
  // --scan-incremental-iteration: the one --command, a SCAN, walks the keyspace by the cursor of
  // each reply (loadgen/scan_cursor.h); at most scan_max_iterations continuations a walk, 0: to
  // the end.
  bool scan_incremental = false;
  uint32_t scan_max_iterations = 0;

  bool open_loop() const { return pass.rate_per_sec > 0; }
  // Open loop: the time between two requests of one client.
  double ClientIntervalNs() const { return 1e9 * total_clients() / pass.rate_per_sec; }
  // Open loop: the step of the grid each thread lays its schedule on. Requests whose uniform
  // due times fall in one tick are due at its start and leave together, at one wake-up.
  int64_t ScheduleTickNs() const;
  // Open loop over plain TCP: replies are read at the next tick's wake-up, unless a connection
  // waits on one, and timed by the kernel's receive timestamps (SO_TIMESTAMPNS), not the read.
  // TLS (records, not segments, are read), Unix sockets (no stamps) and cluster mode read at once.
  bool RepliesStampedByKernel() const {
    return open_loop() && !cluster_mode && !tls.enabled && unix_socket.empty();
  }
  // The commands every connection opens with, before any load: HELLO (with AUTH in it) when a
  // RESP version is asked, else AUTH when there is a password; then SELECT when the database is
  // not 0. Empty when none.
  std::vector<std::vector<std::string>> ConnectionSetup() const;
  // address_family as getaddrinfo's ai_family (AF_INET, AF_INET6, AF_UNSPEC).
  int AiFamily() const;
  // "host:port", or the Unix socket's path.
  std::string Where() const;
  bool by_time() const { return pass.length == core::Pass::Length::kTestTime; }
  bool all_keys() const { return pass.length == core::Pass::Length::kFill; }
  int total_clients() const { return load.threads * load.clients; }
  // When each of a thread's clients joins the load; disabled when --clients-start is not given.
  ClientStaircase Staircase() const {
    return {.start = clients_start,
            .step = clients_step,
            .step_duration_s = step_duration_s,
            .clients = static_cast<uint32_t>(load.clients)};
  }
  bool parallel_pattern() const;                          // P is used (then it is used everywhere)
  bool importing() const { return imported != nullptr; }  // --data-import given
  // Requests client `global_client` sends (by-requests mode); honours -n allkeys with P.
  uint64_t RequestsForClient(int global_client) const;
  std::string KeyPatternString() const;  // "R:R", or the command patterns joined ("R,S")
  // The G pattern's parameters: key_median and key_stddev, or their defaults when 0.
  double KeyMedian() const;
  double KeyStddev() const;
};

// Checks a Config, read from flags or built in code; kUsage with one message naming the flag.
core::Status Validate(const Config& config);

// Bounds of client `global_client`'s P slice, [first, last], over `total_clients` clients.
struct KeySlice {
  uint64_t first = 0;
  uint64_t last = 0;
  uint64_t size() const { return last - first + 1; }
};
KeySlice ParallelSlice(uint64_t key_min, uint64_t key_max, int global_client, int total_clients);

}  // namespace dfbench::loadgen
