#include "cli/loadgen/loadgen_outputs.h"

#include <cstdio>

#include "cli/bool_flag.h"
#include "core/version.h"
#include "loadgen/report_configuration.h"

namespace dfbench::cli {
namespace {

using loadgen::Config;

// memtier prints an unset text setting as printf prints a null pointer.
std::string OrNull(const std::string& s) {
  return s.empty() ? "(null)" : s;
}

std::string YesNo(bool b) {
  return b ? "yes" : "no";
}

}  // namespace

void AddOutputFlags(CLI::App* sub, LoadgenOptions* o) {
  sub->add_option("-o,--out-file", o->config.out_file,
                  "Write the text report to this file instead of stdout ('-': stdout)");
  sub->add_option("--command-stats-breakdown", o->stats_breakdown,
                  "Rows of the --command report: command (one per command name, the commands "
                  "of one name summed) or line (one per --command)")
      ->capture_default_str();
  sub->add_option("--error-replies", o->error_replies,
                  "ops: an error reply counts as its command's operation (ops/sec, latency) and "
                  "as an error, as memtier counts it; apart: only as an error")
      ->capture_default_str();
  sub->add_option("-x,--run-count", o->config.run_count,
                  "Run the whole test this many times, each on fresh connections; more than one "
                  "reports the best, worst and averaged runs")
      ->capture_default_str();
  AddBoolFlag(sub, "--print-all-runs", &o->config.print_all_runs,
              "With --run-count above 1, report every run too");
  AddBoolFlag(sub, "--show-config", &o->show_config,
              "Print the configuration (memtier's field names) before running");
  AddBoolFlag(sub, "-v,--version", &o->version, "Print the version and exit");
  AddBoolFlag(sub, "-D,--debug", &o->config.debug,
              "Print each connection's connect, setup commands and error replies on stderr");
}

core::Status ParseOutputOptions(const LoadgenOptions& o, Config* c) {
  if (o.stats_breakdown == "command") {
    c->stats_breakdown = loadgen::StatsBreakdown::kCommand;
  } else if (o.stats_breakdown == "line") {
    c->stats_breakdown = loadgen::StatsBreakdown::kLine;
  } else {
    return core::Fail(core::ErrorKind::kUsage, "invalid --command-stats-breakdown '" +
                                                   o.stats_breakdown + "' (use command or line)");
  }
  if (o.error_replies != "ops" && o.error_replies != "apart") {
    return core::Fail(core::ErrorKind::kUsage,
                      "invalid --error-replies '" + o.error_replies + "' (use ops or apart)");
  }
  c->error_replies_are_ops = o.error_replies == "ops";
  return core::Ok();
}

std::string ShowConfig(const Config& c, const std::string& uri) {
  std::string out;
  const auto line = [&out](const char* name, const std::string& value) {
    out += std::string(name) + " = " + value + "\n";
  };
  const auto number = [](double v, const char* format) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), format, v);
    return std::string(buf);
  };
  line("server", c.server);
  line("port", std::to_string(c.port));
  line("uri", uri);
  line("unix socket", OrNull(c.unix_socket));
  line("address family", loadgen::AddressFamilyName(c.address_family));
  line("protocol", c.protocol == loadgen::Protocol::kMemcacheText ? "memcache_text"
                   : c.resp_version > 0 ? "resp" + std::to_string(c.resp_version)
                                        : "redis");
  line("tls", YesNo(c.tls.enabled));
  line("cert", OrNull(c.tls.cert));
  line("key", OrNull(c.tls.key));
  line("cacert", OrNull(c.tls.cacert));
  line("tls_skip_verify", YesNo(c.tls.skip_verify));
  line("sni", OrNull(c.tls.sni));
  line("out_file", OrNull(c.out_file));
  line("client_stats", OrNull(c.client_stats));
  line("run_count", std::to_string(c.run_count));
  line("debug", c.debug ? "1" : "0");
  line("requests", std::to_string(c.by_time() ? 0 : c.RequestsForClient(0)));
  line("rate_limit", std::to_string(c.rate_limit_per_connection));
  line("clients", std::to_string(c.load.clients));
  line("threads", std::to_string(c.load.threads));
  line("test_time", std::to_string(c.by_time() ? c.pass.test_time.count() / 1000000 : 0));
  line("ratio", c.load.ratio.ToString());
  line("pipeline", std::to_string(c.load.pipeline));
  line("data_size", std::to_string(c.load.data_size));
  line("data_offset", std::to_string(c.data_offset));
  line("random_data", YesNo(c.random_data));
  line("data_size_range", std::to_string(c.data_size_min) + "-" + std::to_string(c.data_size_max));
  line("data_size_list", loadgen::DataSizeList(c.data_size_list));
  line("data_size_pattern", c.data_size_by_key ? "S" : "R");
  line("expiry_range", std::to_string(c.expiry_min_s) + "-" + std::to_string(c.expiry_max_s));
  line("data_import", OrNull(c.data_import));
  // --data-verify, --verify-only and --multi-key-get are not taken: memtier's values unset.
  line("data_verify", YesNo(false));
  line("verify_only", YesNo(false));
  line("generate_keys", YesNo(c.generate_keys));
  line("key_prefix", c.load.key_prefix);
  line("key_minimum", std::to_string(c.load.key_minimum));
  line("key_maximum", std::to_string(c.load.key_maximum));
  line("key_pattern", c.KeyPatternString());
  line("key_stddev", number(c.key_stddev, "%f"));
  line("key_median", number(c.key_median, "%f"));
  line("reconnect_interval", std::to_string(c.reconnect_interval));
  line("connection_timeout", std::to_string(c.connection_timeout_s));
  line("thread_conn_start_min_jitter_micros", std::to_string(c.conn_start_jitter_min_us));
  line("thread_conn_start_max_jitter_micros", std::to_string(c.conn_start_jitter_max_us));
  line("multi_key_get", "0");
  // memtier prints the password itself; ours says only whether one is set.
  line("authenticate", c.password.empty() ? "" : c.user.empty() ? "(set)" : c.user + ":(set)");
  line("select-db", std::to_string(c.select_db));
  line("no-expiry", YesNo(c.no_expiry));
  line("wait-ratio", std::to_string(c.wait.sets) + ":" + std::to_string(c.wait.waits));
  line("num-slaves",
       std::to_string(c.wait.replicas_min) + "-" + std::to_string(c.wait.replicas_max));
  line("wait-timeout",
       std::to_string(c.wait.timeout_min_ms) + "-" + std::to_string(c.wait.timeout_max_ms));
  line("json-out-file", OrNull(c.json_out_file));
  line("print-all-runs", YesNo(c.print_all_runs));
  return out;
}

std::string VersionText() {
  const core::BuildInfo& build = core::GetBuildInfo();
  return std::string("dfbench-loadgen v=") + build.version + " sha=" + build.commit +
         ":0 bits=" + std::to_string(8 * sizeof(void*)) +
         "\n"
         "dfbench's load generator (dfbench loadgen): memtier_benchmark's flags and outputs, "
         "not memtier_benchmark itself\n";
}

}  // namespace dfbench::cli
