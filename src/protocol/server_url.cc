#include "protocol/server_url.h"

#include <charconv>
#include <optional>
#include <utility>

namespace dfbench::protocol {
namespace {

core::Error BadUrl(const std::string& why) {
  return {core::ErrorKind::kUsage, "server URL: " + why};
}

// %XX sequences decoded; nullopt for a malformed one.
std::optional<std::string> PercentDecoded(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
    if (ec != std::errc() || end != text.data() + i + 3) return std::nullopt;
    out += static_cast<char>(value);
    i += 2;
  }
  return out;
}

bool ParseNumber(std::string_view text, int* out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

core::Result<ServerUrl> ParseServerUrl(std::string_view url) {
  ServerUrl out;
  std::string_view rest;
  if (url.starts_with("redis://")) {
    rest = url.substr(8);
  } else if (url.starts_with("rediss://")) {
    out.tls = true;
    rest = url.substr(9);
  } else {
    return tl::unexpected(
        BadUrl("use redis://[[user]:password@]host[:port][/db], or rediss:// "
               "for TLS"));
  }
  if (const size_t slash = rest.find('/'); slash != std::string_view::npos) {
    const std::string_view db = rest.substr(slash + 1);
    if (!db.empty() && (!ParseNumber(db, &out.db) || out.db < 0)) {
      return tl::unexpected(BadUrl("database '" + std::string(db) + "' is not a number"));
    }
    rest = rest.substr(0, slash);
  }
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) {
    const std::string_view credentials = rest.substr(0, at);
    rest = rest.substr(at + 1);
    const size_t colon = credentials.find(':');
    auto user = PercentDecoded(credentials.substr(0, colon));
    auto password = PercentDecoded(colon == std::string_view::npos ? std::string_view()
                                                                   : credentials.substr(colon + 1));
    if (!user || !password) return tl::unexpected(BadUrl("malformed %-escape in the credentials"));
    // "redis://secret@host": a lone word is the password, as redis-cli reads it.
    if (colon == std::string_view::npos) std::swap(*user, *password);
    out.user = std::move(*user);
    out.password = std::move(*password);
  }
  std::string_view host = rest;
  if (host.starts_with('[')) {  // [::1]:6379
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return tl::unexpected(BadUrl("unclosed '[' in the host"));
    out.host = std::string(host.substr(1, close - 1));
    host = host.substr(close + 1);
  } else {
    const size_t colon = host.rfind(':');
    out.host = std::string(host.substr(0, colon));
    host = colon == std::string_view::npos ? std::string_view() : host.substr(colon);
  }
  if (!host.empty()) {
    if (!host.starts_with(':') || !ParseNumber(host.substr(1), &out.port) || out.port < 1 ||
        out.port > 65535) {
      return tl::unexpected(BadUrl("port '" + std::string(host.substr(1)) + "': use 1 to 65535"));
    }
  }
  if (out.host.empty()) return tl::unexpected(BadUrl("no host"));
  return out;
}

std::string Redacted(const ServerUrl& url) {
  std::string text = url.tls ? "rediss://" : "redis://";
  if (!url.user.empty()) text += url.user + "@";
  const bool ipv6 = url.host.find(':') != std::string::npos;
  text += (ipv6 ? "[" + url.host + "]" : url.host) + ":" + std::to_string(url.port);
  if (url.db != 0) text += "/" + std::to_string(url.db);
  return text;
}

}  // namespace dfbench::protocol
