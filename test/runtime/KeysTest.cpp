#include "TestUtil.h"

#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Reference.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace fhec::rt;
using namespace fhec::rt::test;

namespace {
Params smallParams() { return makeParams(10, 300, 30); }

// max |coefficient| of a centered polynomial, in bits.
size_t maxBits(const BigPoly &p) {
  mpz_t v;
  mpz_init(v);
  size_t m = 0;
  for (size_t i = 0; i < p.N(); ++i) {
    p.get(i, v, true);
    if (mpz_sgn(v)) m = std::max(m, mpz_sizeinbase(v, 2));
  }
  mpz_clear(v);
  return m;
}
} // namespace

TEST(Keys, SecretKeyHasWeightH) {
  SecureRandom rng;
  KeySet k = generateKeys(smallParams(), rng);
  int weight = 0;
  for (int8_t s : k.sk.s) {
    EXPECT_TRUE(s >= -1 && s <= 1);
    weight += s != 0;
  }
  EXPECT_EQ(weight, 64);
}

TEST(Keys, PublicAndEvaluationKeysAreRlweSamples) {
  SecureRandom rng;
  Params p = smallParams();
  KeySet k = generateKeys(p, rng);
  // pk.bx + pk.ax s = e (small) mod Q^2.
  EXPECT_LE(maxBits(add(k.pk.bx, mulSparseTernary(k.pk.ax, k.sk.s))), 7u);
  // evk.bx + evk.ax s - Q s^2 = e mod Q^2.
  BigPoly s = fromSmall(k.sk.s, p.logN, 2 * p.logQ);
  BigPoly s2 = schoolbookProduct(s, s, 2 * p.logQ);
  mpz_t Q;
  mpz_init(Q);
  mpz_setbit(Q, p.logQ);
  BigPoly e = sub(add(k.evk.bx, mulSparseTernary(k.evk.ax, k.sk.s)), mulScalar(s2, Q));
  mpz_clear(Q);
  EXPECT_LE(maxBits(e), 7u);
}

TEST(Keys, DiscreteGaussianHasTheRightWidth) {
  SecureRandom rng;
  double sum = 0, sq = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double x = double(rng.gaussian(3.2));
    sum += x;
    sq += x * x;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.05);
  EXPECT_NEAR(std::sqrt(sq / n), 3.2, 0.05);
}

TEST(Keys, EncryptDecryptRoundTrip) {
  SecureRandom rng;
  Params p = smallParams();
  KeySet k = generateKeys(p, rng);
  std::vector<Complex> z(512);
  for (auto &x : z) x = Complex(rng.uniformReal(), -rng.uniformReal());
  for (int logq : {300, 90}) {
    Ciphertext c = encrypt(p, k.pk, encode(z, p.logN, 30, logq), 30, 512, rng);
    EXPECT_EQ(c.logq(), logq);
    auto got = decode(decrypt(k.sk, c), 512, 30);
    double err = 0;
    for (size_t i = 0; i < z.size(); ++i) err = std::max(err, std::abs(got[i] - z[i]));
    // Fresh noise is rounding noise after the rounded division by Q (~2^-24
    // here); a floor would add a bias of ~2^-19 at slot 0, plain mod-q
    // encryption noise of ~2^-13.
    EXPECT_LT(err, 5e-7);
  }
}

TEST(Keys, MismatchesAreReported) {
  SecureRandom rng;
  Params p = smallParams();
  KeySet k = generateKeys(p, rng);
  BigPoly m(p.logN, 400);  // logq > logQ
  EXPECT_THROW(encrypt(p, k.pk, m, 30, 512, rng), Error);
  BigPoly m2(p.logN + 1, 300);
  EXPECT_THROW(encrypt(p, k.pk, m2, 30, 512, rng), Error);
  Params q = p;
  q.logN = 11;
  Ciphertext c{BigPoly(11, 300), BigPoly(11, 300), 30, 8};
  EXPECT_THROW(decrypt(k.sk, c), Error);
  Params bad = p;
  bad.logN = 18;
  EXPECT_THROW(generateKeys(bad, rng), Error);
  bad = p;
  bad.logp = 300;
  EXPECT_THROW(bad.validate(), Error);
  EXPECT_THROW(p.validateCiphertext(301, 30, 8), Error);  // logq > logQ
  EXPECT_THROW(p.validateCiphertext(300, 30, 3), Error);  // slots not a power of two
}
