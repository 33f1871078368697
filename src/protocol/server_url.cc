#include "protocol/server_url.h"

#include <cctype>
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

// The characters that would end a user name early when the URL is read again.
std::string PercentEncoded(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '%' || ch == ':' || ch == '@' || ch == '/' || ch == '?' || u < 0x21 || u >= 0x7F) {
      out += {'%', kHex[u >> 4], kHex[u & 0xF]};
    } else {
      out += ch;
    }
  }
  return out;
}

bool ParseNumber(std::string_view text, int* out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

// redis-cli (src/cli_common.c, parseRedisUri) reads the userinfo as
// "[user ':'] password": the part before the first ':' is the user, an empty one the default
// user, and a userinfo without ':' is the password alone. Unlike redis-cli, which stops at the
// first '@', the userinfo here runs to the last '@', so a password holding an unescaped '@'
// never leaks into the host (or into an error message about it).
core::Status ParseUserinfo(std::string_view userinfo, ServerUrl* out) {
  const size_t colon = userinfo.find(':');
  auto user = PercentDecoded(colon == std::string_view::npos ? std::string_view()
                                                             : userinfo.substr(0, colon));
  auto password =
      PercentDecoded(colon == std::string_view::npos ? userinfo : userinfo.substr(colon + 1));
  if (!user || !password) return tl::unexpected(BadUrl("malformed %-escape in the credentials"));
  out->user = std::move(*user);
  out->password = std::move(*password);
  out->bare_userinfo = colon == std::string_view::npos && !userinfo.empty();
  return core::Ok();
}

// host, [v6]:port, host:port.
core::Status ParseHostPort(std::string_view text, ServerUrl* out) {
  std::string_view port;
  if (text.starts_with('[')) {
    const size_t close = text.find(']');
    if (close == std::string_view::npos) return tl::unexpected(BadUrl("unclosed '[' in the host"));
    out->host = std::string(text.substr(1, close - 1));
    port = text.substr(close + 1);
    if (!port.empty() && !port.starts_with(':')) {
      return tl::unexpected(BadUrl("'" + std::string(port) + "' after ']': use [ADDRESS]:PORT"));
    }
  } else {
    const size_t colon = text.find(':');
    out->host = std::string(text.substr(0, colon));
    if (colon != std::string_view::npos) port = text.substr(colon);
    if (port.find(':', 1) != std::string_view::npos) {
      return tl::unexpected(BadUrl("an IPv6 address goes in brackets: [ADDRESS]:PORT"));
    }
  }
  if (!port.empty() &&
      (!ParseNumber(port.substr(1), &out->port) || out->port < 1 || out->port > 65535)) {
    return tl::unexpected(BadUrl("port '" + std::string(port.substr(1)) + "': use 1 to 65535"));
  }
  if (out->host.empty()) return tl::unexpected(BadUrl("no host"));
  // No name or address holds a space or a control character; refused before a lookup, whose
  // error would carry them (a line feed would split its one line in two).
  for (const char ch : out->host) {
    const auto u = static_cast<unsigned char>(ch);
    if (u <= 0x20 || u == 0x7F)
      return tl::unexpected(BadUrl("a space or control character in the host"));
  }
  return core::Ok();
}

// "/N": the database, as redis-cli and memtier's --uri read the path. Neither takes a query
// (redis-cli's parser says it excludes them), so "?db=5" is refused rather than ignored.
core::Status ParsePath(std::string_view path, ServerUrl* out) {
  if (path.empty()) return core::Ok();
  if (path.find('?') != std::string_view::npos) {
    return tl::unexpected(BadUrl("no query parameters are taken; name the database as /N"));
  }
  const std::string_view db = path.substr(1);
  if (!db.empty() && (!ParseNumber(db, &out->db) || out->db < 0)) {
    return tl::unexpected(BadUrl("database '" + std::string(db) + "' is not a number"));
  }
  return core::Ok();
}

}  // namespace

core::Result<ServerUrl> ParseServerUrl(std::string_view url) {
  ServerUrl out;
  std::string_view rest;
  if (StartsWithNoCase(url, "redis://")) {
    rest = url.substr(8);
  } else if (StartsWithNoCase(url, "rediss://")) {
    out.tls = true;
    rest = url.substr(9);
  } else {
    return tl::unexpected(
        BadUrl("use redis://[[user]:password@]host[:port][/db], or rediss:// "
               "for TLS"));
  }
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) {
    if (auto st = ParseUserinfo(rest.substr(0, at), &out); !st) return tl::unexpected(st.error());
    rest = rest.substr(at + 1);
  }
  const size_t path = rest.find_first_of("/?");
  if (auto st = ParseHostPort(rest.substr(0, path), &out); !st) return tl::unexpected(st.error());
  if (path != std::string_view::npos) {
    if (auto st = ParsePath(rest.substr(path), &out); !st) return tl::unexpected(st.error());
  }
  return out;
}

std::string Redacted(const ServerUrl& url) {
  std::string text = url.tls ? "rediss://" : "redis://";
  if (!url.user.empty()) text += PercentEncoded(url.user) + "@";
  const bool ipv6 = url.host.find(':') != std::string::npos;
  text += (ipv6 ? "[" + url.host + "]" : url.host) + ":" + std::to_string(url.port);
  if (url.db != 0) text += "/" + std::to_string(url.db);
  return text;
}

}  // namespace dfbench::protocol
