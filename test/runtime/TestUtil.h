// Helpers shared by the runtime tests: random polynomials and the independent
// schoolbook negacyclic product (the small-N oracle, plain mpz arithmetic).
#pragma once
#include "fhec/runtime/BigPoly.h"
#include "fhec/runtime/Params.h"
#include "fhec/runtime/Random.h"

#include <gmp.h>

namespace fhec::rt::test {

inline Params makeParams(int logN, int logQ, int logp, int h = 64) {
  Params p;
  p.logN = logN;
  p.logQ = logQ;
  p.logp = logp;
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

} // namespace fhec::rt::test
