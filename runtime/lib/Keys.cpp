#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Reference.h"

#include <algorithm>
#include <string>

// Secret hygiene: every temporary holding secret material (the secret, the
// error and ephemeral polynomials, a*s, Q*s^2, the unrounded encryption
// products, the message) is wiped with secureWipe before it is released, and
// small signed values are added with full-width mpn_add_n of a two's-complement
// operand, so that neither the sign of an error coefficient nor the length of
// a carry chain steers a branch. Not constant-time: the sparse products a*s
// and s*s, which iterate over the nonzero coefficients of s (key generation
// and decryption run on the key owner's machine, once per key or result).

namespace fhec::rt {

namespace {
BigPoly uniformPoly(int logN, int logq, SecureRandom &rng) {
  BigPoly a(logN, logq);
  rng.fill(a.words.data(), a.words.size());
  a.maskTop();
  return a;
}

// a += x * 2^shift mod 2^a.logq for small signed x (one per coefficient;
// shift < a.logq): x * 2^shift as an L-limb two's-complement number (sign
// extension by mask), added over all L limbs.
void addSignedShifted(BigPoly &a, const std::vector<int64_t> &x, int shift) {
  const int L = a.limbs(), w = shift / 64, b = shift % 64;
  std::vector<mp_limb_t> t(L);
  for (size_t i = 0; i < a.N(); ++i) {
    const uint64_t v = uint64_t(x[i]), sign = uint64_t(x[i] >> 63);
    for (int k = 0; k < L; ++k) t[k] = k < w ? 0 : sign;
    t[w] = v << b;
    if (w + 1 < L) t[w + 1] = b ? (v >> (64 - b)) | (sign << b) : sign;
    mp_limb_t *c = (mp_limb_t *)a.coeff(i);
    mpn_add_n(c, c, t.data(), L);
  }
  a.maskTop();
  secureWipe(t);
}

void addSmall(BigPoly &a, const std::vector<int64_t> &e) { addSignedShifted(a, e, 0); }

// a += m * 2^shift mod 2^a.logq, m read as integers in [0, 2^m.logq).
void addShifted(BigPoly &a, const BigPoly &m, int shift) {
  const int L = a.limbs(), w = shift / 64, b = shift % 64;
  const int n = std::min(m.limbs(), L - w);
  std::vector<mp_limb_t> t(L);
  for (size_t i = 0; i < a.N(); ++i) {
    std::fill(t.begin(), t.end(), 0);
    const mp_limb_t *src = (const mp_limb_t *)m.coeff(i);
    if (b) {
      mp_limb_t out = mpn_lshift(t.data() + w, src, n, unsigned(b));
      if (w + n < L) t[w + n] = out;
    } else {
      std::copy(src, src + n, t.data() + w);
    }
    mp_limb_t *c = (mp_limb_t *)a.coeff(i);
    mpn_add_n(c, c, t.data(), L);
  }
  a.maskTop();
  secureWipe(t);
}

void fillGaussian(std::vector<int64_t> &e, double sigma, SecureRandom &rng) {
  for (auto &x : e) x = rng.gaussian(sigma);
}

// round(a / 2^bits) = floor((a + 2^(bits-1)) / 2^bits) mod 2^(a.logq - bits):
// the division by Q that ends encryption. Rounding instead of flooring
// matters: a floor leaves a -1/2 bias in every coefficient, whose canonical
// embedding 1/2 * sum_i zeta^i ~ N/pi is large at the slot of zeta = e^(i pi/N).
// a holds secret low bits (the errors): it is wiped.
BigPoly roundedShiftRight(BigPoly &a, int bits) {
  const int L = a.limbs(), hw = (bits - 1) / 64, ws = bits / 64, bs = bits % 64;
  BigPoly r(a.logN, a.logq - bits);
  const int Lr = r.limbs();
  std::vector<mp_limb_t> t(L);
  for (size_t i = 0; i < a.N(); ++i) {
    std::fill(t.begin(), t.end(), 0);
    t[hw] = mp_limb_t(1) << ((bits - 1) % 64);
    mp_limb_t *c = (mp_limb_t *)a.coeff(i);
    mpn_add_n(c, c, t.data(), L);
  }
  a.maskTop();
  for (size_t i = 0; i < a.N(); ++i) {
    const mp_limb_t *c = (const mp_limb_t *)a.coeff(i);
    if (bs) mpn_rshift(t.data(), c + ws, L - ws, unsigned(bs));
    else std::copy(c + ws, c + L, t.data());
    std::copy(t.data(), t.data() + Lr, r.coeff(i));
  }
  r.maskTop();
  secureWipe(t);
  secureWipe(a.words);
  return r;
}

// (-a*s + e) mod 2^logq.
BigPoly rlweB(const BigPoly &a, const SecretKey &sk, const Params &p, SecureRandom &rng) {
  BigPoly as = mulSparseTernary(a, sk.s);
  BigPoly b = negate(as);
  secureWipe(as.words);
  std::vector<int64_t> e(a.N());
  fillGaussian(e, p.sigma, rng);
  addSmall(b, e);
  secureWipe(e);
  return b;
}
} // namespace

KeySet generateKeys(const Params &params, SecureRandom &rng) {
  params.validate();
  KeySet k;
  k.params = params;
  k.sk.logN = params.logN;
  k.sk.s = rng.hammingWeight(params.N(), params.h);
  while (!k.sk.keySet.known()) k.sk.keySet = KeySetId{rng.next64(), rng.next64()};
  k.pk.keySet = k.evk.keySet = k.sk.keySet;

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
  addSignedShifted(k.evk.bx, s2, params.logQ);
  secureWipe(s2);
  return k;
}

RotationKey generateRotationKey(const Params &params, const SecretKey &sk, uint64_t galois, SecureRandom &rng) {
  params.validate();
  checkGalois(params.logN, galois);
  if (sk.logN != params.logN || sk.s.size() != params.N())
    throw Error("rotation key: the secret key (logN " + std::to_string(sk.logN) + ") does not match " + params.str());
  RotationKey k;
  k.galois = galois;
  k.keySet = sk.keySet;
  k.ax = uniformPoly(params.logN, 2 * params.logQ, rng);
  k.bx = rlweB(k.ax, sk, params, rng);
  std::vector<int8_t> sg = automorphism(sk.s, params.logN, galois);
  std::vector<int64_t> sg64(sg.begin(), sg.end());
  addSignedShifted(k.bx, sg64, params.logQ);  // + Q s(X^g)
  secureWipe(sg);
  secureWipe(sg64);
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
  const size_t N = params.N();
  BigPoly pa = reduce(pk.ax, logqQ), pb = reduce(pk.bx, logqQ);
  std::vector<int8_t> v = rng.zeroOne(N, 0.5);
  std::vector<int64_t> e(N);
  BigPoly ax = negacyclicProductSmall(pa, v, logqQ);
  fillGaussian(e, params.sigma, rng);
  addSmall(ax, e);
  BigPoly bx = negacyclicProductSmall(pb, v, logqQ);
  fillGaussian(e, params.sigma, rng);
  addSmall(bx, e);
  secureWipe(e);
  secureWipe(v);
  addShifted(bx, m, params.logQ);  // + Q * m
  Ciphertext c;
  c.ax = roundedShiftRight(ax, params.logQ);
  c.bx = roundedShiftRight(bx, params.logQ);
  c.logp = logp;
  c.slots = slots;
  c.keySet = pk.keySet;
  return c;
}

void checkSameKeySet(const KeySetId &expected, const std::string &expectedWhat, const KeySetId &got,
                     const std::string &gotWhat) {
  if (got.known() && got == expected) return;
  if (!got.known())
    throw Error(gotWhat + " carries no key-set id, so it cannot be matched with " + expectedWhat + " (key set " +
                expected.str() + ")");
  throw Error(gotWhat + " belongs to key set " + got.str() + ", " + expectedWhat + " to key set " + expected.str() +
              ": they come from different key generations");
}

BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct) {
  if (sk.logN != ct.logN() || sk.s.size() != ct.ax.N())
    throw Error("decrypt: secret key (logN " + std::to_string(sk.logN) +
                ") does not match the ciphertext (logN " + std::to_string(ct.logN()) + ")");
  if (ct.keySet.known() && ct.keySet != sk.keySet)
    throw Error("decrypt: the ciphertext belongs to key set " + ct.keySet.str() + ", the secret key to key set " +
                sk.keySet.str() + " (they come from different key generations)");
  BigPoly as = mulSparseTernary(ct.ax, sk.s);
  BigPoly m = add(ct.bx, as);
  secureWipe(as.words);
  return m;
}

} // namespace fhec::rt
