// Credentials that stay current for a long run: the Client asks a CredentialProvider before
// each request, and temporary credentials that lapse within five minutes (the AWS SDKs' rule)
// are resolved again, so that a run longer than a session can still delete its stack.
//
//   auto creds = aws::ChainCredentials(aws::ProcessEnv());
//   aws::Client client(creds, "us-east-1");
#pragma once

#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "aws/credentials.h"
#include "aws/environment.h"
#include "core/clock.h"
#include "core/error.h"

namespace dfbench::aws {

class CredentialProvider {
 public:
  using Resolve = std::function<core::Result<Credentials>()>;

  // Credentials expiring within this many seconds are resolved again.
  static constexpr std::time_t kRefreshWindow = 5 * 60;
  // After a failed refresh, while the old credentials still hold, the wait before the next try.
  static constexpr std::time_t kRetryPause = 30;

  // `first`, when given, is used until it is due; then `resolve` answers. Whether they are due
  // is judged by `clock`'s wall time; the clock outlives the provider.
  explicit CredentialProvider(Resolve resolve, std::optional<Credentials> first = std::nullopt,
                              const core::Clock& clock = core::RealClock());

  // The current credentials; safe from several threads. When a refresh fails, credentials not
  // yet expired are kept (and the refresh tried again kRetryPause later); once they have
  // expired, the refresh's error is returned.
  core::Result<Credentials> Get();

  // The last credentials resolved, without refreshing (empty before any).
  Credentials Last() const;

 private:
  Resolve resolve_;
  const core::Clock* clock_;
  mutable std::mutex mu_;
  std::optional<Credentials> current_;
  std::time_t retry_after_ = 0;  // no refresh before this, unless current_ has expired
};

// Credentials that are never refreshed.
std::shared_ptr<CredentialProvider> StaticCredentials(Credentials credentials);

// LoadCredentials(env), run again when the credentials are due; `first` (already loaded) saves
// the first run.
std::shared_ptr<CredentialProvider> ChainCredentials(
    EnvLookup env, std::optional<Credentials> first = std::nullopt);

}  // namespace dfbench::aws
