#include "fhec/runtime/Reference.h"
#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Random.h"
#include "fhec/runtime/Error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>

namespace fhec::rt {

namespace {
// Writes the integer polynomial into an N-slot integer, W limbs per slot.
std::vector<mp_limb_t> pack(const BigPoly &a, int W) {
  std::vector<mp_limb_t> out(a.N() * W, 0);
  const int L = a.limbs();
  for (size_t i = 0; i < a.N(); ++i)
    for (int k = 0; k < L; ++k) out[i * W + k] = a.coeff(i)[k];
  return out;
}

// Full product of two packed N-slot integers; slot k holds sum_{i+j=k} a_i b_j.
std::vector<mp_limb_t> kroneckerMul(const std::vector<mp_limb_t> &A, const std::vector<mp_limb_t> &B) {
  std::vector<mp_limb_t> R(A.size() + B.size());
  mpn_mul(R.data(), A.data(), A.size(), B.data(), B.size());
  return R;
}

// r_i = c_i - c_{i+N} (X^N = -1), reduced mod 2^logqOut; sign < 0 negates.
void foldNegacyclic(const std::vector<mp_limb_t> &R, int W, BigPoly &out, int sign) {
  const size_t N = out.N();
  const int L = out.limbs();
  std::vector<mp_limb_t> t(L);
  for (size_t i = 0; i < N; ++i) {
    const mp_limb_t *lo = R.data() + i * W, *hi = R.data() + (i + N) * W;
    mpn_sub_n(t.data(), lo, hi, L);
    mp_limb_t *dst = (mp_limb_t *)out.coeff(i);
    if (sign > 0) mpn_add_n(dst, dst, t.data(), L);
    else mpn_sub_n(dst, dst, t.data(), L);
  }
}

// w_i = 1 where a_i >= q/2: a's centered representative is a - q w.
std::vector<int8_t> upperHalf(const BigPoly &a) {
  std::vector<int8_t> w(a.N());
  const int top = a.logq - 1;
  for (size_t i = 0; i < a.N(); ++i) w[i] = int8_t((a.coeff(i)[top / 64] >> (top % 64)) & 1);
  return w;
}

// Key switching of the integer polynomial a = at - q mu (at in [0, q), mu
// small) with a key k mod Q^2: floor((a k mod qQ) / Q), or rounded to the
// nearest with `round` (the centered form: the floor's mean error of -1/2 in
// every coefficient decrypts to -(1 + s) sum_i X^i / 2, which concentrates in
// a few slots and, at the working scale q0 of a bootstrap's CoeffToSlot,
// dominated its max error), computed as
// (at k - q (mu k mod Q)) mod qQ, so that only at enters a BigInt product.
// keySwitchProduct is a k mod qQ before the shift.
BigPoly keySwitchProduct(int logQ, const BigPoly &at, const std::vector<int8_t> &mu, const BigPoly &k) {
  const int logq = at.logq;
  BigPoly x = negacyclicProduct(at, k, logq + logQ);
  if (std::all_of(mu.begin(), mu.end(), [](int8_t m) { return m == 0; })) return x;
  BigPoly muk = negacyclicProductSmall(reduce(k, logQ), mu, logQ);
  // x -= muk * 2^logq mod 2^(logq + logQ), coefficient by coefficient.
  mpz_t t, u;
  mpz_inits(t, u, nullptr);
  for (size_t i = 0; i < x.N(); ++i) {
    x.get(i, t);
    muk.get(i, u);
    mpz_mul_2exp(u, u, logq);
    mpz_sub(t, t, u);
    x.set(i, t);
  }
  mpz_clears(t, u, nullptr);
  return x;
}

BigPoly keySwitch(int logQ, const BigPoly &at, const std::vector<int8_t> &mu, const BigPoly &k, bool round) {
  return shiftRight(keySwitchProduct(logQ, at, mu, k), logQ, round);
}

// Hybrid key switching (dnum > 1; Han–Ki 2020, Sec. 3). The digits of a mod
// q, each of B = logP bits, k = ceil(logq / B) of them, as polynomials mod
// 2^(logq + B) (two's complement) with sum_j d_j 2^(j B) = a mod q:
// - Centered (balanced digits): Y = a + H mod q, H = sum_{j<k-1} 2^(j B + B - 1);
//   d_j = bits [j B, j B + B) of Y minus 2^(B-1) for j < k - 1, and the top
//   digit, bits [(k-1) B, logq) of Y, read centered: |d_j| <= 2^(B-1), so
//   the key errors enter multiplied by polynomials of mean zero.
// - Heaan: the unsigned digits of a in [0, q).
std::vector<BigPoly> keySwitchDigits(const Params &params, const BigPoly &a, KeySwitchForm form) {
  const int logq = a.logq, B = params.logP(), k = (logq + B - 1) / B, wide = logq + B;
  const bool balanced = form == KeySwitchForm::Centered;
  std::vector<BigPoly> d;
  for (int j = 0; j < k; ++j) d.emplace_back(a.logN, wide);
  const int topWidth = logq - (k - 1) * B;
  mpz_t y, h, r, half, top;
  mpz_inits(y, h, r, half, top, nullptr);
  if (balanced)
    for (int j = 0; j + 1 < k; ++j) mpz_setbit(h, mp_bitcnt_t(j * B + B - 1));
  mpz_setbit(half, mp_bitcnt_t(B - 1));
  mpz_setbit(top, mp_bitcnt_t(topWidth));
  for (size_t i = 0; i < a.N(); ++i) {
    a.get(i, y);
    mpz_add(y, y, h);
    mpz_fdiv_r_2exp(y, y, mp_bitcnt_t(logq));
    for (int j = 0; j < k; ++j) {
      mpz_fdiv_q_2exp(r, y, mp_bitcnt_t(j * B));
      mpz_fdiv_r_2exp(r, r, mp_bitcnt_t(j + 1 < k ? B : topWidth));
      if (balanced && j + 1 < k) mpz_sub(r, r, half);
      else if (balanced && mpz_tstbit(r, mp_bitcnt_t(topWidth - 1))) mpz_sub(r, r, top);
      d[size_t(j)].set(i, r);
    }
  }
  mpz_clears(y, h, r, half, top, nullptr);
  return d;
}

// sum_j d_j k_j mod qP for the digits d_j (mod qP) and the key parts k_j
// (mod PQ, read mod qP); hybridKeySwitch divides it by P: floor, or rounded
// to the nearest with `round`.
BigPoly hybridKeySwitchProduct(const std::vector<BigPoly> &d, const std::vector<BigPoly> &k) {
  const int wide = d.at(0).logq;
  BigPoly x(d[0].logN, wide);
  for (size_t j = 0; j < d.size(); ++j) x = add(x, negacyclicProduct(d[j], reduce(k.at(j), wide), wide));
  return x;
}

BigPoly hybridKeySwitch(const Params &params, const std::vector<BigPoly> &d, const std::vector<BigPoly> &k,
                        bool round) {
  return shiftRight(hybridKeySwitchProduct(d, k), params.logP(), round);
}

void requireKey(const Params &params, const std::vector<BigPoly> &ax, const std::vector<BigPoly> &bx, int logN,
                const char *what) {
  bool ok = int(ax.size()) == params.dnum && int(bx.size()) == params.dnum;
  for (size_t j = 0; ok && j < ax.size(); ++j)
    ok = ax[j].logN == logN && bx[j].logN == logN && ax[j].logq == params.logKey() && bx[j].logq == params.logKey();
  if (!ok)
    throw Error(std::string(what) + " does not match the parameters (expected " + std::to_string(params.dnum) +
                " part(s) of logN " + std::to_string(logN) + ", modulus 2^" + std::to_string(params.logKey()) +
                ", got " + std::to_string(ax.size()) + ")");
}

void requireSameRing(const BigPoly &a, const BigPoly &b, const char *what) {
  if (a.logN != b.logN)
    throw Error(std::string(what) + ": ring dimensions differ (logN " + std::to_string(a.logN) +
                " vs " + std::to_string(b.logN) + ")");
}

void requireCompatible(const Ciphertext &c1, const Ciphertext &c2, const char *op, bool sameScale) {
  requireSameRing(c1.ax, c2.ax, op);
  if (c1.logq() != c2.logq() || c1.slots != c2.slots || (sameScale && c1.logp != c2.logp))
    throw Error(std::string(op) + ": ciphertexts differ (logq " + std::to_string(c1.logq()) + " vs " +
                std::to_string(c2.logq()) + ", logp " + std::to_string(c1.logp) + " vs " +
                std::to_string(c2.logp) + ", slots " + std::to_string(c1.slots) + " vs " +
                std::to_string(c2.slots) + ")");
}
} // namespace

BigPoly negacyclicProduct(const BigPoly &a, const BigPoly &b, int logqOut) {
  requireSameRing(a, b, "negacyclicProduct");
  BigPoly out(a.logN, logqOut);
  if (out.limbs() > limbsFor(a.logq + b.logq + a.logN + 1) + 1)
    throw Error("negacyclicProduct: output modulus wider than the exact product");
  // Each full-product coefficient is < N * 2^(la + lb): one spare bit keeps slots apart.
  const int W = std::max(limbsFor(a.logq + b.logq + a.logN + 1), out.limbs());
  auto R = kroneckerMul(pack(a, W), pack(b, W));
  foldNegacyclic(R, W, out, +1);
  out.maskTop();
  return out;
}

BigPoly negacyclicProductSmall(const BigPoly &a, const std::vector<int8_t> &v, int logqOut) {
  if (v.size() != a.N()) throw Error("negacyclicProductSmall: length mismatch");
  const size_t N = a.N();
  BigPoly out(a.logN, logqOut);
  const int L = out.limbs();
  // a * v = a * (v + c) - c * (a * J) with v + c >= 0 and J = 1 + X + ... + X^(N-1):
  // one Kronecker product plus (a * J)_k = prefix_k - (total - prefix_k), prefix_k = sum_{i<=k} a_i.
  int c = 0;
  for (int8_t x : v) c = std::max(c, -int(x));
  const int W = std::max(limbsFor(a.logq + a.logN + 9), L);
  std::vector<mp_limb_t> V(N * W, 0);
  for (size_t i = 0; i < N; ++i) V[i * W] = mp_limb_t(int(v[i]) + c);
  // V holds the ephemeral v of encryption (or s): wiped with the product.
  std::vector<mp_limb_t> R = kroneckerMul(pack(a, W), V);
  foldNegacyclic(R, W, out, +1);
  secureWipe(V);
  secureWipe(R);
  if (c) {
    std::vector<mp_limb_t> total(L, 0), prefix(L, 0), aj(L), ai(L);
    auto load = [&](size_t i) {
      std::fill(ai.begin(), ai.end(), 0);
      std::copy(a.coeff(i), a.coeff(i) + std::min(L, a.limbs()), ai.begin());
    };
    for (size_t i = 0; i < N; ++i) { load(i); mpn_add_n(total.data(), total.data(), ai.data(), L); }
    for (size_t k = 0; k < N; ++k) {
      load(k);
      mpn_add_n(prefix.data(), prefix.data(), ai.data(), L);
      mpn_sub_n(aj.data(), prefix.data(), total.data(), L);   // prefix - total
      mpn_add_n(aj.data(), aj.data(), prefix.data(), L);      // 2 prefix - total
      for (int r = 0; r < c; ++r) mpn_sub_n((mp_limb_t *)out.coeff(k), (mp_limb_t *)out.coeff(k), aj.data(), L);
    }
  }
  out.maskTop();
  return out;
}

BigPoly mulTernary(const BigPoly &a, const std::vector<int8_t> &s) {
  size_t weight = 0;
  for (int8_t c : s) weight += c != 0;
  return weight <= 256 ? mulSparseTernary(a, s) : negacyclicProductSmall(a, s, a.logq);
}

BigPoly mulSparseTernary(const BigPoly &a, const std::vector<int8_t> &s) {
  if (s.size() != a.N()) throw Error("mulSparseTernary: length mismatch");
  const size_t N = a.N();
  const int L = a.limbs();
  BigPoly out(a.logN, a.logq);
  for (size_t j = 0; j < N; ++j) {
    if (s[j] == 0) continue;
    // X^j * a: coefficient i moves to i + j, negated when it wraps past N.
    for (size_t i = 0; i < N; ++i) {
      size_t k = i + j;
      bool negate = (k >= N) != (s[j] < 0);
      mp_limb_t *dst = (mp_limb_t *)out.coeff(k % N);
      if (negate) mpn_sub_n(dst, dst, (const mp_limb_t *)a.coeff(i), L);
      else mpn_add_n(dst, dst, (const mp_limb_t *)a.coeff(i), L);
    }
  }
  out.maskTop();
  return out;
}

Ciphertext referenceMul(const Params &params, const Ciphertext &c1, const Ciphertext &c2, const EvalKey &evk,
                        KeySwitchForm form) {
  requireCompatible(c1, c2, "HE Mul", /*sameScale=*/false);
  const int logq = c1.logq();
  requireKey(params, evk.ax, evk.bx, c1.logN(), "HE Mul: the evaluation key");
  // Region 1 (Karatsuba): axax = a1 a2, bxbx = b1 b2, axbx = (a1+b1)(a2+b2) - axax - bxbx mod q.
  BigPoly axax = negacyclicProduct(c1.ax, c2.ax, logq);
  BigPoly bxbx = negacyclicProduct(c1.bx, c2.bx, logq);
  BigPoly t = negacyclicProduct(add(c1.ax, c1.bx), add(c2.ax, c2.bx), logq);
  BigPoly axbx = sub(sub(t, axax), bxbx);
  Ciphertext r;
  const bool centered = form == KeySwitchForm::Centered;
  if (params.dnum == 1) {
    // Region 2 (relinearization): ((axax' * evk) mod qQ) >> logQ, axax' = axax - q mu.
    std::vector<int8_t> mu = centered ? upperHalf(axax) : std::vector<int8_t>(axax.N(), 0);
    r.ax = add(keySwitch(params.logQ, axax, mu, evk.ax[0], centered), axbx);
    r.bx = add(keySwitch(params.logQ, axax, mu, evk.bx[0], centered), bxbx);
  } else {
    std::vector<BigPoly> d = keySwitchDigits(params, axax, form);
    r.ax = add(hybridKeySwitch(params, d, evk.ax, centered), axbx);
    r.bx = add(hybridKeySwitch(params, d, evk.bx, centered), bxbx);
  }
  r.logp = c1.logp + c2.logp;
  r.slots = c1.slots;
  r.keySet = c1.keySet;
  return r;
}

Ciphertext referenceAdd(const Ciphertext &c1, const Ciphertext &c2) {
  requireCompatible(c1, c2, "HE Add", true);
  return {add(c1.ax, c2.ax), add(c1.bx, c2.bx), c1.logp, c1.slots, c1.keySet};
}

Ciphertext referenceSub(const Ciphertext &c1, const Ciphertext &c2) {
  requireCompatible(c1, c2, "HE Sub", true);
  return {sub(c1.ax, c2.ax), sub(c1.bx, c2.bx), c1.logp, c1.slots, c1.keySet};
}

Ciphertext referenceNegate(const Ciphertext &c) { return {negate(c.ax), negate(c.bx), c.logp, c.slots, c.keySet}; }

Ciphertext referenceMulMonomial(const Ciphertext &c, int64_t k) {
  return {mulMonomial(c.ax, k), mulMonomial(c.bx, k), c.logp, c.slots, c.keySet};
}

Ciphertext referenceRescale(const Ciphertext &c, int bits, bool round) {
  if (bits > c.logp) throw Error("rescale: shift exceeds the scale logp = " + std::to_string(c.logp));
  return {shiftRight(c.ax, bits, round), shiftRight(c.bx, bits, round), c.logp - bits, c.slots, c.keySet};
}

Ciphertext referenceModDown(const Ciphertext &c, int newLogq) {
  return {reduce(c.ax, newLogq), reduce(c.bx, newLogq), c.logp, c.slots, c.keySet};
}

Ciphertext referenceModRaise(const Ciphertext &c, int newLogq) {
  if (newLogq <= c.logq())
    throw Error("modRaise: logq " + std::to_string(newLogq) + " must exceed the ciphertext's logq = " +
                std::to_string(c.logq()));
  return {signExtend(c.ax, newLogq), signExtend(c.bx, newLogq), c.logp, c.slots, c.keySet};
}

Ciphertext referenceDivByPo2(const Ciphertext &c, int bits) {
  if (bits < 1 || c.logp >= c.logq() - bits)
    throw Error("divByPo2: a shift of " + std::to_string(bits) + " bits leaves no room for the scale 2^" +
                std::to_string(c.logp) + " below q = 2^" + std::to_string(c.logq()));
  return {shiftRight(c.ax, bits), shiftRight(c.bx, bits), c.logp, c.slots, c.keySet};
}

Ciphertext referenceRelabel(const Ciphertext &c, int logp, int slots) {
  if (logp < 0 || logp >= c.logq())
    throw Error("relabel: scale 2^" + std::to_string(logp) + " does not fit q = 2^" + std::to_string(c.logq()));
  if (slots < 1 || (slots & (slots - 1)) || size_t(slots) > c.ax.N() / 2)
    throw Error("relabel: slots = " + std::to_string(slots) + " must be a power of two <= N/2 = " +
                std::to_string(c.ax.N() / 2));
  return {c.ax, c.bx, logp, slots, c.keySet};
}

Ciphertext referenceMulConst(const Ciphertext &c, const mpz_t k, int logScale) {
  return {mulScalar(c.ax, k), mulScalar(c.bx, k), c.logp + logScale, c.slots, c.keySet};
}

Ciphertext referenceAddConst(const Ciphertext &c, const mpz_t k) {
  return {c.ax, addConstantTerm(c.bx, k), c.logp, c.slots, c.keySet};
}

Ciphertext referenceMulPlain(const Ciphertext &c, const BigPoly &m, int logScale) {
  requireSameRing(c.ax, m, "multiplication by a plaintext");
  if (m.logq < c.logq()) throw Error("multiplication by a plaintext: the plaintext is mod 2^" + std::to_string(m.logq));
  BigPoly mq = m.logq == c.logq() ? m : reduce(m, c.logq());
  return {negacyclicProduct(c.ax, mq, c.logq()), negacyclicProduct(c.bx, mq, c.logq()), c.logp + logScale, c.slots,
          c.keySet};
}

Ciphertext referenceAddPlain(const Ciphertext &c, const BigPoly &m) {
  requireSameRing(c.ax, m, "addition of a plaintext");
  if (m.logq < c.logq()) throw Error("addition of a plaintext: the plaintext is mod 2^" + std::to_string(m.logq));
  return {c.ax, add(c.bx, m.logq == c.logq() ? m : reduce(m, c.logq())), c.logp, c.slots, c.keySet};
}

namespace {
// Key switching with a key to s(X^g) (g = 1: no automorphism) mod PQ before
// its shift: a k_ax and a k_bx mod 2^(logq + shift) and phi_g(bx). The
// rotation's form, which the decapsulation shares.
struct KeySwitchProducts {
  BigPoly ax, bx, bRot;
  int shift;  // log2 of the divisor: P (hybrid) or Q
};

KeySwitchProducts switchKeyProducts(const Params &params, const Ciphertext &c, const std::vector<BigPoly> &kax,
                                    const std::vector<BigPoly> &kbx, uint64_t galois, KeySwitchForm form) {
  // b' mod q is phi_g(bx) mod q: the sign convention only matters inside the
  // products mod qQ.
  BigPoly bRot = galois == 1 ? c.bx : automorphism(c.bx, galois);
  if (params.dnum > 1) {
    // The digits of ax, then phi_g of each (signed: |phi_g(d_j)| = |d_j|), so
    // that rotations of one ciphertext share its decomposition (hoisting).
    std::vector<BigPoly> d = keySwitchDigits(params, c.ax, form);
    if (galois != 1)
      for (BigPoly &dj : d) dj = automorphism(dj, galois);
    return {hybridKeySwitchProduct(d, kax), hybridKeySwitchProduct(d, kbx), std::move(bRot), params.logP()};
  }
  // a' = at - q mu with at = phi_g(ax) mod q: phi_g(ax) = at - q wraps, and
  // the centered a = ax - q w adds phi_g(w) (signed) to mu.
  BigPoly at = galois == 1 ? c.ax : automorphism(c.ax, galois);
  std::vector<int8_t> mu = galois == 1 ? std::vector<int8_t>(c.ax.N(), 0) : automorphismWraps(c.ax, galois);
  if (form == KeySwitchForm::Centered) {
    std::vector<int8_t> w = galois == 1 ? upperHalf(c.ax) : automorphism(upperHalf(c.ax), c.logN(), galois);
    for (size_t i = 0; i < mu.size(); ++i) mu[i] = int8_t(mu[i] + w[i]);
  }
  return {keySwitchProduct(params.logQ, at, mu, kax[0]), keySwitchProduct(params.logQ, at, mu, kbx[0]),
          std::move(bRot), params.logQ};
}

// The products' shift (rounded in the centered form) and phi_g(bx) added.
Ciphertext finishKeySwitch(const KeySwitchProducts &p, const Ciphertext &like, KeySwitchForm form) {
  const bool round = form == KeySwitchForm::Centered;
  return {shiftRight(p.ax, p.shift, round), add(shiftRight(p.bx, p.shift, round), p.bRot), like.logp, like.slots,
          like.keySet};
}

Ciphertext switchKey(const Params &params, const Ciphertext &c, const std::vector<BigPoly> &kax,
                     const std::vector<BigPoly> &kbx, uint64_t galois, KeySwitchForm form) {
  return finishKeySwitch(switchKeyProducts(params, c, kax, kbx, galois, form), c, form);
}
} // namespace

Ciphertext referenceRotate(const Params &params, const Ciphertext &c, const RotationKey &rk, KeySwitchForm form) {
  requireKey(params, rk.ax, rk.bx, c.logN(), "rotation: the key");
  return switchKey(params, c, rk.ax, rk.bx, rk.galois, form);
}

Ciphertext referenceRotateSum(const Params &params, const std::vector<std::pair<Ciphertext, const RotationKey *>> &terms,
                              KeySwitchForm form) {
  if (terms.empty()) throw Error("rotation sum: no terms");
  std::optional<KeySwitchProducts> sum;
  for (const auto &[c, rk] : terms) {
    requireKey(params, rk->ax, rk->bx, c.logN(), "rotation: the key");
    if (sum) requireCompatible(terms[0].first, c, "rotation sum", /*sameScale=*/true);
    KeySwitchProducts p = switchKeyProducts(params, c, rk->ax, rk->bx, rk->galois, form);
    if (!sum) {
      sum = std::move(p);
      continue;
    }
    sum->ax = add(sum->ax, p.ax);
    sum->bx = add(sum->bx, p.bx);
    sum->bRot = add(sum->bRot, p.bRot);
  }
  return finishKeySwitch(*sum, terms[0].first, form);
}

Ciphertext referenceLinearTransformHoisted(const Params &params, const Ciphertext &x,
                                           const std::vector<HoistedGiantStep> &steps, int logScale,
                                           KeySwitchForm form) {
  if (params.dnum < 2) throw Error("linear transform with double hoisting: needs hybrid key switching (dnum > 1)");
  if (steps.empty()) throw Error("linear transform with double hoisting: no giant steps");
  const int logq = x.logq(), logP = params.logP(), wide = logq + logP, logN = x.logN();
  const bool round = form == KeySwitchForm::Centered;
  // P x mod qP.
  mpz_t P;
  mpz_init(P);
  mpz_setbit(P, mp_bitcnt_t(logP));
  BigPoly pa = mulScalar(signExtend(x.ax, wide), P), pb = mulScalar(signExtend(x.bx, wide), P);
  mpz_clear(P);
  const std::vector<BigPoly> d = keySwitchDigits(params, x.ax, form);
  // Per baby step (by Galois element; 1: none): its key switch's products
  // mod qP before the shift, P phi_b(bx) added to the second.
  std::map<uint64_t, std::pair<BigPoly, BigPoly>> babies;
  auto baby = [&](const RotationKey *rk) -> const std::pair<BigPoly, BigPoly> & {
    const uint64_t g = rk ? rk->galois : 1;
    if (auto it = babies.find(g); it != babies.end()) return it->second;
    if (!rk) return babies.emplace(g, std::make_pair(pa, pb)).first->second;
    requireKey(params, rk->ax, rk->bx, logN, "linear transform: a baby step's rotation key");
    std::vector<BigPoly> dg;
    for (const BigPoly &dj : d) dg.push_back(automorphism(dj, g));
    return babies
        .emplace(g, std::make_pair(hybridKeySwitchProduct(dg, rk->ax),
                                   add(hybridKeySwitchProduct(dg, rk->bx), automorphism(pb, g))))
        .first->second;
  };
  BigPoly sumA(logN, wide), sumB(logN, wide);
  for (const HoistedGiantStep &step : steps) {
    BigPoly wa(logN, wide), wb(logN, wide);
    for (const auto &[rk, m] : step.members) {
      requireSameRing(x.ax, m, "linear transform: a diagonal");
      if (m.logq != logq) throw Error("linear transform: a diagonal is mod 2^" + std::to_string(m.logq));
      const BigPoly mw = signExtend(m, wide);
      const auto &[ia, ib] = baby(rk);
      wa = add(wa, negacyclicProduct(ia, mw, wide));
      wb = add(wb, negacyclicProduct(ib, mw, wide));
    }
    if (!step.giant) {
      sumA = add(sumA, wa);
      sumB = add(sumB, wb);
      continue;
    }
    const RotationKey &rk = *step.giant;
    requireKey(params, rk.ax, rk.bx, logN, "linear transform: a giant step's rotation key");
    // The giant step's input: its ax sum divided by P (its bx sum is rotated
    // and stays mod qP).
    Ciphertext a{shiftRight(wa, logP, round), BigPoly(logN, logq), x.logp, x.slots, x.keySet};
    KeySwitchProducts p = switchKeyProducts(params, a, rk.ax, rk.bx, rk.galois, form);
    sumA = add(sumA, p.ax);
    sumB = add(add(sumB, p.bx), automorphism(wb, rk.galois));
  }
  return {shiftRight(sumA, logP, round), shiftRight(sumB, logP, round), x.logp + logScale, x.slots, x.keySet};
}

Ciphertext referenceEncapsulate(const Params &params, const Ciphertext &c, const EncapsulationKey &ek,
                                KeySwitchForm form) {
  const int logP = encapsulationLogP(ek.logq0), logKey = encapsulationKeyLogModulus(ek.logq0);
  if (c.logN() != params.logN) throw Error("encapsulation: the ciphertext is not in the parameters' ring");
  if (c.logq() != ek.logq0)
    throw Error("encapsulation: the ciphertext is mod 2^" + std::to_string(c.logq()) + ", the key is for q0 = 2^" +
                std::to_string(ek.logq0));
  if (ek.sparseAx.logN != c.logN() || ek.sparseAx.logq != logKey || ek.sparseBx.logq != logKey)
    throw Error("encapsulation: the key to the sparse secret is not mod 2^" + std::to_string(logKey) +
                " in this ring");
  const bool centered = form == KeySwitchForm::Centered;
  std::vector<int8_t> mu = centered ? upperHalf(c.ax) : std::vector<int8_t>(c.ax.N(), 0);
  return {keySwitch(logP, c.ax, mu, ek.sparseAx, centered),
          add(keySwitch(logP, c.ax, mu, ek.sparseBx, centered), c.bx), c.logp, c.slots, c.keySet};
}

Ciphertext referenceDecapsulate(const Params &params, const Ciphertext &c, const EncapsulationKey &ek,
                                KeySwitchForm form) {
  requireKey(params, ek.denseAx, ek.denseBx, c.logN(), "decapsulation: the key");
  return switchKey(params, c, ek.denseAx, ek.denseBx, 1, form);
}

void scaleConstant(double value, int logScale, mpz_t out) {
  if (!std::isfinite(value)) throw Error("constant is not finite");
  // value * 2^logScale is exact in binary floating point; round half away from zero.
  int exp = 0;
  double mant = std::frexp(value, &exp);  // value = mant * 2^exp, mant has 53 bits
  mpz_set_d(out, std::ldexp(mant, 53));
  int shift = exp - 53 + logScale;
  if (shift >= 0) {
    mpz_mul_2exp(out, out, shift);
  } else {
    // Round to nearest, ties away from zero: (|x| + 2^(s-1)) >> s.
    bool neg = mpz_sgn(out) < 0;
    mpz_abs(out, out);
    mpz_t half;
    mpz_init(half);
    mpz_setbit(half, -shift - 1);
    mpz_add(out, out, half);
    mpz_fdiv_q_2exp(out, out, -shift);
    if (neg) mpz_neg(out, out);
    mpz_clear(half);
  }
}

void scaleConstant(double value, int logScale, bool &negative, std::vector<uint64_t> &magnitude) {
  mpz_t k;
  mpz_init(k);
  scaleConstant(value, logScale, k);
  negative = mpz_sgn(k) < 0;
  magnitude.assign(mpz_size(k) ? mpz_size(k) : 1, 0);
  size_t count = 0;
  mpz_export(magnitude.data(), &count, -1, sizeof(uint64_t), 0, 0, k);
  mpz_clear(k);
}

} // namespace fhec::rt
