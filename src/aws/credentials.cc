#include "aws/credentials.h"

#include <nlohmann/json.hpp>

#include "aws/credential_sources.h"
#include "aws/shared_files.h"

namespace dfbench::aws {

using core::ErrorKind;

std::optional<std::time_t> ParseExpiration(const std::string& s) {
  std::tm tm{};
  const char* rest = strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (rest == nullptr) return std::nullopt;
  if (*rest == '.') {
    ++rest;
    while (*rest >= '0' && *rest <= '9') ++rest;
  }
  long offset_s = 0;
  if (*rest == '+' || *rest == '-') {
    int hh = 0, mm = 0;
    if (std::sscanf(rest + 1, "%2d:%2d", &hh, &mm) != 2) return std::nullopt;
    offset_s = (*rest == '+' ? 1 : -1) * (hh * 3600L + mm * 60L);
  } else if (*rest != 'Z' && *rest != '\0') {
    return std::nullopt;
  }
  // time_t, so that far-future dates do not overflow a time_point.
  return timegm(&tm) - offset_s;
}

std::string ProfileName(const EnvLookup& env) {
  return env("AWS_PROFILE").value_or("default");
}

core::Result<Credentials> ParseProcessCredentials(const std::string& json, const std::string& what,
                                                  const core::Clock& clock) {
  auto doc = nlohmann::json::parse(json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return core::Fail(ErrorKind::kEnvironment, what + " did not print a JSON object");
  }
  auto text = [&doc](const char* key) {
    auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (auto v = doc.find("Version"); v == doc.end() || *v != 1) {
    return core::Fail(ErrorKind::kEnvironment, what + " printed JSON without \"Version\": 1");
  }
  Credentials c;
  c.access_key_id = text("AccessKeyId");
  c.secret_access_key = text("SecretAccessKey");
  c.session_token = text("SessionToken");
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return core::Fail(ErrorKind::kEnvironment,
                      what + " printed no AccessKeyId and SecretAccessKey");
  }
  if (const std::string exp = text("Expiration"); !exp.empty()) {
    c.expiration = ParseExpiration(exp);
    if (!c.expiration) {
      return core::Fail(ErrorKind::kEnvironment, what + " printed a malformed Expiration: " + exp);
    }
    if (*c.expiration <= std::chrono::system_clock::to_time_t(clock.WallNow())) {
      return core::Fail(ErrorKind::kEnvironment, kExpiredCredentialsAdvice);
    }
  }
  return c;
}

MaybeCredentials EnvironmentCredentials(const EnvLookup& env) {
  auto key = env("AWS_ACCESS_KEY_ID");
  auto secret = env("AWS_SECRET_ACCESS_KEY");
  if (key && secret) {
    return Credentials{*key, *secret, env("AWS_SESSION_TOKEN").value_or(""), "environment"};
  }
  if (key || secret) {
    return core::Fail(ErrorKind::kEnvironment,
                      std::string(key ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY") +
                          " is set without " +
                          (key ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID"));
  }
  return std::optional<Credentials>();
}

core::Result<Credentials> LoadCredentials(const EnvLookup& env) {
  // The sources in order; the first that is configured answers, and its failure is final.
  auto answered = [](MaybeCredentials& r) { return !r || r->has_value(); };
  auto result = [](MaybeCredentials&& r) -> core::Result<Credentials> {
    if (!r) return tl::unexpected(r.error());
    return std::move(**r);
  };

  if (auto r = EnvironmentCredentials(env); answered(r)) return result(std::move(r));
  if (auto r = WebIdentityEnvironmentCredentials(env); answered(r)) return result(std::move(r));

  auto files = LoadSharedFiles(env);
  if (!files) return tl::unexpected(files.error());
  const std::string profile = ProfileName(env);
  if (ProfileSettings(*files, profile)) {
    if (auto r = ProfileCredentials(env, *files, profile); answered(r)) {
      return result(std::move(r));
    }
  } else if (env("AWS_PROFILE")) {
    return core::Fail(ErrorKind::kEnvironment, "AWS profile '" + profile + "' not found in " +
                                                   files->credentials_path + " or " +
                                                   files->config_path);
  }

  if (auto r = ContainerCredentials(env); answered(r)) return result(std::move(r));
  if (auto r = InstanceMetadataCredentials(env); answered(r)) return result(std::move(r));

  return core::Fail(
      ErrorKind::kEnvironment,
      "no AWS credentials (tried: environment, web identity, profile " + profile +
          ", ECS container, EC2 instance metadata" +
          (InstanceMetadataDisabled(env) ? " (disabled)" : "") +
          "): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run 'aws "
          "configure' (or 'aws sso login')");
}

}  // namespace dfbench::aws
