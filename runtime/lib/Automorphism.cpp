#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Limits.h"

#include <string>

namespace fhec::rt {

namespace {
void checkLogN(int logN) {
  if (logN < int(limits::kMinLogN) || logN > int(limits::kMaxLogN))
    throw Error("automorphism: logN = " + std::to_string(logN) + " is out of range");
}
} // namespace

uint64_t galoisForRotation(int logN, int64_t r) {
  checkLogN(logN);
  const uint64_t M = uint64_t(2) << logN;
  const int64_t half = int64_t(1) << (logN - 1);
  int64_t k = r % half;
  if (k < 0) k += half;
  uint64_t g = 1, base = 5;
  for (uint64_t e = uint64_t(k); e; e >>= 1) {
    if (e & 1) g = g * base % M;
    base = base * base % M;
  }
  return g;
}

uint64_t galoisForConjugation(int logN) {
  checkLogN(logN);
  return (uint64_t(2) << logN) - 1;
}

void checkGalois(int logN, uint64_t g) {
  checkLogN(logN);
  const uint64_t M = uint64_t(2) << logN;
  if (g % 2 == 0 || g < 3 || g >= M)
    throw Error("Galois element " + std::to_string(g) + " is not an odd number in [3, 2N = " + std::to_string(M) +
                ")");
}

AutomorphismImage automorphismImage(size_t i, int logN, uint64_t g) {
  const uint64_t N = uint64_t(1) << logN, M = 2 * N;
  uint64_t j = (uint64_t(i) * g) & (M - 1);  // i g < 2^17 * 2^18: no overflow
  return j < N ? AutomorphismImage{size_t(j), false} : AutomorphismImage{size_t(j - N), true};
}

BigPoly automorphism(const BigPoly &a, uint64_t g) {
  checkGalois(a.logN, g);
  BigPoly r(a.logN, a.logq);
  const int L = a.limbs();
  for (size_t i = 0; i < a.N(); ++i) {
    AutomorphismImage d = automorphismImage(i, a.logN, g);
    mp_limb_t *dst = (mp_limb_t *)r.coeff(d.index);
    const mp_limb_t *src = (const mp_limb_t *)a.coeff(i);
    if (d.negated) mpn_neg(dst, src, L);
    else std::copy(src, src + L, dst);
  }
  r.maskTop();
  return r;
}

std::vector<int8_t> automorphismWraps(const BigPoly &a, uint64_t g) {
  checkGalois(a.logN, g);
  std::vector<int8_t> mu(a.N(), 0);
  const int L = a.limbs();
  for (size_t i = 0; i < a.N(); ++i) {
    AutomorphismImage d = automorphismImage(i, a.logN, g);
    bool zero = mpn_zero_p((const mp_limb_t *)a.coeff(i), L);
    mu[d.index] = int8_t(d.negated && !zero);
  }
  return mu;
}

std::vector<int8_t> automorphism(const std::vector<int8_t> &s, int logN, uint64_t g) {
  checkGalois(logN, g);
  if (s.size() != (size_t(1) << logN)) throw Error("automorphism: length mismatch");
  std::vector<int8_t> r(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    AutomorphismImage d = automorphismImage(i, logN, g);
    // Negation by arithmetic, not a branch: s is the secret key.
    int8_t sign = int8_t(1 - 2 * int(d.negated));
    r[d.index] = int8_t(s[i] * sign);
  }
  return r;
}

} // namespace fhec::rt
