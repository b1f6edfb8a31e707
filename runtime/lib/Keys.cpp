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
// a carry chain steers a branch. Not constant-time: the sparse product a*s,
// which iterates over the nonzero coefficients of a sparse s (key generation
// and decryption run on the key owner's machine, once per key or result).

namespace fhec::rt {

namespace {
BigPoly uniformPoly(int logN, int logq, SecureRandom &rng) {
  BigPoly a(logN, logq);
  rng.fill(a.words.data(), a.words.size());
  a.maskTop();
  return a;
}


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

void fillGaussian(std::vector<int64_t> &e, double sigma, SecureRandom &rng) { rng.gaussian(sigma, e.data(), e.size()); }

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

// The reference arithmetic (GMP): a*s by sparse additions (a sparse secret)
// or Kronecker substitution (a dense one), v*pk mod qQ by Kronecker substitution.
class GmpArithmetic final : public ClientArithmetic {
public:
  BigPoly keyB(const Params &params, const SecretKey &sk, const BigPoly &a, const std::vector<int64_t> &e,
               const std::vector<int64_t> &t, int tShift) override {
    BigPoly as = mulTernary(a, sk.s);
    BigPoly b = negate(as);
    secureWipe(as.words);
    addSmallShifted(b, e, 0);
    if (!t.empty()) addSmallShifted(b, t, tShift);
    return b;
  }

  std::pair<BigPoly, BigPoly> encrypt(const Params &params, const PublicKey &pk, const std::vector<int8_t> &v,
                                      const std::vector<int64_t> &e0, const std::vector<int64_t> &e1,
                                      const BigPoly &m) override {
    // Work mod qP: the public key mod PQ is also one mod qP, as qP | PQ.
    const int logP = params.logP(), logqP = m.logq + logP;
    BigPoly ax = negacyclicProductSmall(reduce(pk.ax, logqP), v, logqP);
    addSmallShifted(ax, e0, 0);
    BigPoly bx = negacyclicProductSmall(reduce(pk.bx, logqP), v, logqP);
    addSmallShifted(bx, e1, 0);
    addShifted(bx, m, logP);  // + P * m
    return {roundedShiftRight(ax, logP), roundedShiftRight(bx, logP)};
  }

  BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct) override {
    BigPoly as = mulTernary(ct.ax, sk.s);
    BigPoly m = add(ct.bx, as);
    secureWipe(as.words);
    return m;
  }
};

// b of a key: e + 2^tShift t - a s mod PQ with a fresh Gaussian error e (drawn after a).
BigPoly keyB(const Params &params, const SecretKey &sk, const BigPoly &a, const std::vector<int64_t> &t, int tShift,
             SecureRandom &rng, ClientArithmetic &arith) {
  std::vector<int64_t> e(a.N());
  fillGaussian(e, params.sigma, rng);
  BigPoly b = arith.keyB(params, sk, a, e, t, tShift);
  secureWipe(e);
  return b;
}

// The dnum parts of a key switching to s' = t (hybrid key switching, Han–Ki
// 2020): part j is (a_j, e_j + P 2^(j logP) t - a_j s) mod PQ, drawn in turn
// (a_j, then e_j).
void switchingKey(const Params &params, const SecretKey &sk, const std::vector<int64_t> &t, SecureRandom &rng,
                  ClientArithmetic &arith, std::vector<BigPoly> &ax, std::vector<BigPoly> &bx) {
  ax.clear();
  bx.clear();
  for (int j = 0; j < params.dnum; ++j) {
    ax.push_back(uniformPoly(params.logN, params.logKey(), rng));
    bx.push_back(keyB(params, sk, ax.back(), t, (j + 1) * params.logP(), rng, arith));
  }
}
} // namespace

ClientArithmetic &gmpArithmetic() {
  static GmpArithmetic gmp;
  return gmp;
}

static void checkSecret(const Params &params, const SecretKey &sk, const char *what) {
  params.validate();
  if (sk.logN != params.logN || sk.s.size() != params.N())
    throw Error(std::string(what) + ": the secret key (logN " + std::to_string(sk.logN) + ") does not match " +
                params.str());
}

SecretKey generateSecretKey(const Params &params, SecureRandom &rng) {
  params.validate();
  SecretKey sk;
  sk.logN = params.logN;
  sk.s = params.secret == SecretKind::Sparse ? rng.hammingWeight(params.N(), params.h) : rng.uniformTernary(params.N());
  while (!sk.keySet.known()) sk.keySet = KeySetId{rng.next64(), rng.next64()};
  return sk;
}

PublicKey generatePublicKey(const Params &params, const SecretKey &sk, SecureRandom &rng, ClientArithmetic &arith) {
  checkSecret(params, sk, "public key");
  PublicKey pk;
  pk.keySet = sk.keySet;
  pk.ax = uniformPoly(params.logN, params.logKey(), rng);
  pk.bx = keyB(params, sk, pk.ax, {}, 0, rng, arith);
  return pk;
}

EvalKey generateEvalKey(const Params &params, const SecretKey &sk, SecureRandom &rng, ClientArithmetic &arith) {
  checkSecret(params, sk, "evaluation key");
  EvalKey evk;
  evk.keySet = sk.keySet;
  const size_t N = params.N();
  // s^2 mod X^N + 1 (coefficients in [-N, N]) by one Kronecker product mod
  // 2^bits, bits = logN + 2, read back as signed integers.
  const int bits = params.logN + 2;
  BigPoly sPoly(params.logN, bits);
  for (size_t i = 0; i < N; ++i) sPoly.coeff(i)[0] = uint64_t(int64_t(sk.s[i])) & ((uint64_t(1) << bits) - 1);
  BigPoly sq = negacyclicProductSmall(sPoly, sk.s, bits);
  secureWipe(sPoly.words);
  std::vector<int64_t> s2(N);
  for (size_t i = 0; i < N; ++i) s2[i] = int64_t(sq.coeff(i)[0] << (64 - bits)) >> (64 - bits);
  secureWipe(sq.words);
  switchingKey(params, sk, s2, rng, arith, evk.ax, evk.bx);
  secureWipe(s2);
  return evk;
}

KeySet generateKeys(const Params &params, SecureRandom &rng, ClientArithmetic &arith) {
  KeySet k;
  k.params = params;
  k.sk = generateSecretKey(params, rng);
  k.pk = generatePublicKey(params, k.sk, rng, arith);
  k.evk = generateEvalKey(params, k.sk, rng, arith);
  return k;
}

RotationKey generateRotationKey(const Params &params, const SecretKey &sk, uint64_t galois, SecureRandom &rng,
                                ClientArithmetic &arith) {
  checkSecret(params, sk, "rotation key");
  checkGalois(params.logN, galois);
  RotationKey k;
  k.galois = galois;
  k.keySet = sk.keySet;
  std::vector<int8_t> sg = automorphism(sk.s, params.logN, galois);
  std::vector<int64_t> sg64(sg.begin(), sg.end());
  switchingKey(params, sk, sg64, rng, arith, k.ax, k.bx);  // t = s(X^g)
  secureWipe(sg);
  secureWipe(sg64);
  return k;
}

EncapsulationKey generateEncapsulationKey(const Params &params, const SecretKey &sk, int logq0, SecureRandom &rng,
                                          ClientArithmetic &arith) {
  checkSecret(params, sk, "encapsulation key");
  if (logq0 <= 0 || logq0 >= params.logQ)
    throw Error("encapsulation key: q0 = 2^" + std::to_string(logq0) + " must lie below Q = 2^" +
                std::to_string(params.logQ));
  EncapsulationKey k;
  k.logq0 = logq0;
  k.keySet = sk.keySet;
  SecretKey ephemeral;
  ephemeral.logN = params.logN;
  ephemeral.s = rng.hammingWeight(params.N(), kEphemeralSecretWeight);
  // To s': a small-modulus key, made by the reference arithmetic (the client
  // kernels work mod PQ; a product with a secret of weight 32 is 32 additions).
  const int logP = encapsulationLogP(logq0);
  std::vector<int64_t> s64(sk.s.begin(), sk.s.end());
  k.sparseAx = uniformPoly(params.logN, logq0 + logP, rng);
  k.sparseBx = keyB(params, ephemeral, k.sparseAx, s64, logP, rng, gmpArithmetic());
  secureWipe(s64);
  // Back to s: a switching key of the main secret with t = s'.
  std::vector<int64_t> eph64(ephemeral.s.begin(), ephemeral.s.end());
  switchingKey(params, sk, eph64, rng, arith, k.denseAx, k.denseBx);
  secureWipe(eph64);
  return k;  // ~SecretKey wipes s'
}

Ciphertext encrypt(const Params &params, const PublicKey &pk, const BigPoly &m, int logp, int slots,
                   SecureRandom &rng, ClientArithmetic &arith) {
  params.validateCiphertext(m.logq, logp, slots);
  if (m.logN != params.logN || pk.ax.logN != params.logN || pk.ax.logq != params.logKey() ||
      pk.bx.logq != params.logKey())
    throw Error("encrypt: message or public key does not match the parameters (" + params.str() + ")");
  const size_t N = params.N();
  std::vector<int8_t> v = rng.zeroOne(N, 0.5);
  std::vector<int64_t> e0(N), e1(N);
  fillGaussian(e0, params.sigma, rng);
  fillGaussian(e1, params.sigma, rng);
  auto [ax, bx] = arith.encrypt(params, pk, v, e0, e1, m);
  secureWipe(e0);
  secureWipe(e1);
  secureWipe(v);
  Ciphertext c;
  c.ax = std::move(ax);
  c.bx = std::move(bx);
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

namespace {
void checkDecryptable(const SecretKey &sk, const Ciphertext &ct) {
  if (sk.logN != ct.logN() || sk.s.size() != ct.ax.N())
    throw Error("decrypt: secret key (logN " + std::to_string(sk.logN) +
                ") does not match the ciphertext (logN " + std::to_string(ct.logN()) + ")");
  if (ct.keySet.known() && ct.keySet != sk.keySet)
    throw Error("decrypt: the ciphertext belongs to key set " + ct.keySet.str() + ", the secret key to key set " +
                sk.keySet.str() + " (they come from different key generations)");
  if (ct.bx.logN != ct.ax.logN || ct.bx.logq != ct.ax.logq)
    throw Error("decrypt: the ciphertext's polynomials differ in shape");
}
} // namespace

BigPoly decrypt(const SecretKey &sk, const Ciphertext &ct, ClientArithmetic &arith) {
  checkDecryptable(sk, ct);
  return arith.decrypt(sk, ct);
}

BigPoly decryptMessage(const SecretKey &sk, const Ciphertext &ct, ClientArithmetic &arith) {
  checkDecryptable(sk, ct);
  return arith.decryptMessage(sk, ct);
}

} // namespace fhec::rt
