#include "aws/scripted_http_server_test.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace dfbench::aws::testing {
namespace {

// Reads one request: the head, then Content-Length bytes of body.
std::string ReadRequest(int fd) {
  std::string data;
  char buf[4096];
  size_t need = std::string::npos;
  while (need == std::string::npos || data.size() < need) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n <= 0) break;
    data.append(buf, static_cast<size_t>(n));
    const size_t head_end = data.find("\r\n\r\n");
    if (need == std::string::npos && head_end != std::string::npos) {
      size_t length = 0;
      for (const char* key : {"Content-Length:", "content-length:"}) {
        if (size_t at = data.find(key); at != std::string::npos && at < head_end) {
          length = std::strtoul(data.c_str() + at + std::strlen(key), nullptr, 10);
        }
      }
      need = head_end + 4 + length;
    }
  }
  return data;
}

}  // namespace

ScriptedHttpServer::ScriptedHttpServer(std::vector<ScriptedReply> script)
    : script_(std::move(script)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      ::listen(listen_fd_, 16) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::abort();
  }
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

ScriptedHttpServer::~ScriptedHttpServer() {
  ::shutdown(listen_fd_, SHUT_RDWR);
  thread_.join();
  ::close(listen_fd_);
}

std::vector<std::string> ScriptedHttpServer::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

void ScriptedHttpServer::Serve() {
  for (size_t i = 0;; ++i) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;  // shut down
    std::string request = ReadRequest(fd);
    {
      std::lock_guard lock(mu_);
      requests_.push_back(std::move(request));
    }
    const ScriptedReply& r = script_[std::min(i, script_.size() - 1)];
    const std::string reply =
        "HTTP/1.1 " + std::to_string(r.status) +
        " Scripted\r\nContent-Type: text/xml\r\nContent-Length: " + std::to_string(r.body.size()) +
        "\r\nConnection: close\r\n\r\n" + r.body;
    ssize_t off = 0;
    while (off < static_cast<ssize_t>(reply.size())) {
      ssize_t n = ::write(fd, reply.data() + off, reply.size() - off);
      if (n <= 0) break;
      off += n;
    }
    ::close(fd);
  }
}

std::string SignedWith(const std::string& request) {
  const std::string mark = "Authorization: AWS4-HMAC-SHA256 Credential=";
  const size_t at = request.find(mark);
  if (at == std::string::npos) return "";
  const size_t begin = at + mark.size();
  return request.substr(begin, request.find('/', begin) - begin);
}

}  // namespace dfbench::aws::testing
