// The GMP reference against an independent small-N oracle: the schoolbook
// negacyclic product (O(N^2) mpz arithmetic, no Kronecker substitution).
#include "TestUtil.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Reference.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace fhec::rt;
using namespace fhec::rt::test;

TEST(Reference, KroneckerProductMatchesSchoolbook) {
  SecureRandom rng;
  for (int logN : {1, 2, 4, 6})
    for (auto [la, lb, lout] : {std::tuple{1, 1, 1}, {60, 60, 60}, {64, 64, 128}, {300, 600, 300}, {1200, 2400, 2400}}) {
      BigPoly a = randomPoly(logN, la, rng), b = randomPoly(logN, lb, rng);
      EXPECT_EQ(negacyclicProduct(a, b, lout), schoolbookProduct(a, b, lout)) << logN << " " << la << " " << lb;
    }
}

TEST(Reference, SmallAndSparseProductsMatchSchoolbook) {
  SecureRandom rng;
  for (int logN : {2, 5, 7}) {
    size_t N = size_t(1) << logN;
    BigPoly a = randomPoly(logN, 500, rng);
    auto v = rng.zeroOne(N, 0.5);
    auto s = rng.hammingWeight(N, int(N / 4));
    EXPECT_EQ(negacyclicProductSmall(a, v, 500), schoolbookProduct(a, fromSmall(v, logN, 500), 500));
    EXPECT_EQ(mulSparseTernary(a, s), schoolbookProduct(a, fromSmall(s, logN, 500), 500));
  }
}

// d2 mod q lifted to mod qQ through its representatives in [0, q) (HEAAN)
// or [-q/2, q/2) (centered), as an integer polynomial mod 2^(logq + logQ).
static BigPoly lift(const BigPoly &d2, int logQ, KeySwitchForm form) {
  BigPoly out(d2.logN, d2.logq + logQ);
  mpz_t x;
  mpz_init(x);
  for (size_t i = 0; i < d2.N(); ++i) {
    d2.get(i, x, /*centered=*/form == KeySwitchForm::Centered);
    out.set(i, x);
  }
  mpz_clear(x);
  return out;
}

TEST(Reference, HEMulMatchesTheSchoolbookTensorAndRelinearization) {
  SecureRandom rng;
  Params p = makeParams(5, 200, 30, 8);
  for (KeySwitchForm form : {KeySwitchForm::Centered, KeySwitchForm::Heaan})
    for (int logq : {200, 120}) {
      Ciphertext c1{randomPoly(5, logq, rng), randomPoly(5, logq, rng), 30, 16};
      Ciphertext c2{randomPoly(5, logq, rng), randomPoly(5, logq, rng), 30, 16};
      EvalKey evk{randomPoly(5, 400, rng), randomPoly(5, 400, rng)};
      Ciphertext got = referenceMul(p, c1, c2, evk, form);
      // Plain tensor product: d0 = b1 b2, d1 = a1 b2 + a2 b1, d2 = a1 a2 (mod q).
      BigPoly d0 = schoolbookProduct(c1.bx, c2.bx, logq);
      BigPoly d1 = add(schoolbookProduct(c1.ax, c2.bx, logq), schoolbookProduct(c2.ax, c1.bx, logq));
      BigPoly d2 = lift(schoolbookProduct(c1.ax, c2.ax, logq), 200, form);
      BigPoly ax = add(d1, shiftRight(schoolbookProduct(d2, reduce(evk.ax, logq + 200), logq + 200), 200));
      BigPoly bx = add(d0, shiftRight(schoolbookProduct(d2, reduce(evk.bx, logq + 200), logq + 200), 200));
      EXPECT_EQ(got.ax, ax) << int(form) << " " << logq;
      EXPECT_EQ(got.bx, bx) << int(form) << " " << logq;
      EXPECT_EQ(got.logp, 60);
      EXPECT_EQ(got.logq(), logq);
    }
  // The forms differ (a random axax has coefficients above q/2).
  Ciphertext c{randomPoly(5, 200, rng), randomPoly(5, 200, rng), 30, 16};
  EvalKey evk{randomPoly(5, 400, rng), randomPoly(5, 400, rng)};
  EXPECT_FALSE(referenceMul(p, c, c, evk, KeySwitchForm::Centered).ax == referenceMul(p, c, c, evk, KeySwitchForm::Heaan).ax);
}

TEST(Reference, MismatchedOperandsAreReported) {
  SecureRandom rng;
  Params p = makeParams(4, 100, 20, 4);
  Ciphertext a{randomPoly(4, 100, rng), randomPoly(4, 100, rng), 20, 8};
  Ciphertext b{randomPoly(4, 80, rng), randomPoly(4, 80, rng), 20, 8};
  EvalKey evk{randomPoly(4, 200, rng), randomPoly(4, 200, rng)};
  EXPECT_THROW(referenceMul(p, a, b, evk), Error);
  EXPECT_THROW(referenceAdd(a, b), Error);
  EvalKey wrong{randomPoly(4, 100, rng), randomPoly(4, 100, rng)};
  EXPECT_THROW(referenceMul(p, a, a, wrong), Error);
}

TEST(Reference, ScaleConstantRoundsToNearest) {
  mpz_t k;
  mpz_init(k);
  scaleConstant(0.5, 30, k);
  EXPECT_EQ(mpz_get_si(k), 1 << 29);
  scaleConstant(-0.001593, 30, k);
  EXPECT_EQ(mpz_get_si(k), -1710471);  // round(-0.001593 * 2^30) = round(-1710470.7)
  scaleConstant(1.5, 0, k);
  EXPECT_EQ(mpz_get_si(k), 2);
  scaleConstant(-2.5, 0, k);
  EXPECT_EQ(mpz_get_si(k), -3);
  scaleConstant(3.0, 100, k);
  EXPECT_EQ(mpz_sizeinbase(k, 2), 102u);
  EXPECT_THROW(scaleConstant(INFINITY, 30, k), Error);
  mpz_clear(k);
}
