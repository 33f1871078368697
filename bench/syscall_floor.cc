// The floor under any closed-loop RESP load generator on this machine: a client that makes only
// the system calls one must (per connection and pipeline, one send, the reads its replies take
// and a share of an epoll wait), with every request encoded once up front and the replies
// counted by length instead of parsed. bench/loadgen_vs_peers.sh runs it beside the generators:
// what a generator costs above it is its own work.
//
// Load: one SET to GETS_PER_SET GETs, VALUE_BYTES-byte values, keys drawn at random from
// 1..KEY_MAXIMUM, every connection walking the same keys, as the generators' clients do when they
// share a seed (their default, and memtier_benchmark's without --distinct-client-seed; the server
// answers keys it has just been asked for faster, which wakes the client more rarely, so the floor
// has to ask alike). The client writes every key it reads first, so every GET hits and every
// reply's length is known. The first pipeline of replies on each connection is compared byte for
// byte; after that, lengths are counted.
//
// Usage:
//   dfbench_syscall_floor PORT CONNECTIONS PIPELINE SECONDS VALUE_BYTES KEY_MAXIMUM GETS_PER_SET
// Prints the number of operations whose replies arrived within SECONDS.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"
#include "protocol/blocking_client.h"
#include "protocol/resp_encoder.h"

namespace {

constexpr int kCycle = 33000;        // requests before the cycle repeats
constexpr int kPreloadChunk = 1000;  // SETs per round trip while preloading

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "dfbench_syscall_floor: %s\n", message.c_str());
  std::exit(1);
}

long ParseArg(const char* text, const char* name, long min, long max) {
  const auto v = dfbench::core::ParseCount(text);
  if (!v || *v < static_cast<uint64_t>(min) || *v > static_cast<uint64_t>(max)) {
    std::fprintf(stderr, "dfbench_syscall_floor: %s must be a whole number in [%ld, %ld]: '%s'\n",
                 name, min, max, text);
    std::exit(2);
  }
  return static_cast<long>(*v);
}

// A bulk string as the server sends it back: the bytes every GET's reply is.
std::string Bulk(const std::string& s) {
  return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n";
}

struct Args {
  int port = 0;
  int connections = 0;
  int pipeline = 0;
  long seconds = 0;
  size_t value_bytes = 0;
  long key_maximum = 0;
  int gets_per_set = 0;
};

// Pipelines of requests, about kCycle in all; request j is a SET when j % (gets_per_set + 1) is
// 0, so the mix holds whatever the pipeline.
struct Load {
  std::vector<std::string> requests;              // one pipeline each
  std::vector<std::string> replies;               // what each pipeline's replies are, byte for byte
  std::vector<std::vector<std::string>> preload;  // a SET of every key the GETs read
};

Load MakeLoad(const Args& args) {
  const std::string value(args.value_bytes, 'v');
  const int pipeline = args.pipeline;
  Load load;
  std::mt19937 rng(1);  // fixed: every run asks the same keys
  for (int b = 0; b * pipeline < kCycle; ++b) {
    std::string requests;
    std::string replies;
    for (int i = 0; i < pipeline; ++i) {
      const int j = b * pipeline + i;
      const std::string key = "memtier-" + std::to_string(1 + rng() % args.key_maximum);
      if (j % (args.gets_per_set + 1) == 0) {
        dfbench::protocol::AppendCommand(&requests, {"SET", key, value});
        replies += "+OK\r\n";
        continue;
      }
      dfbench::protocol::AppendCommand(&requests, {"GET", key});
      replies += Bulk(value);
      load.preload.push_back({"SET", key, value});
    }
    load.requests.push_back(std::move(requests));
    load.replies.push_back(std::move(replies));
  }
  return load;
}

int Connect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    Die("cannot connect to 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno));
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  fcntl(fd, F_SETFL, O_NONBLOCK);
  return fd;
}

void SendAll(int fd, const std::string& bytes) {
  for (size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) Die(std::string("send: ") + (n < 0 ? std::strerror(errno) : "closed"));
    sent += static_cast<size_t>(n);
  }
}

// Writes the keys the GETs read, kPreloadChunk SETs a round trip, through the control client.
void Preload(int port, const Load& load) {
  auto client =
      dfbench::protocol::BlockingClient::Connect("127.0.0.1", port, std::chrono::seconds(5));
  if (!client) Die(client.error().message);
  for (size_t at = 0; at < load.preload.size(); at += kPreloadChunk) {
    const auto first = load.preload.begin() + static_cast<std::ptrdiff_t>(at);
    const size_t count = std::min<size_t>(kPreloadChunk, load.preload.size() - at);
    const auto replies = client->Pipeline({first, first + static_cast<std::ptrdiff_t>(count)});
    if (!replies) Die("preload: " + replies.error().message);
    for (const auto& reply : *replies) {
      if (reply.is_error()) Die("the server refused a SET: " + reply.str);
    }
  }
}

struct Conn {
  int fd = -1;
  size_t batch = 0;     // the pipeline in flight, an index into Load::requests
  size_t received = 0;  // bytes of its replies so far
  std::string checked;  // the first pipeline's replies, kept to compare
  bool verified = false;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr,
                 "usage: dfbench_syscall_floor PORT CONNECTIONS PIPELINE SECONDS VALUE_BYTES "
                 "KEY_MAXIMUM GETS_PER_SET\n");
    return 2;
  }
  Args args;
  args.port = static_cast<int>(ParseArg(argv[1], "PORT", 1, 65535));
  args.connections = static_cast<int>(ParseArg(argv[2], "CONNECTIONS", 1, 10000));
  args.pipeline = static_cast<int>(ParseArg(argv[3], "PIPELINE", 1, 1000));
  args.seconds = ParseArg(argv[4], "SECONDS", 1, 3600);
  args.value_bytes = static_cast<size_t>(ParseArg(argv[5], "VALUE_BYTES", 1, 1 << 20));
  args.key_maximum = ParseArg(argv[6], "KEY_MAXIMUM", 1, INT32_MAX);  // within mt19937's draws
  args.gets_per_set = static_cast<int>(ParseArg(argv[7], "GETS_PER_SET", 0, 1000));
  const Load load = MakeLoad(args);
  Preload(args.port, load);

  const int epfd = epoll_create1(EPOLL_CLOEXEC);
  std::vector<Conn> conns(static_cast<size_t>(args.connections));
  for (size_t i = 0; i < conns.size(); ++i) {
    conns[i].fd = Connect(args.port);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = static_cast<uint32_t>(i);
    epoll_ctl(epfd, EPOLL_CTL_ADD, conns[i].fd, &ev);
  }
  for (Conn& c : conns) SendAll(c.fd, load.requests[0]);

  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(args.seconds);
  long ops = 0;
  std::vector<char> buf(1 << 16);
  std::vector<epoll_event> events(256);
  std::vector<Conn*> to_send;
  while (std::chrono::steady_clock::now() < end) {
    const int n = epoll_wait(epfd, events.data(), static_cast<int>(events.size()), 100);
    if (n < 0 && errno != EINTR) Die(std::string("epoll_wait: ") + std::strerror(errno));
    // Read every ready connection, then send all their next pipelines back to back.
    for (int e = 0; e < n; ++e) {
      Conn& c = conns[events[e].data.u32];
      const ssize_t got = read(c.fd, buf.data(), buf.size());
      if (got < 0 && errno == EAGAIN) continue;
      if (got <= 0) Die(std::string("read: ") + (got < 0 ? std::strerror(errno) : "closed"));
      const std::string& expected = load.replies[c.batch];
      if (!c.verified) c.checked.append(buf.data(), static_cast<size_t>(got));
      c.received += static_cast<size_t>(got);
      if (c.received < expected.size()) continue;
      if (c.received > expected.size()) Die("more reply bytes than requests: not the load sent");
      if (!c.verified && c.checked != expected) {
        Die("unexpected replies: " + c.checked.substr(0, 60));
      }
      c.verified = true;
      c.received = 0;
      c.batch = (c.batch + 1) % load.requests.size();
      ops += args.pipeline;
      to_send.push_back(&c);
    }
    for (Conn* c : to_send) SendAll(c->fd, load.requests[c->batch]);
    to_send.clear();
  }
  std::printf("%ld\n", ops);
  return 0;
}
