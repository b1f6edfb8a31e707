#include "TestUtil.h"

#include "fhec/runtime/BigPoly.h"
#include "fhec/runtime/Error.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace fhec::rt;
using namespace fhec::rt::test;

namespace {
// Applies f to every coefficient with mpz and compares with the BigPoly op.
template <typename F> void expectCoeffwise(const BigPoly &got, const BigPoly &a, const BigPoly *b, F f) {
  mpz_t x, y, r, want;
  mpz_inits(x, y, r, want, nullptr);
  for (size_t i = 0; i < a.N(); ++i) {
    a.get(i, x);
    if (b) b->get(i, y);
    f(r, x, y);
    mpz_fdiv_r_2exp(r, r, got.logq);
    got.get(i, want);
    ASSERT_EQ(mpz_cmp(r, want), 0) << "coefficient " << i;
  }
  mpz_clears(x, y, r, want, nullptr);
}
} // namespace

TEST(BigPoly, AddSubNegateMatchMpz) {
  SecureRandom rng;
  for (int logq : {1, 63, 64, 65, 300, 1200}) {
    BigPoly a = randomPoly(6, logq, rng), b = randomPoly(6, logq, rng);
    expectCoeffwise(add(a, b), a, &b, [](mpz_t r, mpz_t x, mpz_t y) { mpz_add(r, x, y); });
    expectCoeffwise(sub(a, b), a, &b, [](mpz_t r, mpz_t x, mpz_t y) { mpz_sub(r, x, y); });
    expectCoeffwise(negate(a), a, nullptr, [](mpz_t r, mpz_t x, mpz_t) { mpz_neg(r, x); });
  }
}

TEST(BigPoly, ShiftReduceScalarMatchMpz) {
  SecureRandom rng;
  BigPoly a = randomPoly(5, 1200, rng);
  for (int s : {1, 30, 64, 100, 1199}) {
    BigPoly r = shiftRight(a, s);
    EXPECT_EQ(r.logq, 1200 - s);
    expectCoeffwise(r, a, nullptr, [s](mpz_t r, mpz_t x, mpz_t) { mpz_fdiv_q_2exp(r, x, s); });
    // Rounded: floor((x + 2^(s-1)) / 2^s), wrapping mod 2^(logq - s).
    expectCoeffwise(shiftRight(a, s, /*round=*/true), a, nullptr, [s](mpz_t r, mpz_t x, mpz_t) {
      mpz_t half;
      mpz_init(half);
      mpz_setbit(half, s - 1);
      mpz_add(r, x, half);
      mpz_fdiv_q_2exp(r, r, s);
      mpz_clear(half);
    });
  }
  // Ties round up, 2^(s-1) - 1 rounds down, and -1 (all ones) rounds to 0.
  BigPoly h(5, 200);
  h.coeff(0)[1] = uint64_t(1) << 35;        // 2^99
  h.coeff(1)[1] = (uint64_t(1) << 35) - 1;  // 2^99 - 2^64 + (2^64 - 1) = 2^99 - 1
  h.coeff(1)[0] = ~uint64_t(0);
  std::fill(h.coeff(2), h.coeff(2) + h.limbs(), ~uint64_t(0));
  h.maskTop();
  BigPoly hr = shiftRight(h, 100, /*round=*/true);
  EXPECT_EQ(hr.coeff(0)[0], 1u);
  EXPECT_EQ(hr.coeff(1)[0], 0u);
  EXPECT_TRUE(std::all_of(hr.coeff(2), hr.coeff(2) + hr.limbs(), [](uint64_t w) { return w == 0; }));
  BigPoly hf = shiftRight(h, 100);  // the floor of -1 / 2^100 is -1
  EXPECT_TRUE(std::all_of(hf.coeff(2), hf.coeff(2) + hf.limbs(), [](uint64_t w) { return w != 0; }));
  expectCoeffwise(reduce(a, 700), a, nullptr, [](mpz_t r, mpz_t x, mpz_t) { mpz_set(r, x); });
  mpz_t c;
  mpz_init_set_si(c, -123456789012345);
  expectCoeffwise(mulScalar(a, c), a, nullptr, [&](mpz_t r, mpz_t x, mpz_t) { mpz_mul(r, x, c); });
  BigPoly t = addConstantTerm(a, c);
  mpz_t x, y;
  mpz_inits(x, y, nullptr);
  a.get(0, x);
  mpz_add(x, x, c);
  mpz_fdiv_r_2exp(x, x, 1200);
  t.get(0, y);
  EXPECT_EQ(mpz_cmp(x, y), 0);
  for (size_t i = 1; i < a.N(); ++i) EXPECT_TRUE(std::equal(a.coeff(i), a.coeff(i) + a.limbs(), t.coeff(i)));
  mpz_clears(c, x, y, nullptr);
}

TEST(BigPoly, CenteredRepresentative) {
  BigPoly p(2, 100);
  mpz_t v, w;
  mpz_inits(v, w, nullptr);
  mpz_set_si(v, -5);
  p.set(1, v);
  p.get(1, w, /*centered=*/true);
  EXPECT_EQ(mpz_get_si(w), -5);
  p.get(1, w);
  EXPECT_EQ(mpz_sizeinbase(w, 2), 100u);
  mpz_clears(v, w, nullptr);
}

// signExtend keeps the centered values: x in [-2^(logq-1), 2^(logq-1)) mod 2^newLogq.
TEST(BigPoly, SignExtendKeepsCenteredValues) {
  SecureRandom rng;
  for (int logq : {1, 2, 63, 64, 65, 128, 241})
    for (int newLogq : {logq, logq + 1, 128, 1200}) {
      if (newLogq < logq) continue;
      BigPoly a = randomPoly(5, logq, rng);
      BigPoly r = signExtend(a, newLogq);
      ASSERT_EQ(r.logq, newLogq);
      mpz_t x, y;
      mpz_inits(x, y, nullptr);
      for (size_t i = 0; i < a.N(); ++i) {
        a.get(i, x, /*centered=*/true);
        r.get(i, y, /*centered=*/true);
        ASSERT_EQ(mpz_cmp(x, y), 0) << "logq " << logq << " -> " << newLogq << ", coefficient " << i;
      }
      mpz_clears(x, y, nullptr);
      EXPECT_TRUE(r.isReduced());
    }
  EXPECT_THROW(signExtend(BigPoly(4, 100), 99), Error);
}

// X^k as a negacyclic shift: X^0 = 1, X^N = -1, X^a X^b = X^(a + b mod 2N),
// and coefficient 0 of a X gets -a_(N-1).
TEST(BigPoly, MulMonomialIsANegacyclicShift) {
  SecureRandom rng;
  const int logN = 5;
  const int64_t N = int64_t(1) << logN;
  for (int logq : {64, 65, 300}) {
    BigPoly a = randomPoly(logN, logq, rng);
    EXPECT_EQ(mulMonomial(a, 0).words, a.words);
    EXPECT_EQ(mulMonomial(a, N).words, negate(a).words);
    for (auto [k1, k2] : {std::pair<int64_t, int64_t>{3, 2 * N - 1}, {N + 5, N - 2}, {7, 9}})
      EXPECT_EQ(mulMonomial(mulMonomial(a, k1), k2).words, mulMonomial(a, (k1 + k2) % (2 * N)).words)
          << "k1 = " << k1 << ", k2 = " << k2;
    BigPoly x = mulMonomial(a, 1);
    mpz_t top, first;
    mpz_inits(top, first, nullptr);
    a.get(size_t(N - 1), top);
    mpz_neg(top, top);
    mpz_fdiv_r_2exp(top, top, logq);
    x.get(0, first);
    EXPECT_EQ(mpz_cmp(top, first), 0);
    mpz_clears(top, first, nullptr);
  }
  BigPoly a(logN, 100);
  EXPECT_THROW(mulMonomial(a, 2 * N), Error);
  EXPECT_THROW(mulMonomial(a, -1), Error);
}

TEST(BigPoly, MismatchedOperandsAreReported) {
  BigPoly a(4, 100), b(4, 101), c(5, 100);
  EXPECT_THROW(add(a, b), Error);
  EXPECT_THROW(sub(a, c), Error);
  EXPECT_THROW(shiftRight(a, 100), Error);
  EXPECT_THROW(reduce(a, 101), Error);
}

TEST(BigPoly, ReducedWordsAreCheckedAndCopied) {
  SecureRandom rng;
  for (int logq : {64, 120, 1200}) {
    BigPoly a(12, logq);
    for (uint64_t &w : a.words) w = rng.next64();
    a.maskTop();
    BigPoly b = BigPoly::uninitialized(12, logq);
    EXPECT_TRUE(wordsReduced(a.words.data(), 12, logq));
    EXPECT_TRUE(copyReducedWords(b.words.data(), a.words.data(), 12, logq));
    EXPECT_EQ(a, b);
    if (logq % 64 == 0) continue;  // every word is in range
    a.coeff(a.N() - 1)[a.limbs() - 1] |= uint64_t(1) << (logq % 64);  // the last coefficient, = 2^logq + ...
    EXPECT_FALSE(a.isReduced());
    EXPECT_FALSE(wordsReduced(a.words.data(), 12, logq));
    EXPECT_FALSE(copyReducedWords(b.words.data(), a.words.data(), 12, logq));
  }
}
