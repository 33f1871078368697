#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>

#include "aws/client.h"
#include "aws/credential_sources.h"
#include "aws/region.h"
#include "aws/sts.h"
#include "core/files.h"
#include "core/subprocess.h"

namespace dfbench::aws {
namespace {

using core::ErrorKind;

std::string LastOutputLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return "";
  size_t begin = text.find_last_of('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(begin, end - begin + 1);
}

// The region of STS calls: the profile's, else the chain's, else us-east-1.
std::string StsRegion(const EnvLookup& env, const IniSection& settings) {
  if (const Region r = ResolveRegion("", env); r.source != "default") return r.name;
  if (auto it = settings.find("region"); it != settings.end() && !it->second.empty()) {
    return it->second;
  }
  return "us-east-1";
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
    const std::string last = LastOutputLine(err);
    return core::Fail(ErrorKind::kEnvironment, what + " failed (" + r->status.Describe() + ")" +
                                                   (last.empty() ? "" : ": " + last));
  }
  return ParseProcessCredentials(r->out, what);
}

// "aws-cli/1.29.0 Python/3.11 ..." → "1.29.0"; "" when `aws --version` says otherwise.
std::string AwsCliV1Version(const std::string& aws) {
  auto r = core::RunCapture({aws, "--version"}, std::chrono::seconds(20));
  if (!r) return "";
  const std::string text = r->out + r->err;  // v1 printed it on stderr until 1.18
  const size_t at = text.find("aws-cli/1.");
  if (at == std::string::npos) return "";
  const size_t begin = at + 8;
  return text.substr(begin, text.find_first_of(" \n", begin) - begin);
}

// SSO tokens live in the AWS CLI's cache, which only CLI v2 hands out.
core::Result<Credentials> SsoCredentials(const std::string& profile, const std::string& where) {
  auto aws = core::FindOnPath("aws");
  if (!aws) {
    return core::Fail(ErrorKind::kEnvironment,
                      "AWS " + where +
                          " uses SSO, which needs AWS CLI v2 ('aws') to read its credentials; "
                          "install it or export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
  }
  auto c = RunCredentialCommand(
      {*aws, "configure", "export-credentials", "--profile", profile, "--format", "process"},
      "'aws configure export-credentials --profile " + profile + "'");
  if (!c && c.error().message != kExpiredCredentialsAdvice) {
    if (const std::string v1 = AwsCliV1Version(*aws); !v1.empty()) {
      return core::Fail(ErrorKind::kEnvironment,
                        "SSO profiles need AWS CLI v2 ('aws configure export-credentials'); " +
                            *aws + " is AWS CLI " + v1 + " (AWS " + where +
                            "): install v2 or export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    }
  }
  if (c) c->source = where + " (aws configure export-credentials)";
  return c;
}

class ProfileResolver {
 public:
  ProfileResolver(const EnvLookup& env, const SharedFiles& files) : env_(env), files_(files) {}

  // `as_source`: reached through another profile's source_profile, where static keys win over
  // the profile's own role_arn (the SDKs' rule; a profile may name itself that way).
  MaybeCredentials Resolve(const std::string& profile, bool as_source) {
    auto settings = ProfileSettings(files_, profile);
    const std::string where = "profile " + profile;
    if (!settings) {
      return core::Fail(ErrorKind::kEnvironment,
                        "AWS profile '" + profile + "' not found in " + Path());
    }
    auto get = [&](const char* k) {
      auto it = settings->find(k);
      return it == settings->end() ? std::string() : it->second;
    };
    const bool has_key = !get("aws_access_key_id").empty();
    const bool has_secret = !get("aws_secret_access_key").empty();
    if (has_key != has_secret) {
      return core::Fail(ErrorKind::kEnvironment, "AWS " + where +
                                                     " has only one of aws_access_key_id and "
                                                     "aws_secret_access_key");
    }
    const Credentials keys{get("aws_access_key_id"), get("aws_secret_access_key"),
                           get("aws_session_token"), where};
    if (has_key && as_source) return std::optional<Credentials>(keys);
    if (!get("role_arn").empty()) return AssumedRole(profile, *settings);
    if (has_key) return std::optional<Credentials>(keys);
    if (const std::string cmd = get("credential_process"); !cmd.empty()) {
      auto c = RunCredentialCommand({"/bin/sh", "-c", cmd}, "credential_process of AWS " + where);
      if (!c) return tl::unexpected(c.error());
      c->source = where + " (credential_process)";
      return std::optional<Credentials>(std::move(*c));
    }
    if (!get("sso_session").empty() || !get("sso_start_url").empty()) {
      auto c = SsoCredentials(profile, where);
      if (!c) return tl::unexpected(c.error());
      return std::optional<Credentials>(std::move(*c));
    }
    return std::optional<Credentials>();
  }

 private:
  std::string Path() const { return files_.credentials_path + " or " + files_.config_path; }

  // role_arn and its settings as an AssumeRole request.
  static core::Result<AssumeRoleRequest> RoleRequest(const std::string& where,
                                                     const IniSection& settings) {
    auto get = [&](const char* k) {
      auto it = settings.find(k);
      return it == settings.end() ? std::string() : it->second;
    };
    AssumeRoleRequest request{.role_arn = get("role_arn"),
                              .session_name = get("role_session_name"),
                              .external_id = get("external_id")};
    if (request.session_name.empty()) request.session_name = DefaultRoleSessionName();
    if (const std::string d = get("duration_seconds"); !d.empty()) {
      if (d.size() > 6 ||
          !std::all_of(d.begin(), d.end(), [](unsigned char c) { return std::isdigit(c); })) {
        return core::Fail(ErrorKind::kUsage,
                          "AWS " + where + ": duration_seconds is not a number of seconds: " + d);
      }
      request.duration_seconds = std::stoi(d);
    }
    if (!get("mfa_serial").empty()) {
      return core::Fail(ErrorKind::kEnvironment,
                        "AWS " + where +
                            " needs an MFA code (mfa_serial), which dfbench cannot ask for; "
                            "export credentials from 'aws sts assume-role' instead");
    }
    return request;
  }

  // The credentials that sign a role profile's AssumeRole: its source_profile's or its
  // credential_source's; `via` names which.
  MaybeCredentials RoleSource(const std::string& profile, const IniSection& settings,
                              std::string* via) {
    auto get = [&](const char* k) {
      auto it = settings.find(k);
      return it == settings.end() ? std::string() : it->second;
    };
    const std::string where = "profile " + profile;
    const std::string source_profile = get("source_profile");
    const std::string credential_source = get("credential_source");
    if (!source_profile.empty() && !credential_source.empty()) {
      return core::Fail(ErrorKind::kUsage,
                        "AWS " + where + " has both source_profile and credential_source");
    }
    if (!source_profile.empty()) {
      if (std::find(chain_.begin(), chain_.end(), profile) != chain_.end()) {
        std::string cycle;
        for (const auto& p : chain_) cycle += p + " -> ";
        return core::Fail(ErrorKind::kUsage,
                          "AWS profiles form a source_profile cycle: " + cycle + profile);
      }
      if (!ProfileSettings(files_, source_profile)) {
        return core::Fail(ErrorKind::kEnvironment, "AWS " + where + " names source_profile '" +
                                                       source_profile + "', which is not in " +
                                                       Path());
      }
      *via = "source_profile " + source_profile;
      chain_.push_back(profile);
      auto source = Resolve(source_profile, /*as_source=*/true);
      chain_.pop_back();
      return source;
    }
    *via = "credential_source " + credential_source;
    if (credential_source == "Environment") return EnvironmentCredentials(env_);
    if (credential_source == "Ec2InstanceMetadata") return InstanceMetadataCredentials(env_);
    if (credential_source == "EcsContainer") return ContainerCredentials(env_);
    if (!credential_source.empty()) {
      return core::Fail(ErrorKind::kUsage, "AWS " + where +
                                               ": credential_source must be Environment, "
                                               "Ec2InstanceMetadata or EcsContainer, not " +
                                               credential_source);
    }
    return core::Fail(ErrorKind::kUsage, "AWS " + where +
                                             " has role_arn without source_profile, "
                                             "credential_source or web_identity_token_file");
  }

  MaybeCredentials AssumedRole(const std::string& profile, const IniSection& settings) {
    const std::string where = "profile " + profile;
    auto request = RoleRequest(where, settings);
    if (!request) return tl::unexpected(request.error());
    if (auto it = settings.find("web_identity_token_file");
        it != settings.end() && !it->second.empty()) {
      auto c = WebIdentityCredentials(env_, request->role_arn, it->second, request->session_name,
                                      where + " (web identity)");
      if (!c) return tl::unexpected(c.error());
      return std::optional<Credentials>(std::move(*c));
    }
    std::string via;
    auto source = RoleSource(profile, settings, &via);
    if (!source) return tl::unexpected(source.error());
    if (!*source) {
      return core::Fail(ErrorKind::kEnvironment,
                        "AWS " + where + ": its " + via + " has no credentials");
    }
    const Client sts(StaticCredentials(std::move(**source)), StsRegion(env_, settings), env_);
    auto c = AssumeRole(sts, *request);
    if (!c) return tl::unexpected(c.error());
    c->source = where + " (role_arn, " + via + ")";
    return std::optional<Credentials>(std::move(*c));
  }

  const EnvLookup& env_;
  const SharedFiles& files_;
  std::vector<std::string> chain_;  // the role profiles being resolved, outermost first
};

}  // namespace

std::string DefaultRoleSessionName(const core::Clock& clock) {
  return "dfbench-" + std::to_string(static_cast<long long>(
                          std::chrono::system_clock::to_time_t(clock.WallNow())));
}

core::Result<Credentials> WebIdentityCredentials(const EnvLookup& env, const std::string& role_arn,
                                                 const std::string& token_file,
                                                 const std::string& session_name,
                                                 const std::string& source) {
  // Read on every resolution: the platform rotates the token in place.
  auto token = core::ReadFile(token_file);
  if (!token) {
    return core::Fail(ErrorKind::kEnvironment,
                      "AWS web identity token file: " + token.error().message);
  }
  while (!token->empty() && std::isspace(static_cast<unsigned char>(token->back()))) {
    token->pop_back();
  }
  if (token->empty()) {
    return core::Fail(ErrorKind::kEnvironment,
                      "AWS web identity token file is empty: " + token_file);
  }
  const Client sts = Client::Unsigned(ResolveRegion("", env).name, env);
  auto c = AssumeRoleWithWebIdentity(
      sts, {.role_arn = role_arn, .session_name = session_name, .web_identity_token = *token});
  if (c) c->source = source;
  return c;
}

MaybeCredentials WebIdentityEnvironmentCredentials(const EnvLookup& env) {
  auto token_file = env("AWS_WEB_IDENTITY_TOKEN_FILE");
  if (!token_file) return std::optional<Credentials>();
  auto role = env("AWS_ROLE_ARN");
  if (!role) {
    return core::Fail(ErrorKind::kEnvironment,
                      "AWS_WEB_IDENTITY_TOKEN_FILE is set without AWS_ROLE_ARN");
  }
  auto c = WebIdentityCredentials(env, *role, *token_file,
                                  env("AWS_ROLE_SESSION_NAME").value_or(DefaultRoleSessionName()),
                                  "web identity (AWS_WEB_IDENTITY_TOKEN_FILE)");
  if (!c) return tl::unexpected(c.error());
  return std::optional<Credentials>(std::move(*c));
}

MaybeCredentials ProfileCredentials(const EnvLookup& env, const SharedFiles& files,
                                    const std::string& profile) {
  ProfileResolver resolver(env, files);
  return resolver.Resolve(profile, /*as_source=*/false);
}

}  // namespace dfbench::aws
