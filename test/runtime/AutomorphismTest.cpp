// The automorphisms X -> X^g: Galois elements of rotations and conjugation,
// their action on polynomials (composition, HEAAN's signed form) and on
// encoded slots, and the reference's key switching against a schoolbook
// oracle of HEAAN's leftRotateFast (signed automorphism, products of plain
// integers, mod qQ, floor by Q).
#include "TestUtil.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Reference.h"

#include <gmpxx.h>
#include <gtest/gtest.h>
#include <set>

using namespace fhec::rt;
using namespace fhec::rt::test;

namespace {
bool throws(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &) {
    return true;
  }
  return false;
}

// phi_g(a) with HEAAN's signs, as plain integers (coefficients in (-q, q)).
std::vector<mpz_class> signedAutomorphism(const BigPoly &a, uint64_t g, bool centered = false) {
  const size_t N = a.N();
  std::vector<mpz_class> r(N);
  mpz_t x;
  mpz_init(x);
  for (size_t i = 0; i < N; ++i) {
    a.get(i, x, centered);
    uint64_t j = (i * g) % (2 * N);
    if (j < N) r[j] = mpz_class(x);
    else r[j - N] = -mpz_class(x);
  }
  mpz_clear(x);
  return r;
}
} // namespace

TEST(Automorphism, GaloisElements) {
  EXPECT_EQ(galoisForRotation(4, 1), 5u);
  EXPECT_EQ(galoisForRotation(4, 2), 25u);
  EXPECT_EQ(galoisForRotation(4, 3), 125u % 32);
  EXPECT_EQ(galoisForRotation(4, 8), 1u);  // N/2 = 8: the identity
  EXPECT_EQ(galoisForRotation(4, -1), galoisForRotation(4, 7));
  EXPECT_EQ(galoisForRotation(4, 9), galoisForRotation(4, 1));
  EXPECT_EQ(galoisForConjugation(4), 31u);
  EXPECT_EQ(galoisForRotation(17, 1), 5u);
  // 5 has order N/2 mod 2N: the rotations' elements are distinct.
  for (int logN : {3, 10}) {
    std::set<uint64_t> seen;
    for (int r = 0; r < (1 << (logN - 1)); ++r) seen.insert(galoisForRotation(logN, r));
    EXPECT_EQ(seen.size(), size_t(1) << (logN - 1));
    EXPECT_FALSE(seen.count(galoisForConjugation(logN)));
  }
  EXPECT_TRUE(throws([] { checkGalois(4, 1); }));
  EXPECT_TRUE(throws([] { checkGalois(4, 6); }));
  EXPECT_TRUE(throws([] { checkGalois(4, 33); }));
  EXPECT_FALSE(throws([] { checkGalois(4, 31); }));
  EXPECT_TRUE(throws([] { galoisForRotation(18, 1); }));
}

TEST(Automorphism, ComposesAndMatchesTheSignedForm) {
  SecureRandom rng;
  for (int logN : {2, 5, 9}) {
    const uint64_t M = uint64_t(2) << logN;
    BigPoly a = randomPoly(logN, 130, rng);
    for (uint64_t g : {uint64_t(3), uint64_t(5), M - 1, M - 3}) {
      for (uint64_t h : {uint64_t(5), M - 1}) {
        uint64_t gh = g * h % M;
        if (gh == 1) EXPECT_EQ(automorphism(automorphism(a, h), g), a);
        else EXPECT_EQ(automorphism(automorphism(a, h), g), automorphism(a, gh)) << g << " " << h;
      }
      // automorphism - q mu is HEAAN's signed automorphism.
      std::vector<mpz_class> want = signedAutomorphism(a, g);
      BigPoly at = automorphism(a, g);
      std::vector<int8_t> mu = automorphismWraps(a, g);
      mpz_t x;
      mpz_init(x);
      for (size_t i = 0; i < a.N(); ++i) {
        at.get(i, x);
        mpz_class got = mpz_class(x) - (mpz_class(mu[i]) << 130);
        EXPECT_EQ(got, want[i]) << "coefficient " << i << " of g = " << g;
      }
      mpz_clear(x);
      // The secret-key form agrees with the BigPoly form.
      auto s = rng.hammingWeight(a.N(), int(a.N() / 2));
      EXPECT_EQ(fromSmall(automorphism(s, logN, g), logN, 130), automorphism(fromSmall(s, logN, 130), g));
    }
  }
}

// Encoded slots: g = 5^r moves slot j + r to slot j (mod slots), 2N - 1 conjugates.
TEST(Automorphism, RotatesAndConjugatesEncodedSlots) {
  SecureRandom rng;
  for (int logN : {4, 6, 10}) {
    int half = 1 << (logN - 1);
    for (int slots : {2, half / 4, half}) {
      if (slots < 1) continue;
      std::vector<Complex> z(slots);
      for (auto &x : z) x = Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
      BigPoly m = encode(z, logN, 40, 120);
      for (int64_t r : {int64_t(1), int64_t(3), int64_t(slots - 1), int64_t(slots + 1), int64_t(half - 1)}) {
        auto got = decode(automorphism(m, galoisForRotation(logN, r)), slots, 40);
        double err = 0;
        for (int j = 0; j < slots; ++j) err = std::max(err, std::abs(got[j] - z[size_t((j + r) % slots)]));
        EXPECT_LT(err, 1e-9) << "logN " << logN << " slots " << slots << " r " << r;
      }
      auto got = decode(automorphism(m, galoisForConjugation(logN)), slots, 40);
      double err = 0;
      for (int j = 0; j < slots; ++j) err = std::max(err, std::abs(got[j] - std::conj(z[j])));
      EXPECT_LT(err, 1e-9) << "conjugation, logN " << logN << " slots " << slots;
    }
  }
}

// HEAAN leftRotateFast by the definition: a' and b' signed, a' k as an exact
// integer product, mod qQ (non-negative), floor by Q; bx = ... + b' mod q.
// a' is phi_g of ax's representatives in [0, q) (HEAAN) or [-q/2, q/2).
TEST(Automorphism, ReferenceRotationMatchesSchoolbookKeySwitching) {
  SecureRandom rng;
  const int logN = 4, logQ = 100;
  Params p = makeParams(logN, logQ, 20, 4);
  const size_t N = size_t(1) << logN;
  for (KeySwitchForm form : {KeySwitchForm::Centered, KeySwitchForm::Heaan})
  for (int logq : {100, 61}) {
    Ciphertext c{randomPoly(logN, logq, rng), randomPoly(logN, logq, rng), 20, 8};
    for (uint64_t g : {galoisForRotation(logN, 1), galoisForRotation(logN, 5), galoisForConjugation(logN)}) {
      RotationKey rk{g, {randomPoly(logN, 2 * logQ, rng)}, {randomPoly(logN, 2 * logQ, rng)}, {}};
      std::vector<mpz_class> a = signedAutomorphism(c.ax, g, form == KeySwitchForm::Centered),
                             b = signedAutomorphism(c.bx, g);
      auto keySwitch = [&](const BigPoly &k) {
        BigPoly out(logN, logq);
        mpz_t kj, r;
        mpz_inits(kj, r, nullptr);
        for (size_t t = 0; t < N; ++t) {
          mpz_class acc = 0;
          for (size_t i = 0; i < N; ++i) {
            size_t j = (t + N - i) % N;
            k.get(j, kj);
            mpz_class term = a[i] * mpz_class(kj);
            if (i <= t) acc += term;
            else acc -= term;
          }
          mpz_fdiv_r_2exp(r, acc.get_mpz_t(), mp_bitcnt_t(logq + logQ));  // mod qQ, non-negative
          // / Q: rounded to the nearest in the centered form, floored in HEAAN's.
          if (form == KeySwitchForm::Centered) mpz_add(r, r, mpz_class(mpz_class(1) << (logQ - 1)).get_mpz_t());
          mpz_fdiv_q_2exp(r, r, logQ);
          out.set(t, r);
        }
        mpz_clears(kj, r, nullptr);
        return out;
      };
      BigPoly ax = keySwitch(rk.ax[0]), bx = keySwitch(rk.bx[0]);
      mpz_t v;
      mpz_init(v);
      for (size_t t = 0; t < N; ++t) {
        bx.get(t, v);
        mpz_class sum = mpz_class(v) + b[t];
        bx.set(t, sum.get_mpz_t());
      }
      mpz_clear(v);
      Ciphertext got = referenceRotate(p, c, rk, form);
      EXPECT_EQ(got.ax, ax) << "g = " << g << ", logq = " << logq << ", form " << int(form);
      EXPECT_EQ(got.bx, bx) << "g = " << g << ", logq = " << logq << ", form " << int(form);
      EXPECT_EQ(got.logp, 20);
      EXPECT_EQ(got.slots, 8);
    }
  }
}

TEST(Automorphism, PlaintextProductsAndSumsDecode) {
  SecureRandom rng;
  Params p = makeParams(8, 200, 30, 16);
  KeySet k = generateKeys(p, rng);
  int slots = 32;
  std::vector<Complex> z(slots), w(slots);
  for (auto &x : z) x = Complex(2 * rng.uniformReal() - 1, rng.uniformReal());
  for (auto &x : w) x = Complex(rng.uniformReal(), 2 * rng.uniformReal() - 1);
  Ciphertext c = encrypt(p, k.pk, encode(z, p.logN, 30, 200), 30, slots, rng);
  Ciphertext prod = referenceMulPlain(c, encode(w, p.logN, 30, 200), 30);
  EXPECT_EQ(prod.logp, 60);
  auto got = decode(decrypt(k.sk, prod), slots, 60);
  Ciphertext sum = referenceAddPlain(c, encode(w, p.logN, 30, 200));
  auto got2 = decode(decrypt(k.sk, sum), slots, 30);
  for (int j = 0; j < slots; ++j) {
    EXPECT_LT(std::abs(got[j] - z[j] * w[j]), 1e-6);
    EXPECT_LT(std::abs(got2[j] - (z[j] + w[j])), 1e-6);
  }
  EXPECT_TRUE(throws([&] { referenceMulPlain(c, encode(w, p.logN, 30, 100), 30); }));
}
