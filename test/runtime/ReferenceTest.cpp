// The GMP reference against an independent small-N oracle: the schoolbook
// negacyclic product (O(N^2) mpz arithmetic, no Kronecker substitution).
#include "TestUtil.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Reference.h"

#include <cmath>
#include <gmpxx.h>
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
      EvalKey evk{{randomPoly(5, 400, rng)}, {randomPoly(5, 400, rng)}, {}};
      Ciphertext got = referenceMul(p, c1, c2, evk, form);
      // Plain tensor product: d0 = b1 b2, d1 = a1 b2 + a2 b1, d2 = a1 a2 (mod q).
      BigPoly d0 = schoolbookProduct(c1.bx, c2.bx, logq);
      BigPoly d1 = add(schoolbookProduct(c1.ax, c2.bx, logq), schoolbookProduct(c2.ax, c1.bx, logq));
      BigPoly d2 = lift(schoolbookProduct(c1.ax, c2.ax, logq), 200, form);
      // The centered form rounds the shift by logQ, HEAAN's floors it.
      const bool round = form == KeySwitchForm::Centered;
      BigPoly ax = add(d1, shiftRight(schoolbookProduct(d2, reduce(evk.ax[0], logq + 200), logq + 200), 200, round));
      BigPoly bx = add(d0, shiftRight(schoolbookProduct(d2, reduce(evk.bx[0], logq + 200), logq + 200), 200, round));
      EXPECT_EQ(got.ax, ax) << int(form) << " " << logq;
      EXPECT_EQ(got.bx, bx) << int(form) << " " << logq;
      EXPECT_EQ(got.logp, 60);
      EXPECT_EQ(got.logq(), logq);
    }
  // The forms differ (a random axax has coefficients above q/2).
  Ciphertext c{randomPoly(5, 200, rng), randomPoly(5, 200, rng), 30, 16};
  EvalKey evk{{randomPoly(5, 400, rng)}, {randomPoly(5, 400, rng)}, {}};
  EXPECT_FALSE(referenceMul(p, c, c, evk, KeySwitchForm::Centered).ax == referenceMul(p, c, c, evk, KeySwitchForm::Heaan).ax);
}

// Hybrid key switching by the definition, independent of the reference's
// digit extraction: digits of a mod q of B = logP bits, balanced (Centered:
// each the residue in [-2^(B-1), 2^(B-1)) of what is left, the top one mod
// its width, centered) or unsigned (Heaan), as integers; then
// floor((sum_j d_j k_j mod qP) / P), schoolbook products.
static std::vector<mpz_class> definitionDigits(const Params &p, const BigPoly &a, KeySwitchForm form, int &k) {
  const int logq = a.logq, B = p.logP();
  k = (logq + B - 1) / B;
  std::vector<mpz_class> d(size_t(k) * a.N());
  mpz_t x;
  mpz_init(x);
  for (size_t i = 0; i < a.N(); ++i) {
    a.get(i, x, /*centered=*/form == KeySwitchForm::Centered);
    mpz_class rest(x);
    for (int j = 0; j < k; ++j) {
      const int width = j + 1 < k ? B : logq - j * B;
      mpz_class m = 1;
      m <<= width;
      mpz_class r;
      mpz_fdiv_r(r.get_mpz_t(), rest.get_mpz_t(), m.get_mpz_t());  // in [0, 2^width)
      if (form == KeySwitchForm::Centered && r >= m / 2) r -= m;
      d[size_t(j) * a.N() + i] = r;
      rest = (rest - r) / m;  // exact
    }
  }
  mpz_clear(x);
  return d;
}

static BigPoly schoolbookHybrid(const Params &p, const std::vector<mpz_class> &digitsFlat, int k, const BigPoly &a,
                                const std::vector<BigPoly> &key, uint64_t galois, KeySwitchForm form) {
  const int wide = a.logq + p.logP();
  const size_t N = a.N();
  BigPoly x(a.logN, wide);
  for (int j = 0; j < k; ++j) {
    BigPoly dj(a.logN, wide);
    for (size_t i = 0; i < N; ++i) {
      // phi_g: X^i -> X^(g i mod 2N), negated past N.
      size_t t = size_t((galois * i) % (2 * N));
      mpz_class v = digitsFlat[size_t(j) * N + i];
      if (t >= N) {
        t -= N;
        v = -v;
      }
      dj.set(t, v.get_mpz_t());
    }
    x = add(x, schoolbookProduct(dj, reduce(key[size_t(j)], wide), wide));
  }
  return shiftRight(x, p.logP(), /*round=*/form == KeySwitchForm::Centered);
}

TEST(Reference, HybridKeySwitchingMatchesTheDefinition) {
  SecureRandom rng;
  for (int dnum : {2, 3}) {
    Params p = makeParams(4, 200, 30, 4);
    p.dnum = dnum;  // logP = 100 or 67: 2 or 3 digits at the top, 1 or 2 at logq 90
    for (KeySwitchForm form : {KeySwitchForm::Centered, KeySwitchForm::Heaan})
      for (int logq : {200, 90}) {
        Ciphertext c1{randomPoly(4, logq, rng), randomPoly(4, logq, rng), 30, 8};
        Ciphertext c2{randomPoly(4, logq, rng), randomPoly(4, logq, rng), 30, 8};
        EvalKey evk;
        RotationKey rk;
        rk.galois = galoisForRotation(4, 3);
        for (int j = 0; j < dnum; ++j) {
          for (auto *v : {&evk.ax, &evk.bx, &rk.ax, &rk.bx}) v->push_back(randomPoly(4, p.logKey(), rng));
        }
        int k = 0;
        BigPoly d2 = schoolbookProduct(c1.ax, c2.ax, logq);
        auto digits = definitionDigits(p, d2, form, k);
        EXPECT_EQ(k, (logq + p.logP() - 1) / p.logP());
        Ciphertext got = referenceMul(p, c1, c2, evk, form);
        BigPoly d0 = schoolbookProduct(c1.bx, c2.bx, logq);
        BigPoly d1 = add(schoolbookProduct(c1.ax, c2.bx, logq), schoolbookProduct(c2.ax, c1.bx, logq));
        EXPECT_EQ(got.ax, add(d1, schoolbookHybrid(p, digits, k, d2, evk.ax, 1, form))) << dnum << " " << int(form) << " " << logq;
        EXPECT_EQ(got.bx, add(d0, schoolbookHybrid(p, digits, k, d2, evk.bx, 1, form))) << dnum << " " << int(form) << " " << logq;
        // Rotation: phi_g of each digit of ax (what hoisting shares).
        digits = definitionDigits(p, c1.ax, form, k);
        Ciphertext rot = referenceRotate(p, c1, rk, form);
        BigPoly bRot(4, logq);
        for (size_t i = 0; i < c1.bx.N(); ++i) {
          size_t t = size_t((rk.galois * i) % 32);
          mpz_class v;
          c1.bx.get(i, v.get_mpz_t());
          if (t >= 16) {
            t -= 16;
            v = -v;
          }
          bRot.set(t, v.get_mpz_t());
        }
        EXPECT_EQ(rot.ax, schoolbookHybrid(p, digits, k, c1.ax, rk.ax, rk.galois, form)) << dnum << " " << int(form);
        EXPECT_EQ(rot.bx, add(schoolbookHybrid(p, digits, k, c1.ax, rk.bx, rk.galois, form), bRot)) << dnum << " " << int(form);
      }
  }
}

// referenceRotateSum (ckks.linear_transform's giant steps): one term is a
// rotation; two are the two rotations added up to the one shift of their
// summed products: round(x + y) - round(x) - round(y) in {-1, 0, 1} per
// coefficient (floor: {0, 1}), nonzero somewhere (one shift, not two).
TEST(Reference, RotateSumShiftsTheSummedProductsOnce) {
  SecureRandom rng;
  for (int dnum : {1, 3}) {
    Params p = makeParams(4, 200, 30, 4);
    p.dnum = dnum;
    for (KeySwitchForm form : {KeySwitchForm::Centered, KeySwitchForm::Heaan}) {
      const int logq = 150;
      Ciphertext c1{randomPoly(4, logq, rng), randomPoly(4, logq, rng), 30, 8};
      Ciphertext c2{randomPoly(4, logq, rng), randomPoly(4, logq, rng), 30, 8};
      RotationKey r1, r2;
      r1.galois = galoisForRotation(4, 1);
      r2.galois = galoisForRotation(4, 3);
      for (int j = 0; j < dnum; ++j)
        for (auto *v : {&r1.ax, &r1.bx, &r2.ax, &r2.bx}) v->push_back(randomPoly(4, p.logKey(), rng));
      Ciphertext one = referenceRotateSum(p, {{c1, &r1}}, form), rot1 = referenceRotate(p, c1, r1, form);
      EXPECT_EQ(one.ax, rot1.ax);
      EXPECT_EQ(one.bx, rot1.bx);
      Ciphertext two = referenceRotateSum(p, {{c1, &r1}, {c2, &r2}}, form);
      Ciphertext apart = referenceAdd(rot1, referenceRotate(p, c2, r2, form));
      int nonzero = 0;
      for (auto [x, y] : {std::pair{&two.ax, &apart.ax}, std::pair{&two.bx, &apart.bx}}) {
        BigPoly d = sub(*x, *y);
        for (size_t i = 0; i < d.N(); ++i) {
          mpz_class v;
          d.get(i, v.get_mpz_t());
          if (mpz_tstbit(v.get_mpz_t(), logq - 1)) v -= mpz_class(1) << logq;  // centered mod q
          EXPECT_TRUE(form == KeySwitchForm::Centered ? abs(v) <= 1 : (v == 0 || v == 1)) << v << " dnum " << dnum;
          nonzero += v != 0;
        }
      }
      EXPECT_GT(nonzero, 0) << "dnum " << dnum << " form " << int(form);
    }
    EXPECT_THROW(referenceRotateSum(p, {}), Error);
  }
  Params p = makeParams(4, 200, 30, 4);
  RotationKey rk;
  rk.galois = galoisForRotation(4, 1);
  rk.ax.push_back(randomPoly(4, p.logKey(), rng));
  rk.bx.push_back(randomPoly(4, p.logKey(), rng));
  Ciphertext a{randomPoly(4, 100, rng), randomPoly(4, 100, rng), 30, 8};
  Ciphertext b{randomPoly(4, 80, rng), randomPoly(4, 80, rng), 30, 8};
  EXPECT_THROW(referenceRotateSum(p, {{a, &rk}, {b, &rk}}), Error);
}

// referenceLinearTransformHoisted (double hoisting): with the plaintext 1 its
// one division by P is exactly a rotation's: baby 0 alone is x, a baby step
// alone in giant step 0 is referenceRotate by it, and baby 0 in a giant step
// is referenceRotate by the giant step; with a plaintext m and baby 0 alone
// it is referenceMulPlain. dnum = 1 is refused.
TEST(Reference, HoistedLinearTransformDividesByPOnce) {
  SecureRandom rng;
  for (int dnum : {2, 3})
    for (KeySwitchForm form : {KeySwitchForm::Centered, KeySwitchForm::Heaan}) {
      Params p = makeParams(4, 200, 30, 4);
      p.dnum = dnum;
      const int logq = 150;
      Ciphertext x{randomPoly(4, logq, rng), randomPoly(4, logq, rng), 30, 8};
      RotationKey rb, rg;
      rb.galois = galoisForRotation(4, 1);
      rg.galois = galoisForRotation(4, 2);
      for (int j = 0; j < dnum; ++j)
        for (auto *v : {&rb.ax, &rb.bx, &rg.ax, &rg.bx}) v->push_back(randomPoly(4, p.logKey(), rng));
      BigPoly one(4, logq), m(4, logq);
      mpz_class c = 1;
      one.set(0, c.get_mpz_t());
      for (size_t i = 0; i < m.N(); ++i) {
        c = int(i % 7) - 3;  // small signed coefficients
        m.set(i, c.get_mpz_t());
      }
      auto run = [&](const RotationKey *giant, const RotationKey *baby, const BigPoly &pt) {
        HoistedGiantStep step;
        step.giant = giant;
        step.members.emplace_back(baby, pt);
        return referenceLinearTransformHoisted(p, x, {step}, 0, form);
      };
      Ciphertext id = run(nullptr, nullptr, one), rotB = run(nullptr, &rb, one), rotG = run(&rg, nullptr, one);
      EXPECT_EQ(id.ax, x.ax);
      EXPECT_EQ(id.bx, x.bx);
      Ciphertext wantB = referenceRotate(p, x, rb, form), wantG = referenceRotate(p, x, rg, form);
      EXPECT_EQ(rotB.ax, wantB.ax) << dnum << " " << int(form);
      EXPECT_EQ(rotB.bx, wantB.bx) << dnum << " " << int(form);
      EXPECT_EQ(rotG.ax, wantG.ax) << dnum << " " << int(form);
      EXPECT_EQ(rotG.bx, wantG.bx) << dnum << " " << int(form);
      Ciphertext prod = run(nullptr, nullptr, m), want = referenceMulPlain(x, m, 0);
      EXPECT_EQ(prod.ax, want.ax);
      EXPECT_EQ(prod.bx, want.bx);
    }
  Params p = makeParams(4, 200, 30, 4);
  Ciphertext x{BigPoly(4, 150), BigPoly(4, 150), 30, 8};
  HoistedGiantStep step;
  step.members.emplace_back(nullptr, BigPoly(4, 150));
  EXPECT_THROW(referenceLinearTransformHoisted(p, x, {step}, 0), Error);
}

TEST(Reference, MismatchedOperandsAreReported) {
  SecureRandom rng;
  Params p = makeParams(4, 100, 20, 4);
  Ciphertext a{randomPoly(4, 100, rng), randomPoly(4, 100, rng), 20, 8};
  Ciphertext b{randomPoly(4, 80, rng), randomPoly(4, 80, rng), 20, 8};
  EvalKey evk{{randomPoly(4, 200, rng)}, {randomPoly(4, 200, rng)}, {}};
  EXPECT_THROW(referenceMul(p, a, b, evk), Error);
  EXPECT_THROW(referenceAdd(a, b), Error);
  EvalKey wrong{{randomPoly(4, 100, rng)}, {randomPoly(4, 100, rng)}, {}};
  EXPECT_THROW(referenceMul(p, a, a, wrong), Error);
}

// The modulus raise is the centred lift: a raised encryption of m decrypts to
// m + q I with |I_i| <= (h + 1) / 2 (an unsigned lift would leave I up to h).
TEST(Reference, ModRaiseDecryptsToTheMessagePlusASmallMultipleOfQ) {
  SecureRandom rng;
  Params p = makeParams(10, 200, 30, 64);  // bootstrapping's sparse secret: |I| <= (h + 1) / 2 + 1
  KeySet keys = generateKeys(p, rng);
  std::vector<Complex> z(8, Complex(0.25, -0.5));
  const int logq = 50;
  Ciphertext c = encrypt(p, keys.pk, encode(z, p.logN, 30, logq), 30, 8, rng);
  Ciphertext r = referenceModRaise(c, 200);
  EXPECT_EQ(r.logq(), 200);
  EXPECT_EQ(r.logp, 30);
  EXPECT_EQ(referenceModDown(r, logq).ax, c.ax);
  BigPoly m = decrypt(keys.sk, c), t = decrypt(keys.sk, r);
  mpz_t a, b, d;
  mpz_inits(a, b, d, nullptr);
  long largest = 0;
  for (size_t i = 0; i < m.N(); ++i) {
    m.get(i, a, /*centered=*/true);
    t.get(i, b, /*centered=*/true);
    mpz_sub(d, b, a);
    ASSERT_TRUE(mpz_divisible_2exp_p(d, logq)) << "coefficient " << i;
    mpz_fdiv_q_2exp(d, d, logq);
    largest = std::max(largest, std::labs(mpz_get_si(d)));
  }
  mpz_clears(a, b, d, nullptr);
  EXPECT_GT(largest, 0);
  EXPECT_LE(largest, (p.h + 1) / 2 + 1);
  EXPECT_THROW(referenceModRaise(c, logq), Error);
}

TEST(Reference, DivByPo2AndRelabelKeepOrChangeTheScale) {
  SecureRandom rng;
  Ciphertext c{randomPoly(5, 100, rng), randomPoly(5, 100, rng), 30, 8};
  Ciphertext d = referenceDivByPo2(c, 7);
  EXPECT_EQ(d.ax, shiftRight(c.ax, 7));
  EXPECT_EQ(d.logq(), 93);
  EXPECT_EQ(d.logp, 30);
  EXPECT_THROW(referenceDivByPo2(c, 70), Error);  // 2^30 would not fit q = 2^30
  Ciphertext r = referenceRelabel(c, 45, 16);
  EXPECT_EQ(r.bx, c.bx);
  EXPECT_EQ(r.logp, 45);
  EXPECT_EQ(r.slots, 16);
  EXPECT_THROW(referenceRelabel(c, 100, 8), Error);
  EXPECT_THROW(referenceRelabel(c, 30, 32), Error);  // N/2 = 16
  EXPECT_THROW(referenceRelabel(c, 30, 6), Error);
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
