// Key indices for one client and one command, per memtier's key patterns. No allocation after
// construction; Next() is a few nanoseconds.
#pragma once

#include <cstdint>

#include "loadgen/config.h"

namespace dfbench::loadgen {

// A small, fast PRNG (splitmix64). Quality is ample for picking keys and sizes.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound); bound > 0.
  uint64_t Below(uint64_t bound) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * bound) >> 64);
  }
  // Uniform in [lo, hi].
  uint64_t Between(uint64_t lo, uint64_t hi) { return lo + Below(hi - lo + 1); }
  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// A whole number in [min, max], normal around `median` with `stddev` (the G key pattern's, and
// WAIT's timeout).
uint64_t GaussianBetween(Rng& rng, uint64_t min, uint64_t max, double median, double stddev);

// Seed of client `global_client`'s generator. Without --distinct-client-seed and --randomize
// every client gets the same seed, so all clients produce the same key sequence.
uint64_t ClientSeed(const Config& config, int global_client, uint64_t random_base);

// Zipf ranks in [1, n] with P(k) ~ 1/k^s, by rejection-inversion (Hörmann and Derflinger,
// "Rejection-inversion to generate variates from monotone discrete distributions", 1996):
// O(1) per sample and no table, so a 10M-key range costs nothing to set up.
class ZipfSampler {
 public:
  ZipfSampler(uint64_t n, double s);
  uint64_t Sample(Rng& rng) const;

 private:
  double H(double x) const;
  double HInverse(double x) const;
  double h(double x) const;
  uint64_t n_;
  double s_;
  double h_integral_x1_;
  double h_integral_n_;
  double threshold_;
};

class KeyGenerator {
 public:
  // `global_client` and `total_clients` select the P slice.
  KeyGenerator(const Config& config, core::KeyPattern pattern, int global_client,
               int total_clients);

  // Next key index in [key_minimum, key_maximum]. Random patterns draw from `rng`.
  uint64_t Next(Rng& rng);

  core::KeyPattern pattern() const { return pattern_; }

 private:
  core::KeyPattern pattern_;
  uint64_t min_;
  uint64_t max_;
  uint64_t next_;  // S and P: the next key
  double median_;
  double stddev_;
  ZipfSampler zipf_;
};

}  // namespace dfbench::loadgen
