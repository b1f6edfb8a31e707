#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Reference.h"

#include <string>

namespace fhec::rt {

namespace {
BigPoly uniformPoly(int logN, int logq, SecureRandom &rng) {
  BigPoly a(logN, logq);
  rng.fill(a.words.data(), a.words.size());
  a.maskTop();
  return a;
}

// a += e for a small signed e, mod 2^a.logq.
void addSmall(BigPoly &a, const std::vector<int64_t> &e) {
  const int L = a.limbs();
  for (size_t i = 0; i < a.N(); ++i) {
    mp_limb_t *c = (mp_limb_t *)a.coeff(i);
    if (e[i] >= 0) mpn_add_1(c, c, L, mp_limb_t(e[i]));
    else mpn_sub_1(c, c, L, mp_limb_t(-e[i]));
  }
  a.maskTop();
}

std::vector<int64_t> gaussianVector(size_t n, double sigma, SecureRandom &rng) {
  std::vector<int64_t> e(n);
  for (auto &x : e) x = rng.gaussian(sigma);
  return e;
}

// round(a / 2^bits): the division by Q that ends encryption. Rounding instead
// of flooring matters: a floor leaves a -1/2 bias in every coefficient, whose
// canonical embedding 1/2 * sum_i zeta^i ~ N/pi is large at the slot of zeta = e^(i pi/N).
BigPoly roundedShiftRight(BigPoly a, int bits) {
  const int L = a.limbs(), w = (bits - 1) / 64;
  const mp_limb_t half = mp_limb_t(1) << ((bits - 1) % 64);
  for (size_t i = 0; i < a.N(); ++i) {
    mp_limb_t *c = (mp_limb_t *)a.coeff(i);
    mpn_add_1(c + w, c + w, L - w, half);
  }
  a.maskTop();
  return shiftRight(a, bits);
}

// (-a*s + e) mod 2^logq.
BigPoly rlweB(const BigPoly &a, const SecretKey &sk, const Params &p, SecureRandom &rng) {
  BigPoly b = negate(mulSparseTernary(a, sk.s));
  addSmall(b, gaussianVector(a.N(), p.sigma, rng));
  return b;
}
} // namespace

KeySet generateKeys(const Params &params, SecureRandom &rng) {
  params.validate();
  KeySet k;
  k.params = params;
  k.sk.logN = params.logN;
  k.sk.s = rng.hammingWeight(params.N(), params.h);

  const int logQQ = 2 * params.logQ;
  k.pk.ax = uniformPoly(params.logN, logQQ, rng);
  k.pk.bx = rlweB(k.pk.ax, k.sk, params, rng);

  // evk = (a', -a' s + e + Q s^2) mod Q^2.
  k.evk.ax = uniformPoly(params.logN, logQQ, rng);
  k.evk.bx = rlweB(k.evk.ax, k.sk, params, rng);
  const size_t N = params.N();
  std::vector<int64_t> s2(N, 0);  // s^2 mod X^N + 1, coefficients bounded by h
  for (size_t i = 0; i < N; ++i) {
    if (!k.sk.s[i]) continue;
    for (size_t j = 0; j < N; ++j) {
      if (!k.sk.s[j]) continue;
      int64_t v = int64_t(k.sk.s[i]) * k.sk.s[j];
      size_t t = i + j;
      if (t >= N) { t -= N; v = -v; }
      s2[t] += v;
    }
  }
  BigPoly qs2(params.logN, logQQ);
  mpz_t v;
  mpz_init(v);
  for (size_t i = 0; i < N; ++i) {
    if (!s2[i]) continue;
    mpz_set_si(v, s2[i]);
    mpz_mul_2exp(v, v, params.logQ);
    qs2.set(i, v);
  }
  mpz_clear(v);
  k.evk.bx = add(k.evk.bx, qs2);
  return k;
}

Ciphertext encrypt(const Params &params, const PublicKey &pk, const BigPoly &m, int logp, int slots,
                   SecureRandom &rng) {
  params.validateCiphertext(m.logq, logp, slots);
  if (m.logN != params.logN || pk.ax.logN != params.logN || pk.ax.logq != 2 * params.logQ ||
      pk.bx.logq != 2 * params.logQ)
    throw Error("encrypt: message or public key does not match the parameters (" + params.str() + ")");
  // Work mod qQ: the public key mod Q^2 is also one mod qQ, as qQ | Q^2.
  const int logqQ = m.logq + params.logQ;
  BigPoly pa = reduce(pk.ax, logqQ), pb = reduce(pk.bx, logqQ);
  std::vector<int8_t> v = rng.zeroOne(params.N(), 0.5);
  BigPoly ax = negacyclicProductSmall(pa, v, logqQ);
  addSmall(ax, gaussianVector(params.N(), params.sigma, rng));
  BigPoly bx = negacyclicProductSmall(pb, v, logqQ);
  addSmall(bx, gaussianVector(params.N(), params.sigma, rng));
  BigPoly mQ(params.logN, logqQ);  // Q * m
  mpz_t t;
  mpz_init(t);
  for (size_t i = 0; i < m.N(); ++i) {
    m.get(i, t);
    mpz_mul_2exp(t, t, params.logQ);
    mQ.set(i, t);
  }
  mpz_clear(t);
  Ciphertext c;
  c.ax = roundedShiftRight(std::move(ax), params.logQ);
  c.bx = roundedShiftRight(add(bx, mQ), params.logQ);
  c.logp = logp;
  c.slots = slots;
  return c;
}

BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct) {
  if (sk.logN != ct.logN() || sk.s.size() != ct.ax.N())
    throw Error("decrypt: secret key (logN " + std::to_string(sk.logN) +
                ") does not match the ciphertext (logN " + std::to_string(ct.logN()) + ")");
  return add(ct.bx, mulSparseTernary(ct.ax, sk.s));
}

} // namespace fhec::rt
