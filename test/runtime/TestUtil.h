// Helpers shared by the runtime tests: random polynomials, the independent
// schoolbook negacyclic product (the small-N oracle, plain mpz arithmetic) and
// the message of an expected error.
#pragma once
#include "fhec/runtime/BigPoly.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Params.h"
#include "fhec/runtime/Random.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <gmp.h>
#include <string>
#include <vector>

namespace fhec::rt::test {

/// The message of the Error f throws ("" when it throws none).
inline std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

/// Parameters with a uniform ternary secret (h = 0) or a sparse one of weight h.
inline Params makeParams(int logN, int logQ, int logp, int h = 0) {
  Params p;
  p.logN = logN;
  p.logQ = logQ;
  p.logp = logp;
  p.secret = h ? SecretKind::Sparse : SecretKind::Ternary;
  p.h = h;
  return p;
}

inline BigPoly randomPoly(int logN, int logq, SecureRandom &rng) {
  BigPoly p(logN, logq);
  rng.fill(p.words.data(), p.words.size());
  p.maskTop();
  return p;
}

/// (a * b mod X^N + 1) mod 2^logqOut by the O(N^2) definition.
inline BigPoly schoolbookProduct(const BigPoly &a, const BigPoly &b, int logqOut) {
  const size_t N = a.N();
  BigPoly out(a.logN, logqOut);
  mpz_t x, y, acc;
  mpz_inits(x, y, acc, nullptr);
  for (size_t k = 0; k < N; ++k) {
    mpz_set_ui(acc, 0);
    for (size_t i = 0; i < N; ++i) {
      size_t j = (k + N - i) % N;  // i + j = k (mod N); wraps contribute -a_i b_j
      a.get(i, x);
      b.get(j, y);
      mpz_mul(x, x, y);
      if (i <= k) mpz_add(acc, acc, x);
      else mpz_sub(acc, acc, x);
    }
    out.set(k, acc);
  }
  mpz_clears(x, y, acc, nullptr);
  return out;
}

/// A small signed polynomial as a BigPoly mod 2^logq.
inline BigPoly fromSmall(const std::vector<int8_t> &v, int logN, int logq) {
  BigPoly p(logN, logq);
  mpz_t t;
  mpz_init(t);
  for (size_t i = 0; i < v.size(); ++i) {
    mpz_set_si(t, v[i]);
    p.set(i, t);
  }
  mpz_clear(t);
  return p;
}

/// A signed polynomial (|v_i| < 2^63) as a BigPoly mod 2^logq.
inline BigPoly fromSigned(const std::vector<int64_t> &v, int logN, int logq) {
  BigPoly p(logN, logq);
  mpz_t t;
  mpz_init(t);
  for (size_t i = 0; i < v.size(); ++i) {
    mpz_set_si(t, long(v[i]));
    p.set(i, t);
  }
  mpz_clear(t);
  return p;
}

/// The upper-tail critical value of the chi-square distribution with df
/// degrees of freedom at false-rejection probability alpha, by the
/// Wilson-Hilferty approximation ((X/df)^(1/3) is nearly normal with mean
/// 1 - 2/(9 df) and variance 2/(9 df)). At alpha = 1e-6 it errs on the safe
/// side: the exact tail beyond it is 2.7e-7 for df = 2, 8.1e-7 for df = 28,
/// 9.9e-7 for df = 511. z is the standard normal upper quantile, by bisection
/// on erfc.
inline double chiSquareCritical(int df, double alpha) {
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {
    double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(mid / std::sqrt(2.0)) > alpha ? lo : hi) = mid;
  }
  const double z = 0.5 * (lo + hi), v = 2.0 / (9.0 * df);
  return df * std::pow(1 - v + z * std::sqrt(v), 3);
}

/// A seeded stream in SecureRandom's place (xoshiro256** seeded by
/// splitmix64): tests only, to feed two implementations of the client side
/// the same randomness. Never a source of real keys.
class DeterministicRandom : public SecureRandom {
public:
  explicit DeterministicRandom(uint64_t seed) {
    for (auto &x : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      x = z ^ (z >> 31);
    }
  }

protected:
  void generate(uint64_t *words, size_t count) override {
    for (size_t i = 0; i < count; ++i) {
      const uint64_t r = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
      s_[2] ^= s_[0];
      s_[3] ^= s_[1];
      s_[1] ^= s_[2];
      s_[0] ^= s_[3];
      s_[2] ^= t;
      s_[3] = rotl(s_[3], 45);
      words[i] = r;
    }
  }

private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

} // namespace fhec::rt::test
