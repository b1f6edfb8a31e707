#include "fhec/runtime/BigPoly.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Wipe.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace fhec::rt {

BigPoly::BigPoly(int logN, int logq)
    : logN(logN), logq(logq), words(polyWords(logN, logq), 0) {}

BigPoly BigPoly::uninitialized(int logN, int logq) {
  BigPoly p;
  p.logN = logN;
  p.logq = logq;
  p.words.resize(polyWords(logN, logq));
  return p;
}

static uint64_t topMask(int logq) {
  int r = logq % 64;
  return r == 0 ? ~uint64_t(0) : (uint64_t(1) << r) - 1;
}

void BigPoly::maskTop() {
  const int L = limbs();
  const uint64_t m = topMask(logq);
  for (size_t i = 0; i < N(); ++i) coeff(i)[L - 1] &= m;
}

// The bits at and above logq of coefficients [begin, end), OR-ed (no branch per coefficient).
static uint64_t highBits(const uint64_t *words, size_t L, size_t begin, size_t end) {
  uint64_t high = 0;
  for (size_t i = begin; i < end; ++i) high |= words[i * L + L - 1];
  return high;
}

bool wordsReduced(const uint64_t *words, int logN, int logq) {
  return (highBits(words, size_t(limbsFor(logq)), 0, size_t(1) << logN) & ~topMask(logq)) == 0;
}

bool copyReducedWords(uint64_t *dst, const uint64_t *src, int logN, int logq) {
  const size_t L = size_t(limbsFor(logq)), n = size_t(1) << logN, block = 256;  // 256 coefficients: <= 256 KiB
  uint64_t high = 0;
  for (size_t i = 0; i < n; i += block) {
    size_t end = std::min(n, i + block);
    std::memcpy(dst + i * L, src + i * L, (end - i) * L * sizeof(uint64_t));
    high |= highBits(dst, L, i, end);
  }
  return (high & ~topMask(logq)) == 0;
}

bool BigPoly::isReduced() const { return wordsReduced(words.data(), logN, logq); }

void BigPoly::get(size_t i, mpz_t out, bool centered) const {
  mpz_import(out, limbs(), -1, sizeof(uint64_t), 0, 0, coeff(i));
  if (centered && mpz_sizeinbase(out, 2) == size_t(logq) && mpz_sgn(out) != 0) {
    // out >= q/2: subtract q.
    mpz_t q;
    mpz_init(q);
    mpz_setbit(q, logq);
    mpz_sub(out, out, q);
    mpz_clear(q);
  }
}

void BigPoly::set(size_t i, const mpz_t v) {
  mpz_t r;
  mpz_init(r);
  mpz_fdiv_r_2exp(r, v, logq);  // non-negative remainder mod 2^logq
  uint64_t *c = coeff(i);
  std::fill(c, c + limbs(), 0);
  size_t count = 0;
  mpz_export(c, &count, -1, sizeof(uint64_t), 0, 0, r);
  mpz_clear(r);
}

static void requireSameShape(const BigPoly &a, const BigPoly &b, const char *op) {
  if (a.logN != b.logN || a.logq != b.logq)
    throw Error(std::string(op) + ": operands differ (logN " + std::to_string(a.logN) + " vs " +
                std::to_string(b.logN) + ", logq " + std::to_string(a.logq) + " vs " +
                std::to_string(b.logq) + ")");
}

BigPoly add(const BigPoly &a, const BigPoly &b) {
  requireSameShape(a, b, "add");
  BigPoly r(a.logN, a.logq);
  const int L = a.limbs();
  for (size_t i = 0; i < a.N(); ++i)
    mpn_add_n((mp_limb_t *)r.coeff(i), (const mp_limb_t *)a.coeff(i), (const mp_limb_t *)b.coeff(i), L);
  r.maskTop();
  return r;
}

BigPoly sub(const BigPoly &a, const BigPoly &b) {
  requireSameShape(a, b, "sub");
  BigPoly r(a.logN, a.logq);
  const int L = a.limbs();
  for (size_t i = 0; i < a.N(); ++i)
    mpn_sub_n((mp_limb_t *)r.coeff(i), (const mp_limb_t *)a.coeff(i), (const mp_limb_t *)b.coeff(i), L);
  r.maskTop();
  return r;
}

BigPoly negate(const BigPoly &a) {
  BigPoly r(a.logN, a.logq);
  const int L = a.limbs();
  for (size_t i = 0; i < a.N(); ++i)
    mpn_neg((mp_limb_t *)r.coeff(i), (const mp_limb_t *)a.coeff(i), L);
  r.maskTop();
  return r;
}

BigPoly mulMonomial(const BigPoly &a, int64_t k) {
  const int64_t N = int64_t(a.N());
  if (k < 0 || k >= 2 * N)
    throw Error("mulMonomial: k = " + std::to_string(k) + " is not in [0, 2N) = [0, " + std::to_string(2 * N) + ")");
  BigPoly r(a.logN, a.logq);
  const int L = a.limbs();
  for (int64_t i = 0; i < N; ++i) {
    int64_t t = (i + k) % (2 * N);
    if (t < N)
      std::copy_n(a.coeff(size_t(i)), L, r.coeff(size_t(t)));
    else
      mpn_neg((mp_limb_t *)r.coeff(size_t(t - N)), (const mp_limb_t *)a.coeff(size_t(i)), L);
  }
  r.maskTop();
  return r;
}

BigPoly shiftRight(const BigPoly &a, int bits, bool round) {
  if (bits < 0 || bits >= a.logq)
    throw Error("shiftRight: shift of " + std::to_string(bits) + " bits does not fit logq = " +
                std::to_string(a.logq));
  BigPoly r(a.logN, a.logq - bits);
  mpz_t v;
  mpz_init(v);
  for (size_t i = 0; i < a.N(); ++i) {
    a.get(i, v);
    if (round && bits > 0) {
      // floor((floor(v / 2^(bits-1)) + 1) / 2) = floor((v + 2^(bits-1)) / 2^bits)
      mpz_fdiv_q_2exp(v, v, bits - 1);
      mpz_add_ui(v, v, 1);
      mpz_fdiv_q_2exp(v, v, 1);
    } else {
      mpz_fdiv_q_2exp(v, v, bits);
    }
    r.set(i, v);
  }
  mpz_clear(v);
  return r;
}

BigPoly reduce(const BigPoly &a, int newLogq) {
  if (newLogq < 1 || newLogq > a.logq)
    throw Error("reduce: logq " + std::to_string(newLogq) + " must be in [1, " +
                std::to_string(a.logq) + "]");
  BigPoly r(a.logN, newLogq);
  const int L = r.limbs();
  for (size_t i = 0; i < a.N(); ++i) std::copy(a.coeff(i), a.coeff(i) + L, r.coeff(i));
  r.maskTop();
  return r;
}

BigPoly signExtend(const BigPoly &a, int newLogq) {
  if (newLogq < a.logq)
    throw Error("signExtend: logq " + std::to_string(newLogq) + " must be at least " + std::to_string(a.logq));
  BigPoly r = BigPoly::uninitialized(a.logN, newLogq);
  const int la = a.limbs(), lr = r.limbs(), top = (a.logq - 1) % 64;
  for (size_t i = 0; i < a.N(); ++i) {
    const uint64_t *x = a.coeff(i);
    uint64_t *y = r.coeff(i);
    // All ones or all zeros: the sign bit, x's bit logq - 1.
    const uint64_t fill = uint64_t(0) - ((x[la - 1] >> top) & 1);
    std::copy(x, x + la, y);
    if (top < 63) y[la - 1] = (x[la - 1] & ((uint64_t(2) << top) - 1)) | (fill << (top + 1));
    std::fill(y + la, y + lr, fill);
  }
  r.maskTop();
  return r;
}

BigPoly mulScalar(const BigPoly &a, const mpz_t c) {
  BigPoly r(a.logN, a.logq);
  mpz_t v;
  mpz_init(v);
  for (size_t i = 0; i < a.N(); ++i) {
    a.get(i, v);
    mpz_mul(v, v, c);
    r.set(i, v);
  }
  mpz_clear(v);
  return r;
}

BigPoly addConstantTerm(const BigPoly &a, const mpz_t c) {
  BigPoly r = a;
  mpz_t v;
  mpz_init(v);
  a.get(0, v);
  mpz_add(v, v, c);
  r.set(0, v);
  mpz_clear(v);
  return r;
}

void addSmallShifted(BigPoly &a, const std::vector<int64_t> &x, int shift) {
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


} // namespace fhec::rt
