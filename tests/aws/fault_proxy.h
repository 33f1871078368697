// The fault-injecting HTTP proxy of tests/aws/fault_proxy.py between dfbench and the AWS
// emulator, for one test: started by Start, killed and reaped with the object. Its rules say
// which API calls it loses, fails, delays or throttles; its log says what reached AWS.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/subprocess.h"

namespace dfbench::testing {

class FaultProxy {
 public:
  // Proxies to `upstream` ("http://127.0.0.1:PORT") with `rules` ("CreateStack:drop:1", see
  // the script). "" when it listens; else why not (also a test failure).
  std::string Start(const std::string& upstream, const std::vector<std::string>& rules);
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // One line per request: "ACTION forwarded|FAULT STATUS".
  std::vector<std::string> Log() const;
  // Requests of `action` that reached the emulator (forwarded, dropped, failed or delayed).
  size_t Reached(const std::string& action) const;
  // Requests of `action` the proxy saw at all.
  size_t Seen(const std::string& action) const;

 private:
  int port_ = 0;
  std::filesystem::path dir_;
  core::Process process_;
};

}  // namespace dfbench::testing
