// Bad inputs through the real binary: endpoint URLs built from parts (schemes, userinfo, hosts,
// ports, databases, a trailing query or fragment) given to `setup --provider endpoint` (also as
// a dry run) and to `loadgen -u`, and every flag that reads a file given a path that is not a
// readable regular file (a FIFO nobody writes, /dev/zero, /dev/null, a directory, a dangling
// symlink, a symlink loop, a file of mode 000, a missing path, a sparse file past the 256 MiB
// cap). Every line must end within 10 s with exit 0, 2 or 5 and, when it fails, one line on
// stderr; nothing may be left running, and a refused setup (exit 2) leaves no setup behind.
//
// No generated line can send traffic off this machine: hosts are under .invalid (never
// resolved), or 127.0.0.1 and [::1] with a port where nothing listens, or the Redis this suite
// starts. DFBENCH_PROPERTY_SEED=<n> replays a run; every failure prints the seed and the argv.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/text.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/test_server.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = "inputs";
// Every host name below ends with one of these, one per test: ctest runs the tests of this
// file side by side, and each looks for processes left with its own hosts on their command line.
constexpr char kUrlHosts[] = "urls.invalid";
constexpr char kFileHosts[] = "files.invalid";

// A part of a URL, chosen at random.
template <typename T>
const T& Pick(const std::vector<T>& parts, std::mt19937_64& rng) {
  return parts[std::uniform_int_distribution<size_t>(0, parts.size() - 1)(rng)];
}

struct Ports {
  int closed = 0;  // nothing listens there
  int redis = 0;   // the suite's redis-server
};

// A part of a URL: one that parses (most of the time) or one that does not.
struct Parts {
  std::vector<std::string> good;
  std::vector<std::string> bad;
};

const std::string& Pick(const Parts& parts, std::mt19937_64& rng) {
  // One part in five bad: a third of the URLs parse and go on to meet (or miss) a server.
  return std::bernoulli_distribution(0.2)(rng) ? Pick(parts.bad, rng) : Pick(parts.good, rng);
}

// An endpoint URL from random parts. A loopback host gets the closed port or the suite's Redis
// (127.0.0.1 alone: the server listens there) in place of a port that would parse.
std::string GeneratedUrl(std::mt19937_64& rng, const Ports& ports) {
  static const Parts kSchemes = {{"redis://", "rediss://", "REDIS://"},
                                 {"http://", "valkey://", "", "gar bage://", "redis:/"}};
  static const Parts kUserinfo = {
      {"", "", "user@", ":pass@", "user:pass@", "@", "us%3Aer:p%40ss%2F@", "user:p@ss@word@",
       std::string(5000, 'u') + ":" + std::string(5000, 'p') + "@", "us\x01er:pa\nss\x1b[2J@"},
      {"user:p%zz@", "user:p%4@"}};
  static const Parts kHosts = {
      {"cache.urls.invalid", "x-1.cache.urls.invalid", "127.0.0.1", "127.0.0.1", "[::1]",
       "h\xc3\xa9te.urls.invalid", std::string(300, 'a') + ".urls.invalid"},
      {"[::1", "::1", "", "a\nb.urls.invalid", "tab\t.urls.invalid", "[]"}};
  static const Parts kPorts = {{"", ":6380"},
                               {":0", ":65536", ":-1", ":ab", ":18446744073709551616", ":"}};
  static const Parts kPaths = {{"", "/", "/0", "/5"}, {"/-1", "/99999999999", "/x"}};
  static const Parts kTails = {{""}, {"?db=1", "#fragment"}};
  const std::string host = Pick(kHosts, rng);
  std::string port = Pick(kPorts, rng);
  const bool loopback = host == "127.0.0.1" || host == "[::1]" || host == "::1";
  if (loopback && (port.empty() || port == ":6380")) {
    const bool redis = host == "127.0.0.1" && std::bernoulli_distribution(0.7)(rng);
    port = ":" + std::to_string(redis ? ports.redis : ports.closed);
  }
  return Pick(kSchemes, rng) + Pick(kUserinfo, rng) + host + port + Pick(kPaths, rng) +
         Pick(kTails, rng);
}

// The paths that are no readable regular file, made under `dir`.
std::vector<fs::path> BadFiles(const fs::path& dir) {
  fs::create_directories(dir);
  const fs::path fifo = dir / "fifo";
  EXPECT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const fs::path directory = dir / "directory";
  fs::create_directory(directory);
  const fs::path dangling = dir / "dangling";
  fs::create_symlink(dir / "nothing-there", dangling);
  const fs::path loop = dir / "loop";
  fs::create_symlink(loop, loop);
  const fs::path closed = dir / "mode-000";
  std::ofstream(closed) << "secret\n";
  fs::permissions(closed, fs::perms::none);
  // Sparse: past the 256 MiB cap, written in no time and taking no space.
  const fs::path huge = dir / "huge";
  std::ofstream(huge) << "{";
  fs::resize_file(huge, uint64_t{300} << 20);
  return {fifo, "/dev/zero", "/dev/null", directory, dangling, loop, closed, dir / "missing", huge};
}

// Every flag that reads a file, on the command line it is read by; "@" stands for the file.
// Listed by hand from the --help texts (a flag renamed there fails FlagsAreInTheirHelp).
struct FileFlag {
  std::vector<std::string> argv;
};

std::vector<FileFlag> FileFlags(const std::string& results, const fs::path& out) {
  const std::string tls_endpoint = "rediss://endpoint.files.invalid:6380";
  const std::string endpoint = "redis://endpoint.files.invalid";
  const std::vector<std::string> setup = {"setup",    "--id",  kId,         "--provider",
                                          "endpoint", "--yes", "--endpoint"};
  auto with = [](std::vector<std::string> base, std::vector<std::string> more) {
    base.insert(base.end(), more.begin(), more.end());
    return FileFlag{base};
  };
  const std::vector<std::string> loadgen = {"loadgen", "-n", "10",         "--threads", "1",
                                            "-c",      "1",  "--progress", "never",     "-u"};
  return {
      with(setup, {tls_endpoint, "--cacert", "@"}),
      with(setup, {tls_endpoint, "--cert", "@", "--key", "@"}),
      with(setup, {tls_endpoint, "--key", "@"}),
      with(setup, {endpoint, "--password-file", "@"}),
      with({"setup", "--id", kId, "--provider", "local", "--engines", "redis", "--yes"},
           {"--redis_binary", "@"}),
      with({"setup", "--id", kId, "--provider", "local", "--engines", "redis", "--yes"},
           {"--redis_version", "@"}),
      with({"setup", "--id", kId, "--provider", "ssh", "--server", "server.files.invalid",
            "--client", "client.files.invalid", "--ssh-user", "bench", "--engines", "redis",
            "--yes"},
           {"--ssh-key", "@"}),
      with({"cache", "add", "redis"}, {"@"}),
      with(loadgen, {tls_endpoint, "--cacert", "@"}),
      with(loadgen, {tls_endpoint, "--cert", "@", "--key", "@"}),
      with(loadgen, {endpoint, "--json-out-file", "@"}),
      with(loadgen, {endpoint, "--hdr-file-prefix", "@"}),
      with({"compare", results}, {"@"}),
      with({"compare"}, {"@", results}),
      with({"report"}, {"@", "-o", (out / "report.html").string()}),
      with({"report", results}, {"@", "-o", (out / "report2.html").string()}),
  };
}

// What a setup that went ahead printed before its error: its plan (ssh: "dfbench: setup inputs
// will change these hosts" and indented lines), its progress notes ("dfbench: setup inputs: ...",
// "[1/4] ...") and the note about a password in the URL. Everything else on stderr counts.
std::string WithoutSetupProgress(const std::string& err) {
  static const std::regex kProgress(
      "^(dfbench: setup inputs[: ].*|  .*|\\[[0-9]+/[0-9]+\\] .*|dfbench: \\S+: the password "
      "in the URL is not kept; .*)$");
  std::istringstream in(err);
  std::string kept;
  for (std::string line; std::getline(in, line);) {
    if (!std::regex_match(line, kProgress)) kept += line + "\n";
  }
  return kept;
}

std::string Shown(uint64_t seed, const std::vector<std::string>& argv) {
  std::string shown = "seed " + std::to_string(seed) + ": dfbench";
  for (const auto& a : argv) {
    std::string arg =
        a.size() > 120 ? a.substr(0, 120) + "...(" + std::to_string(a.size()) + " bytes)" : a;
    shown += " '" + core::Printable(arg) + "'";
  }
  return shown;
}

uint64_t Seed() {
  const char* text = std::getenv("DFBENCH_PROPERTY_SEED");
  return text ? std::stoull(text) : std::random_device{}();
}

class InputsFault : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = TestServer::StartRedis();
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    ports_ = {.closed = FreePort(), .redis = server_->port()};
    // The closed port stays closed: nothing of this suite binds it.
    ASSERT_NE(ports_.closed, ports_.redis);
  }

  // Runs `argv` and checks the property; false after the first failure.
  // `hosts`: the ending of the host names the test's lines use.
  bool Check(uint64_t seed, const std::vector<std::string>& argv, const char* hosts) {
    const std::string shown = Shown(seed, argv);
    const bool setup = argv.front() == "setup";
    const bool dry_run = std::find(argv.begin(), argv.end(), "--dry-run") != argv.end();
    std::error_code ec;
    fs::remove_all(dfb_.SetupDir(kId), ec);
    const CliResult r = dfb_.Run(argv, std::chrono::seconds(10));
    ++exits_[r.code];
    EXPECT_TRUE(r.code == 0 || r.code == 2 || r.code == 5) << shown << "\nexit " << r.code << "\n"
                                                           << r.err;
    if (r.code != 0) {
      // Exit 2 before anything starts: one line and nothing else. Exit 5 (a server, host or
      // binary that is not there): one line after what a setup that went ahead printed.
      const std::string error = r.code == 5 && setup ? WithoutSetupProgress(r.err) : r.err;
      EXPECT_EQ(CountLines(error), 1) << shown << "\n" << r.err;
    }
    EXPECT_TRUE(ProcessesMatching(dfb_.home().string()).empty()) << shown;
    EXPECT_TRUE(ProcessesMatching(hosts).empty()) << shown;
    const nlohmann::json state = dfb_.State(kId);
    if (!setup || dry_run || r.code == 2) {
      // A refusal, a dry run or another command: no setup.
      EXPECT_FALSE(fs::exists(dfb_.SetupDir(kId))) << shown;
    } else if (r.code == 5) {
      EXPECT_EQ(state.is_object() ? state.value("status", "") : "", "failed") << shown;
    } else if (r.code == 0) {
      EXPECT_EQ(state.is_object() ? state.value("status", "") : "", "ready") << shown;
      const CliResult destroyed = dfb_.Run({"destroy", "--id", kId}, std::chrono::seconds(10));
      EXPECT_EQ(destroyed.code, 0) << shown << "\n" << destroyed.err;
    }
    return !::testing::Test::HasFailure();  // the first failure says enough
  }

  // How the lines ended, for the log: a property that only ever sees refusals proves less.
  void PrintExits() const {
    std::string text;
    for (const auto& [code, n] : exits_)
      text += " exit " + std::to_string(code) + ": " + std::to_string(n);
    std::printf("%s\n", text.c_str());
  }

  DfbenchRunner dfb_{"inputs-fault"};
  std::map<int, int> exits_;
  std::optional<TestServer> server_;
  Ports ports_;
};

TEST_F(InputsFault, GeneratedEndpointUrlsEndWithOneLine) {
  const uint64_t seed = Seed();
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::string>> argvs;
  for (int i = 0; i < 100; ++i) {
    const std::string url = GeneratedUrl(rng, ports_);
    switch (i % 3) {
      case 0:
        argvs.push_back({"setup", "--id", kId, "--provider", "endpoint", "--endpoint", url});
        break;
      case 1:
        argvs.push_back(
            {"setup", "--id", kId, "--provider", "endpoint", "--endpoint", url, "--dry-run"});
        break;
      default:
        argvs.push_back(
            {"loadgen", "-u", url, "-n", "10", "--threads", "1", "-c", "1", "--progress", "never"});
    }
  }
  std::printf("seed %llu: %zu command lines\n", static_cast<unsigned long long>(seed),
              argvs.size());
  for (const auto& argv : argvs) {
    if (!Check(seed, argv, kUrlHosts)) return;
  }
  PrintExits();
}

TEST_F(InputsFault, FileFlagsGivenNoRegularFileEndWithOneLine) {
  const uint64_t seed = Seed();
  std::mt19937_64 rng(seed);
  const fs::path files = dfb_.home() / "files";
  const std::vector<fs::path> bad = BadFiles(files);
  const std::string results = FixturePath("results/reference_run.json").string();
  std::vector<std::vector<std::string>> argvs;
  for (const FileFlag& flag : FileFlags(results, files)) {
    for (const fs::path& path : bad) {
      std::vector<std::string> argv = flag.argv;
      for (auto& a : argv) {
        if (a == "@") a = path.string();
      }
      argvs.push_back(argv);
    }
  }
  std::shuffle(argvs.begin(), argvs.end(), rng);
  if (argvs.size() > 160) argvs.resize(160);
  std::printf("seed %llu: %zu command lines\n", static_cast<unsigned long long>(seed),
              argvs.size());
  for (const auto& argv : argvs) {
    if (!Check(seed, argv, kFileHosts)) return;
  }
  PrintExits();
  // Each bad file is as it was: nothing wrote through a link or into a device's place.
  EXPECT_FALSE(fs::exists(files / "nothing-there"));
  EXPECT_EQ(fs::symlink_status(files / "fifo").type(), fs::file_type::fifo);
  EXPECT_EQ(fs::file_size(files / "huge"), uint64_t{300} << 20);
}

// The file flags listed above are in their commands' --help: a flag renamed there is renamed
// here, not silently dropped from the property.
TEST_F(InputsFault, FlagsAreInTheirHelp) {
  const std::string results = FixturePath("results/reference_run.json").string();
  for (const FileFlag& flag : FileFlags(results, dfb_.home())) {
    const bool cache = flag.argv.front() == "cache";
    const std::string command = cache ? "cache add" : flag.argv.front();
    const CliResult help = dfb_.Run(cache ? std::vector<std::string>{"cache", "add", "--help"}
                                          : std::vector<std::string>{flag.argv.front(), "--help"});
    for (const auto& a : flag.argv) {
      if (a.rfind("--", 0) == 0) {
        EXPECT_NE(help.out.find(a), std::string::npos) << command << " --help lacks " << a;
      }
    }
  }
}

}  // namespace
}  // namespace dfbench::testing
