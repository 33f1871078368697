#include "aws/shared_files.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/files.h"

namespace dfbench::aws {
namespace {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

core::Result<IniFile> LoadIni(const std::string& path) {
  auto text = core::ReadFile(path);
  if (!text) {
    if (text.error().kind == core::ErrorKind::kNotFound) return IniFile{};
    return tl::unexpected(text.error());
  }
  return ParseIni(*text, path);
}

std::string HomeFile(const EnvLookup& env, const char* var, const char* name) {
  if (auto v = env(var)) return *v;
  return env("HOME").value_or("") + "/.aws/" + name;
}

}  // namespace

EnvLookup ProcessEnv() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr || *v == '\0') return std::nullopt;
    return std::string(v);
  };
}

core::Result<IniFile> ParseIni(std::string_view text, const std::string& path) {
  IniFile file;
  IniSection* section = nullptr;
  bool nested = false;  // inside a `key =` block of indented sub-settings
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    const std::string line = Trim(raw);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    const bool indented = std::isspace(static_cast<unsigned char>(raw[0]));
    if (indented && nested) continue;
    nested = false;
    if (line.front() == '[' && line.back() == ']') {
      section = &file[Trim(std::string_view(line).substr(1, line.size() - 2))];
      continue;
    }
    const size_t eq = line.find('=');
    if (section == nullptr || eq == std::string::npos) {
      return core::Fail(core::ErrorKind::kUsage,
                        path + ":" + std::to_string(line_no) + ": not an INI line: " + line);
    }
    const std::string key = Lower(Trim(std::string_view(line).substr(0, eq)));
    const std::string value = Trim(std::string_view(line).substr(eq + 1));
    if (value.empty()) nested = true;
    (*section)[key] = value;
  }
  return file;
}

core::Result<SharedFiles> LoadSharedFiles(const EnvLookup& env) {
  SharedFiles files;
  files.credentials_path = HomeFile(env, "AWS_SHARED_CREDENTIALS_FILE", "credentials");
  files.config_path = HomeFile(env, "AWS_CONFIG_FILE", "config");
  auto credentials = LoadIni(files.credentials_path);
  if (!credentials) return tl::unexpected(credentials.error());
  auto config = LoadIni(files.config_path);
  if (!config) return tl::unexpected(config.error());
  files.credentials = std::move(*credentials);
  files.config = std::move(*config);
  return files;
}

std::optional<IniSection> ProfileSettings(const SharedFiles& files, const std::string& profile) {
  std::optional<IniSection> out;
  auto config = files.config.find("profile " + profile);
  if (config == files.config.end() && profile == "default") config = files.config.find("default");
  if (config != files.config.end()) out = config->second;
  if (auto cred = files.credentials.find(profile); cred != files.credentials.end()) {
    if (!out) out.emplace();
    for (const auto& [k, v] : cred->second) (*out)[k] = v;
  }
  return out;
}

}  // namespace dfbench::aws
