#include "protocol/blocking_client.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/text.h"
#include "protocol/memcache_text.h"
#include "protocol/resp_encoder.h"
#include "protocol/resp_parser.h"
#include "protocol/unix_socket.h"

namespace dfbench::protocol {
namespace {

using core::ErrorKind;

constexpr size_t kReadChunk = 64 * 1024;

int TimeoutMs(std::chrono::milliseconds timeout) {
  return static_cast<int>(std::max<int64_t>(0, std::min<int64_t>(timeout.count(), INT32_MAX)));
}

// Waits until `fd` is ready for `events`, at most `timeout`. "" when ready, else why not.
std::string WaitFor(int fd, short events, std::chrono::milliseconds timeout) {
  pollfd pfd{.fd = fd, .events = events, .revents = 0};
  while (true) {
    const int r = poll(&pfd, 1, TimeoutMs(timeout));
    if (r > 0) return "";
    if (r == 0) return "timed out after " + std::to_string(timeout.count()) + " ms";
    if (errno != EINTR) return std::string("poll: ") + std::strerror(errno);
  }
}

// Connects one resolved address with a bounded wait. Returns the socket or -1 with *error set.
int ConnectOne(const addrinfo* ai, std::chrono::milliseconds timeout, std::string* error) {
  const int fd =
      socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
  if (fd < 0) {
    *error = std::strerror(errno);
    return -1;
  }
  if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
    if (errno != EINPROGRESS) {
      *error = std::strerror(errno);
      close(fd);
      return -1;
    }
    if (std::string waited = WaitFor(fd, POLLOUT, timeout); !waited.empty()) {
      *error = waited;
      close(fd);
      return -1;
    }
    int so_error = 0;
    socklen_t len = sizeof(so_error);
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
    if (so_error != 0) {
      *error = std::strerror(so_error);
      close(fd);
      return -1;
    }
  }
  return fd;
}

bool IsTerminalMemcacheLine(std::string_view line) {
  auto word = [&](std::string_view w) {
    return line.starts_with(w) && (line.size() == w.size() || line[w.size()] == ' ');
  };
  if (line == "END" || line == "OK" || line == "STORED" || line == "NOT_STORED" ||
      line == "EXISTS" || line == "NOT_FOUND" || line == "DELETED" || line == "TOUCHED" ||
      line == "RESET" || word("ERROR") || word("CLIENT_ERROR") || word("SERVER_ERROR") ||
      word("VERSION")) {
    return true;
  }
  // incr/decr answer with the new value alone.
  return !line.empty() && line.find_first_not_of("0123456789") == std::string_view::npos;
}

// The poll events a TLS call waits for before it is made again; 0 when it is not waiting.
short TlsWait(TlsSession::Io io) {
  if (io == TlsSession::Io::kWantRead) return POLLIN;
  if (io == TlsSession::Io::kWantWrite) return POLLOUT;
  return 0;
}

}  // namespace

core::Result<BlockingClient> BlockingClient::Connect(const std::string& host, int port,
                                                     std::chrono::milliseconds timeout,
                                                     const TlsContext* tls, int family) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = family;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* addrs = nullptr;
  const std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &addrs); rc != 0) {
    return core::Fail(
        ErrorKind::kEnvironment,
        // The host may be anyone's text (--server): shown on one line.
        "cannot resolve " + core::Printable(host) + ": " + std::string(gai_strerror(rc)));
  }
  std::string error = "no address";
  int fd = -1;
  for (const addrinfo* ai = addrs; ai != nullptr && fd < 0; ai = ai->ai_next) {
    fd = ConnectOne(ai, timeout, &error);
  }
  freeaddrinfo(addrs);
  if (fd < 0) {
    return core::Fail(ErrorKind::kEnvironment, "cannot connect to " + where + ": " + error);
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  BlockingClient client(fd, timeout);
  if (tls != nullptr) {
    if (auto st = client.Handshake(*tls, where); !st) return tl::unexpected(st.error());
  }
  return client;
}

core::Result<BlockingClient> BlockingClient::ConnectUnix(const std::string& path,
                                                         std::chrono::milliseconds timeout) {
  auto addr = UnixSocketAddress(path);
  if (!addr) return tl::unexpected(addr.error());
  addrinfo ai{};
  ai.ai_family = AF_UNIX;
  ai.ai_socktype = SOCK_STREAM;
  ai.ai_addr = reinterpret_cast<sockaddr*>(&*addr);
  ai.ai_addrlen = sizeof(*addr);
  std::string error;
  const int fd = ConnectOne(&ai, timeout, &error);
  if (fd < 0) {
    return core::Fail(ErrorKind::kEnvironment,
                      "cannot connect to unix socket " + path + ": " + error);
  }
  return BlockingClient(fd, timeout);
}

core::Status BlockingClient::Handshake(const TlsContext& tls, const std::string& where) {
  auto session = TlsSession::Start(tls, fd_);
  if (!session) return tl::unexpected(session.error());
  tls_ = std::move(*session);
  while (true) {
    const TlsSession::Io io = tls_->Handshake();
    if (io == TlsSession::Io::kOk) return SettleTls(where);
    const short wait = TlsWait(io);
    if (wait == 0) {
      return tl::unexpected(Broken(
          "TLS handshake with " + where +
          " failed: " + (io == TlsSession::Io::kClosed ? "the server closed it" : tls_->error())));
    }
    if (std::string waited = WaitFor(fd_, wait, timeout_); !waited.empty()) {
      return tl::unexpected(Broken("TLS handshake with " + where + ": " + waited));
    }
  }
}

core::Status BlockingClient::SettleTls(const std::string& where) {
  if (!tls_->tls13()) return core::Ok();
  // A TLS 1.3 server checks our certificate after the handshake and answers with session
  // tickets or an alert: wait a moment for either, so a refusal is named here, not as a reset.
  constexpr auto kSettle = std::chrono::milliseconds(250);
  if (!WaitFor(fd_, POLLIN, std::min(timeout_, std::chrono::milliseconds(kSettle))).empty()) {
    return core::Ok();
  }
  const TlsSession::Io io = tls_->Settle();
  if (io == TlsSession::Io::kFailed || io == TlsSession::Io::kClosed) {
    return tl::unexpected(Broken(
        "TLS session with " + where +
        " refused: " + (io == TlsSession::Io::kClosed ? "the server closed it" : tls_->error())));
  }
  return core::Ok();
}

void BlockingClient::Close() {
  tls_.reset();
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

core::Error BlockingClient::Broken(const std::string& message) {
  Close();
  buffer_.clear();
  return core::Error{ErrorKind::kEnvironment, message};
}

core::Status BlockingClient::SendAll(std::string_view bytes) {
  if (fd_ < 0) return core::Fail(ErrorKind::kEnvironment, "connection is closed");
  while (!bytes.empty()) {
    short wait = POLLOUT;
    if (tls_) {
      size_t n = 0;
      const TlsSession::Io io = tls_->Write(bytes.data(), bytes.size(), &n);
      bytes.remove_prefix(n);
      if (io == TlsSession::Io::kOk) continue;
      wait = TlsWait(io);
      if (wait == 0) return tl::unexpected(Broken("send: TLS: " + tls_->error()));
    } else {
      const ssize_t n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n > 0) {
        bytes.remove_prefix(static_cast<size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
        return tl::unexpected(Broken(std::string("send: ") + std::strerror(errno)));
      }
    }
    if (std::string waited = WaitFor(fd_, wait, timeout_); !waited.empty()) {
      return tl::unexpected(Broken("send: " + waited));
    }
  }
  return core::Ok();
}

core::Status BlockingClient::ReadMore() {
  if (fd_ < 0) return core::Fail(ErrorKind::kEnvironment, "connection is closed");
  while (true) {
    const size_t old_size = buffer_.size();
    buffer_.resize(old_size + kReadChunk);
    short wait = POLLIN;
    if (tls_) {
      size_t n = 0;
      const TlsSession::Io io = tls_->Read(buffer_.data() + old_size, kReadChunk, &n);
      buffer_.resize(old_size + n);
      if (io == TlsSession::Io::kOk) return core::Ok();
      if (io == TlsSession::Io::kClosed)
        return tl::unexpected(Broken("connection closed by the server"));
      wait = TlsWait(io);
      if (wait == 0) return tl::unexpected(Broken("recv: TLS: " + tls_->error()));
    } else {
      const ssize_t n = recv(fd_, buffer_.data() + old_size, kReadChunk, 0);
      const int recv_errno = errno;
      buffer_.resize(old_size + (n > 0 ? static_cast<size_t>(n) : 0));
      if (n > 0) return core::Ok();
      if (n == 0) return tl::unexpected(Broken("connection closed by the server"));
      if (recv_errno == EINTR) continue;
      if (recv_errno != EAGAIN && recv_errno != EWOULDBLOCK) {
        return tl::unexpected(Broken(std::string("recv: ") + std::strerror(recv_errno)));
      }
    }
    if (std::string waited = WaitFor(fd_, wait, timeout_); !waited.empty()) {
      return tl::unexpected(Broken("waiting for a reply: " + waited));
    }
  }
}

BlockingClient::BlockingClient(BlockingClient&& other) noexcept
    : fd_(other.fd_),
      tls_(std::move(other.tls_)),
      timeout_(other.timeout_),
      buffer_(std::move(other.buffer_)) {
  other.fd_ = -1;
}

BlockingClient& BlockingClient::operator=(BlockingClient&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = other.fd_;
    tls_ = std::move(other.tls_);
    timeout_ = other.timeout_;
    buffer_ = std::move(other.buffer_);
    other.fd_ = -1;
  }
  return *this;
}

BlockingClient::~BlockingClient() {
  Close();
}

core::Result<Reply> BlockingClient::Command(const std::vector<std::string>& args) {
  auto replies = Pipeline({args});
  if (!replies) return tl::unexpected(replies.error());
  return std::move(replies->front());
}

core::Result<std::vector<Reply>> BlockingClient::Pipeline(
    const std::vector<std::vector<std::string>>& commands) {
  std::string request;
  for (const auto& args : commands) {
    std::vector<std::string_view> views(args.begin(), args.end());
    AppendCommand(&request, views);
  }
  if (auto sent = SendAll(request); !sent) {
    return tl::unexpected(sent.error());
  }
  std::vector<Reply> replies;
  replies.reserve(commands.size());
  while (replies.size() < commands.size()) {
    auto reply = ReadReply();
    if (!reply) return tl::unexpected(reply.error());
    replies.push_back(std::move(*reply));
  }
  return replies;
}

core::Result<Reply> BlockingClient::ReadReply() {
  // The scanner finds where the reply ends in O(n) however it arrives; the whole reply is then
  // parsed once.
  RespScanner scanner;
  size_t scanned = 0;
  size_t replies = 0;
  while (true) {
    const ScanResult r = scanner.Scan(std::string_view(buffer_).substr(scanned),
                                      [&](ReplyKind, std::string_view) { ++replies; });
    scanned += r.consumed;
    if (replies > 0) break;
    if (r.status == ParseStatus::kProtocolError) {
      return tl::unexpected(Broken("malformed reply: " + scanner.error()));
    }
    if (auto read = ReadMore(); !read) return tl::unexpected(read.error());
  }
  Reply reply;
  size_t consumed = 0;
  std::string error;
  if (ParseReply(buffer_, &consumed, &reply, &error) != ParseStatus::kOk) {
    return tl::unexpected(Broken("malformed reply: " + error));
  }
  buffer_.erase(0, consumed);
  return reply;
}

core::Result<std::vector<std::string>> BlockingClient::MemcacheCommand(const std::string& line) {
  std::string request = line;
  if (!request.ends_with("\r\n")) request += "\r\n";
  if (auto sent = SendAll(request); !sent) {
    return tl::unexpected(sent.error());
  }

  std::vector<std::string> lines;
  size_t pos = 0;
  while (true) {
    const size_t crlf = buffer_.find("\r\n", pos);
    if (crlf == std::string::npos) {
      if (auto read = ReadMore(); !read) {
        return tl::unexpected(read.error());
      }
      continue;
    }
    std::string text = buffer_.substr(pos, crlf - pos);
    size_t next = crlf + 2;
    if (text.starts_with("VALUE ")) {
      // The data block may hold any bytes, CRLF included: read it by its length.
      const int64_t value_bytes = MemcacheValueBytes(text);
      if (value_bytes < 0) {
        return tl::unexpected(Broken("malformed reply line: " + text));
      }
      const auto bytes = static_cast<size_t>(value_bytes);
      while (buffer_.size() < next + bytes + 2) {
        if (auto read = ReadMore(); !read) {
          return tl::unexpected(read.error());
        }
      }
      lines.push_back(std::move(text));
      lines.push_back(buffer_.substr(next, bytes));
      pos = next + bytes + 2;
      continue;
    }
    pos = next;
    const bool terminal = IsTerminalMemcacheLine(text);
    lines.push_back(std::move(text));
    if (terminal) break;
  }
  buffer_.erase(0, pos);
  return lines;
}

std::vector<std::pair<std::string, std::string>> ParseInfo(const std::string& body) {
  std::vector<std::pair<std::string, std::string>> fields;
  size_t start = 0;
  while (start < body.size()) {
    size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    std::string_view line(body.data() + start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    fields.emplace_back(std::string(line.substr(0, colon)), std::string(line.substr(colon + 1)));
  }
  return fields;
}

std::string InfoField(const std::string& body, const std::string& key) {
  for (auto& [k, v] : ParseInfo(body)) {
    if (k == key) return v;
  }
  return "";
}

}  // namespace dfbench::protocol
