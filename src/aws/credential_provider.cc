#include "aws/credential_provider.h"

#include <utility>

namespace dfbench::aws {

CredentialProvider::CredentialProvider(Resolve resolve, std::optional<Credentials> first,
                                       const core::Clock& clock)
    : resolve_(std::move(resolve)), clock_(&clock), current_(std::move(first)) {}

core::Result<Credentials> CredentialProvider::Get() {
  std::lock_guard lock(mu_);
  const std::time_t now = std::chrono::system_clock::to_time_t(clock_->WallNow());
  const bool expired = current_ && current_->expiration && *current_->expiration <= now;
  const bool due = !current_ || expired ||
                   (current_->expiration && *current_->expiration - now <= kRefreshWindow &&
                    now >= retry_after_);
  if (!due || !resolve_) {
    if (current_) return *current_;
    return core::Fail(core::ErrorKind::kEnvironment, "no AWS credentials");
  }
  auto fresh = resolve_();
  if (fresh) {
    current_ = *fresh;
    return std::move(*fresh);
  }
  // Still valid for a while: keep signing with them, and try again a little later.
  if (current_ && !expired) {
    retry_after_ = now + kRetryPause;
    return *current_;
  }
  return tl::unexpected(fresh.error());
}

Credentials CredentialProvider::Last() const {
  std::lock_guard lock(mu_);
  return current_.value_or(Credentials{});
}

std::shared_ptr<CredentialProvider> StaticCredentials(Credentials credentials) {
  return std::make_shared<CredentialProvider>(nullptr, std::move(credentials));
}

std::shared_ptr<CredentialProvider> ChainCredentials(EnvLookup env,
                                                     std::optional<Credentials> first) {
  return std::make_shared<CredentialProvider>(
      [env = std::move(env)] { return LoadCredentials(env); }, std::move(first));
}

}  // namespace dfbench::aws
