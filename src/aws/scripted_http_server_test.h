// For the client's tests: an HTTP server on 127.0.0.1 that answers each request with the next
// scripted reply and records what it got. It stands in for AWS where the emulator cannot show
// a fault (throttling, an expired token): moto never throttles and never checks credentials.
#pragma once

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dfbench::aws::testing {

struct ScriptedReply {
  int status = 200;
  std::string body;
};

class ScriptedHttpServer {
 public:
  // Listens on a free port; replies in order, the last one repeated once the script runs out.
  explicit ScriptedHttpServer(std::vector<ScriptedReply> script);
  ~ScriptedHttpServer();  // stops accepting and joins

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Each request as received (head and body).
  std::vector<std::string> requests() const;

 private:
  void Serve();

  std::vector<ScriptedReply> script_;
  int listen_fd_ = -1;
  int port_ = 0;
  mutable std::mutex mu_;
  std::vector<std::string> requests_;
  std::thread thread_;
};

// The access key a recorded request was signed with (its Authorization header's
// Credential=AKID/...), "" when unsigned.
std::string SignedWith(const std::string& request);

}  // namespace dfbench::aws::testing
