// Cryptographically secure sampling for keys and encryption. Every bit comes
// from OpenSSL's private DRBG (RAND_priv_bytes: NIST SP 800-90A CTR-DRBG with
// AES-256, seeded and reseeded from the kernel's getrandom(2)), a userspace
// CSPRNG: getrandom itself delivers ~100 MB/s on some virtual machines, and
// a rotation key at N = 2^16 needs 20 MB of uniform words. There is no
// seedable generator here; tests derive one (generate() is virtual) to feed
// two implementations the same stream.
//
// The samplers of secret values (gaussian, hammingWeight, uniformTernary, zeroOne) run in time
// independent of the values they return: no branch and no memory index depends
// on a secret, and each draws a fixed number of random words (rejection happens
// only in `below`, on public ranges).
#pragma once
#include "fhec/runtime/Wipe.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fhec::rt {

class SecureRandom {
public:
  SecureRandom() = default;
  /// Copies would hand out the same buffered random words twice.
  SecureRandom(const SecureRandom &) = delete;
  SecureRandom &operator=(const SecureRandom &) = delete;
  /// Wipes the words still buffered (future randomness).
  virtual ~SecureRandom();

  uint64_t next64();
  /// Uniform in [0, bound) by rejection; bound > 0. Not constant-time in the
  /// result (division): for public ranges only.
  uint64_t below(uint64_t bound);
  /// Uniform double in [0, 1) with 53 random bits (test inputs only, not secrets).
  double uniformReal();
  /// Fills words with uniform bits.
  void fill(uint64_t *words, size_t count);
  /// Discrete Gaussian over Z with parameter sigma (P(x) ~ exp(-x^2 / 2 sigma^2)),
  /// by inversion of the cumulative distribution (CDT) on [-ceil(12 sigma),
  /// ceil(12 sigma)] with 64-bit precision; constant-time (whole-table scan).
  int64_t gaussian(double sigma);
  /// n samples of gaussian(sigma) into out, by the same constant-time table
  /// scan over words drawn in batches (two per sample, through fill): loops
  /// the compiler vectorizes, ~10x faster than n calls at N = 2^16.
  void gaussian(double sigma, int64_t *out, size_t n);
  /// Ternary vector of length n with exactly h nonzero entries (+-1), uniform
  /// over all such vectors: HWT(h). Constant-time (sorting network).
  std::vector<int8_t> hammingWeight(size_t n, int h);
  /// Uniform ternary vector of length n: each entry -1, 0 or 1 with
  /// probability 1/3 (to within 2^-62), as the high word of 3 u for a
  /// uniform 64-bit u. Constant-time: one word per entry, no branch.
  std::vector<int8_t> uniformTernary(size_t n);
  /// Ternary vector with P(+1) = P(-1) = rho/2 (HEAAN's ZO(rho)); constant-time.
  std::vector<int8_t> zeroOne(size_t n, double rho);

protected:
  /// Fills `words` words with uniform bits: the CSPRNG. Every draw of the
  /// samplers comes through here (next64 refills its buffer with it, fill
  /// calls it directly), in an order that depends only on the calls made.
  /// Throws Error if the generator fails.
  virtual void generate(uint64_t *words, size_t count);

private:
  static constexpr size_t kBufferWords = 512;
  uint64_t buf_[kBufferWords];
  size_t pos_ = kBufferWords;
};

} // namespace fhec::rt
