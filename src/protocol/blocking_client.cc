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

#include "protocol/memcache_text.h"
#include "protocol/resp_encoder.h"
#include "protocol/resp_parser.h"

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
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
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

// After any failure the stream position is unknown, so the connection is closed: later calls
// fail fast instead of reading the tail of an earlier reply.
core::Error Broken(int* fd, std::string* buffer, const std::string& message) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
  buffer->clear();
  return core::Error{ErrorKind::kEnvironment, message};
}

core::Status SendAll(int* fd, std::string* buffer, std::chrono::milliseconds timeout,
                     std::string_view bytes) {
  if (*fd < 0) return core::Fail(ErrorKind::kEnvironment, "connection is closed");
  while (!bytes.empty()) {
    const ssize_t n = send(*fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (std::string waited = WaitFor(*fd, POLLOUT, timeout); !waited.empty()) {
        return tl::unexpected(Broken(fd, buffer, "send: " + waited));
      }
      continue;
    }
    return tl::unexpected(Broken(fd, buffer, std::string("send: ") + std::strerror(errno)));
  }
  return core::Ok();
}

// Appends what the socket has (waiting at most `timeout` for it) to *buffer.
core::Status ReadMore(int* fd, std::string* buffer, std::chrono::milliseconds timeout) {
  if (*fd < 0) return core::Fail(ErrorKind::kEnvironment, "connection is closed");
  while (true) {
    const size_t old_size = buffer->size();
    buffer->resize(old_size + kReadChunk);
    const ssize_t n = recv(*fd, buffer->data() + old_size, kReadChunk, 0);
    const int recv_errno = errno;
    buffer->resize(old_size + (n > 0 ? static_cast<size_t>(n) : 0));
    if (n > 0) return core::Ok();
    if (n == 0) return tl::unexpected(Broken(fd, buffer, "connection closed by the server"));
    if (recv_errno == EINTR) continue;
    if (recv_errno == EAGAIN || recv_errno == EWOULDBLOCK) {
      if (std::string waited = WaitFor(*fd, POLLIN, timeout); !waited.empty()) {
        return tl::unexpected(Broken(fd, buffer, "waiting for a reply: " + waited));
      }
      continue;
    }
    return tl::unexpected(Broken(fd, buffer, std::string("recv: ") + std::strerror(recv_errno)));
  }
}

}  // namespace

core::Result<BlockingClient> BlockingClient::Connect(const std::string& host, int port,
                                                     std::chrono::milliseconds timeout) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* addrs = nullptr;
  const std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &addrs); rc != 0) {
    return core::Fail(ErrorKind::kEnvironment,
                      "cannot resolve " + host + ": " + std::string(gai_strerror(rc)));
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
  return BlockingClient(fd, timeout);
}

BlockingClient::BlockingClient(BlockingClient&& other) noexcept
    : fd_(other.fd_), timeout_(other.timeout_), buffer_(std::move(other.buffer_)) {
  other.fd_ = -1;
}

BlockingClient& BlockingClient::operator=(BlockingClient&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    timeout_ = other.timeout_;
    buffer_ = std::move(other.buffer_);
    other.fd_ = -1;
  }
  return *this;
}

BlockingClient::~BlockingClient() {
  if (fd_ >= 0) close(fd_);
}

core::Result<Reply> BlockingClient::Command(const std::vector<std::string>& args) {
  std::vector<std::string_view> views(args.begin(), args.end());
  std::string request;
  AppendCommand(&request, views);
  if (auto sent = SendAll(&fd_, &buffer_, timeout_, request); !sent) {
    return tl::unexpected(sent.error());
  }

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
      return tl::unexpected(Broken(&fd_, &buffer_, "malformed reply: " + scanner.error()));
    }
    if (auto read = ReadMore(&fd_, &buffer_, timeout_); !read) return tl::unexpected(read.error());
  }
  Reply reply;
  size_t consumed = 0;
  std::string error;
  if (ParseReply(buffer_, &consumed, &reply, &error) != ParseStatus::kOk) {
    return tl::unexpected(Broken(&fd_, &buffer_, "malformed reply: " + error));
  }
  buffer_.erase(0, consumed);
  return reply;
}

core::Result<std::vector<std::string>> BlockingClient::MemcacheCommand(const std::string& line) {
  std::string request = line;
  if (!request.ends_with("\r\n")) request += "\r\n";
  if (auto sent = SendAll(&fd_, &buffer_, timeout_, request); !sent) {
    return tl::unexpected(sent.error());
  }

  std::vector<std::string> lines;
  size_t pos = 0;
  while (true) {
    const size_t crlf = buffer_.find("\r\n", pos);
    if (crlf == std::string::npos) {
      if (auto read = ReadMore(&fd_, &buffer_, timeout_); !read) {
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
        return tl::unexpected(Broken(&fd_, &buffer_, "malformed reply line: " + text));
      }
      const auto bytes = static_cast<size_t>(value_bytes);
      while (buffer_.size() < next + bytes + 2) {
        if (auto read = ReadMore(&fd_, &buffer_, timeout_); !read) {
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
