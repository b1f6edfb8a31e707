// Cryptographically secure sampling for keys and encryption. Every bit comes
// from the kernel CSPRNG (getrandom(2)); there is no seedable generator here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fhec::rt {

class SecureRandom {
public:
  uint64_t next64();
  /// Uniform in [0, bound) by rejection; bound > 0.
  uint64_t below(uint64_t bound);
  /// Uniform double in [0, 1) with 53 random bits (test inputs only, not secrets).
  double uniformReal();
  /// Fills words with uniform bits.
  void fill(uint64_t *words, size_t count);
  /// Discrete Gaussian over Z with standard deviation sigma, by inversion of
  /// the cumulative distribution on [-ceil(12 sigma), ceil(12 sigma)] with 64-bit precision.
  int64_t gaussian(double sigma);
  /// Ternary vector of length n with exactly h nonzero entries (+-1): HWT(h).
  std::vector<int8_t> hammingWeight(size_t n, int h);
  /// Ternary vector with P(+1) = P(-1) = rho/2 (HEAAN's ZO(rho)).
  std::vector<int8_t> zeroOne(size_t n, double rho);

private:
  uint64_t buf_[64];
  size_t pos_ = 64;
};

} // namespace fhec::rt
