#include "aws/credentials.h"

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "aws/shared_files.h"
#include "core/subprocess.h"

namespace dfbench::aws {
namespace {

using core::ErrorKind;

std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return "";
  size_t begin = text.find_last_of('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

// Runs a command that prints process-format credentials.
core::Result<Credentials> RunCredentialCommand(const std::vector<std::string>& argv,
                                               const std::string& what) {
  auto r = core::RunCapture(argv, std::chrono::seconds(60));
  if (!r) return core::Fail(ErrorKind::kEnvironment, what + ": " + r.error().message);
  if (!r->status.ok()) {
    const std::string err = r->err + r->out;
    // The AWS CLI's words for an SSO token past its lease ("Token has expired", "The SSO
    // session associated with this profile has expired or is otherwise invalid").
    if (err.find("xpired") != std::string::npos) {
      return core::Fail(ErrorKind::kEnvironment, kExpiredCredentialsAdvice);
    }
    const std::string last = LastLine(err);
    return core::Fail(ErrorKind::kEnvironment, what + " failed (" + r->status.Describe() + ")" +
                                                   (last.empty() ? "" : ": " + last));
  }
  return ParseProcessCredentials(r->out, what);
}

}  // namespace

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

core::Result<Credentials> ParseProcessCredentials(const std::string& json,
                                                  const std::string& what) {
  auto doc = nlohmann::json::parse(json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return core::Fail(ErrorKind::kEnvironment, what + " did not print a JSON object");
  }
  if (doc.value("Version", 0) != 1) {
    return core::Fail(ErrorKind::kEnvironment, what + " printed JSON without \"Version\": 1");
  }
  Credentials c;
  c.access_key_id = doc.value("AccessKeyId", "");
  c.secret_access_key = doc.value("SecretAccessKey", "");
  c.session_token = doc.value("SessionToken", "");
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return core::Fail(ErrorKind::kEnvironment,
                      what + " printed no AccessKeyId and SecretAccessKey");
  }
  if (const std::string exp = doc.value("Expiration", ""); !exp.empty()) {
    c.expiration = ParseExpiration(exp);
    if (!c.expiration) {
      return core::Fail(ErrorKind::kEnvironment, what + " printed a malformed Expiration: " + exp);
    }
    if (*c.expiration <= std::time(nullptr)) {
      return core::Fail(ErrorKind::kEnvironment, kExpiredCredentialsAdvice);
    }
  }
  return c;
}

core::Result<Credentials> LoadCredentials(const EnvLookup& env) {
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

  auto files = LoadSharedFiles(env);
  if (!files) return tl::unexpected(files.error());
  const std::string profile = ProfileName(env);
  auto settings = ProfileSettings(*files, profile);
  if (!settings) {
    if (env("AWS_PROFILE")) {
      return core::Fail(ErrorKind::kEnvironment, "AWS profile '" + profile + "' not found in " +
                                                     files->credentials_path + " or " +
                                                     files->config_path);
    }
    return core::Fail(ErrorKind::kEnvironment,
                      "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or "
                      "AWS_PROFILE, or run 'aws configure' (or 'aws sso login')");
  }
  auto get = [&](const char* k) {
    auto it = settings->find(k);
    return it == settings->end() ? std::string() : it->second;
  };
  const std::string where = "profile " + profile;
  if (!get("aws_access_key_id").empty() || !get("aws_secret_access_key").empty()) {
    if (get("aws_access_key_id").empty() || get("aws_secret_access_key").empty()) {
      return core::Fail(ErrorKind::kEnvironment, "AWS " + where +
                                                     " has only one of aws_access_key_id and "
                                                     "aws_secret_access_key");
    }
    return Credentials{get("aws_access_key_id"), get("aws_secret_access_key"),
                       get("aws_session_token"), where};
  }
  if (const std::string cmd = get("credential_process"); !cmd.empty()) {
    auto c = RunCredentialCommand({"/bin/sh", "-c", cmd}, "credential_process of AWS " + where);
    if (c) c->source = where + " (credential_process)";
    return c;
  }
  const bool sso = !get("sso_session").empty() || !get("sso_start_url").empty();
  if (sso || !get("role_arn").empty()) {
    // SSO tokens and assumed roles live in the AWS CLI's caches; it hands them out itself.
    auto aws = core::FindOnPath("aws");
    if (!aws) {
      return core::Fail(ErrorKind::kEnvironment,
                        "AWS " + where + " uses " + (sso ? "SSO" : "an assumed role") +
                            ", which needs the AWS CLI ('aws') to read its credentials; "
                            "install it or export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    }
    auto c = RunCredentialCommand(
        {*aws, "configure", "export-credentials", "--profile", profile, "--format", "process"},
        "'aws configure export-credentials --profile " + profile + "'");
    if (c) c->source = where + " (aws configure export-credentials)";
    return c;
  }
  return core::Fail(ErrorKind::kEnvironment, "AWS " + where +
                                                 " has no credentials (no aws_access_key_id, "
                                                 "credential_process or SSO settings)");
}

std::optional<std::string> ResolveRegion(const std::string& flag, const EnvLookup& env) {
  if (!flag.empty()) return flag;
  if (auto r = env("AWS_REGION")) return r;
  if (auto r = env("AWS_DEFAULT_REGION")) return r;
  auto files = LoadSharedFiles(env);
  if (!files) return std::nullopt;  // a malformed file is reported by LoadCredentials
  auto settings = ProfileSettings(*files, ProfileName(env));
  if (!settings) return std::nullopt;
  auto it = settings->find("region");
  if (it == settings->end() || it->second.empty()) return std::nullopt;
  return it->second;
}

}  // namespace dfbench::aws
