// The AWS CLI's shared files, ~/.aws/credentials and ~/.aws/config: INI text with one section
// per profile ("[name]" in credentials, "[profile name]" or "[default]" in config).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "aws/environment.h"
#include "core/error.h"

namespace dfbench::aws {

// key -> value of one section; keys are lower-case as the AWS CLI treats them.
using IniSection = std::map<std::string, std::string>;
// Section name as written between the brackets ("default", "profile dev", "sso-session x").
using IniFile = std::map<std::string, IniSection>;

// Parses INI text: `[section]`, `key = value`, `#` and `;` comment lines. Indented lines under a
// key with an empty value (the CLI's nested `s3 =` settings) are skipped. kUsage, naming `path`
// and the line, for a line that is none of these.
core::Result<IniFile> ParseIni(std::string_view text, const std::string& path);

struct SharedFiles {
  std::string credentials_path;  // AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials
  std::string config_path;       // AWS_CONFIG_FILE or ~/.aws/config
  IniFile credentials;           // empty when the file does not exist
  IniFile config;
};

// Reads both files (a missing file is empty; an unreadable or malformed one is an error).
core::Result<SharedFiles> LoadSharedFiles(const EnvLookup& env);

// The settings of `profile`: the config file's `[profile NAME]` (`[default]` for "default"),
// overlaid by the credentials file's `[NAME]`, as the AWS CLI does. nullopt when neither file
// has the profile.
std::optional<IniSection> ProfileSettings(const SharedFiles& files, const std::string& profile);

}  // namespace dfbench::aws
