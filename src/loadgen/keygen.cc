#include "loadgen/keygen.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"

namespace dfbench::loadgen {
namespace {

// log1p(t)/t and expm1(t)/t, continuous at t = 0.
double Log1pOverT(double t) {
  return std::abs(t) > 1e-8 ? std::log1p(t) / t : 1 - t / 2;
}
double Expm1OverT(double t) {
  return std::abs(t) > 1e-8 ? std::expm1(t) / t : 1 + t / 2;
}

}  // namespace

uint64_t GaussianBetween(Rng& rng, uint64_t min, uint64_t max, double median, double stddev) {
  // Box-Muller; values outside the range are drawn again (a few times at most in practice),
  // then clamped so a pathological median cannot loop forever.
  double v = 0;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const double u1 = 1.0 - rng.Unit();  // (0, 1]
    const double u2 = rng.Unit();
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
    v = std::round(median + z * stddev);
    if (v >= static_cast<double>(min) && v <= static_cast<double>(max)) break;
  }
  v = std::clamp(v, static_cast<double>(min), static_cast<double>(max));
  return static_cast<uint64_t>(v);
}

uint64_t ClientSeed(const Config& config, int global_client, uint64_t random_base) {
  uint64_t seed = config.randomize ? random_base : 0x5DFBE7C4ull;
  if (config.load.distinct_client_seed) {
    seed += static_cast<uint64_t>(config.load.seed_client_base + global_client) * 0x9E3779B9ull;
  }
  return seed;
}

ZipfSampler::ZipfSampler(uint64_t n, double s) : n_(std::max<uint64_t>(n, 1)), s_(s) {
  h_integral_x1_ = H(1.5) - 1.0;
  h_integral_n_ = H(static_cast<double>(n_) + 0.5);
  threshold_ = 2.0 - HInverse(H(2.5) - h(2.0));
}

// H(x) = integral of h from 1 to x, h(x) = x^-s.
double ZipfSampler::H(double x) const {
  const double log_x = std::log(x);
  return Expm1OverT((1.0 - s_) * log_x) * log_x;
}

double ZipfSampler::HInverse(double x) const {
  double t = x * (1.0 - s_);
  if (t < -1.0) t = -1.0;  // rounding at the far end of the range
  return std::exp(Log1pOverT(t) * x);
}

double ZipfSampler::h(double x) const {
  return std::exp(-s_ * std::log(x));
}

uint64_t ZipfSampler::Sample(Rng& rng) const {
  while (true) {
    const double u = h_integral_n_ + rng.Unit() * (h_integral_x1_ - h_integral_n_);
    const double x = HInverse(u);
    double k = std::floor(x + 0.5);
    if (k < 1) k = 1;
    if (k > static_cast<double>(n_)) k = static_cast<double>(n_);
    if (k - x <= threshold_ || u >= H(k + 0.5) - h(k)) return static_cast<uint64_t>(k);
  }
}

KeyGenerator::KeyGenerator(const Config& config, core::KeyPattern pattern, int global_client,
                           int total_clients)
    : pattern_(pattern),
      min_(config.load.key_minimum),
      max_(config.load.key_maximum),
      next_(config.load.key_minimum),
      median_(config.KeyMedian()),
      stddev_(config.KeyStddev()),
      zipf_(pattern == core::KeyPattern::kZipf ? config.load.KeyCount() : 1, config.key_zipf_exp) {
  if (pattern == core::KeyPattern::kParallel) {
    DFB_CHECK(global_client < total_clients);
    KeySlice slice = ParallelSlice(min_, max_, global_client, total_clients);
    min_ = slice.first;
    max_ = slice.last;
    next_ = min_;
  }
}

uint64_t KeyGenerator::Next(Rng& rng) {
  switch (pattern_) {
    case core::KeyPattern::kRandom:
      return rng.Between(min_, max_);
    case core::KeyPattern::kSequential:
    case core::KeyPattern::kParallel: {
      uint64_t key = next_;
      next_ = next_ == max_ ? min_ : next_ + 1;
      return key;
    }
    case core::KeyPattern::kGaussian:
      return GaussianBetween(rng, min_, max_, median_, stddev_);
    case core::KeyPattern::kZipf:
      return min_ + zipf_.Sample(rng) - 1;
  }
  return min_;
}

}  // namespace dfbench::loadgen
