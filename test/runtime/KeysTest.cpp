#include "TestUtil.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Reference.h"

#include <cmath>
#include <gtest/gtest.h>
#include <optional>
#include <sstream>

using namespace fhec::rt;
using namespace fhec::rt::test;

namespace {
// HEAAN's sparse secret (h = 64); the ternary default has tests of its own.
Params smallParams() { return makeParams(10, 300, 30, 64); }
// N = 2^12 error samples per key: enough for the tight windows below.
Params noiseParams() { return makeParams(12, 300, 30, 64); }

// The centered coefficients of p, which must fit in an int64 (else nullopt).
std::optional<std::vector<int64_t>> smallCoefficients(const BigPoly &p) {
  std::vector<int64_t> out(p.N());
  mpz_t v;
  mpz_init(v);
  bool ok = true;
  for (size_t i = 0; ok && i < p.N(); ++i) {
    p.get(i, v, true);
    ok = mpz_fits_slong_p(v);
    out[i] = ok ? mpz_get_si(v) : 0;
  }
  mpz_clear(v);
  if (!ok) return std::nullopt;
  return out;
}

struct Moments {
  double mean = 0, var = 0;
  int64_t maxAbs = 0;
  bool allZero = true;
};
Moments moments(const std::vector<int64_t> &x) {
  Moments m;
  double sum = 0, sq = 0;
  for (int64_t v : x) {
    sum += double(v);
    sq += double(v) * double(v);
    m.maxAbs = std::max(m.maxAbs, std::abs(v));
    m.allZero &= v == 0;
  }
  m.mean = sum / double(x.size());
  m.var = sq / double(x.size());  // around 0, the distribution's mean
  return m;
}

// Checks that e = bx + ax * s - offset (mod Q^2, centered) is the error of an
// RLWE sample with a discrete Gaussian of width sigma: bounded by the
// sampler's support, with mean ~ 0 and a standard deviation in [0.9, 1.1]
// sigma. Returns what is wrong, or nullopt.
//
// False-failure probability, for n = 2^12 iid samples: the mean's standard
// error is sigma / 64, so |mean| <= 6 sigma / 64 fails with probability
// 2e-9; the empirical variance (around the known mean 0) has relative
// standard deviation sqrt(2 / n) = 0.022 (kurtosis 3), so [0.81, 1.21]
// sigma^2 is more than 8 standard deviations on both sides (< 1e-15, and
// a Chernoff bound for chi-square with 4096 degrees of freedom agrees).
std::optional<std::string> checkRlweError(const BigPoly &ax, const BigPoly &bx, const SecretKey &sk,
                                          const BigPoly *offset, double sigma) {
  BigPoly e = add(bx, mulSparseTernary(ax, sk.s));
  if (offset) e = sub(e, *offset);
  auto x = smallCoefficients(e);
  if (!x) return "the error has a coefficient beyond 64 bits: not an RLWE sample for this secret";
  if (x->size() < 4096) return "too few coefficients for the noise check's bounds (need N >= 2^12)";
  Moments m = moments(*x);
  std::ostringstream why;
  if (m.allZero) why << "the error is zero (a key without noise)";
  else if (m.maxAbs > int64_t(std::ceil(12 * sigma))) why << "an error coefficient " << m.maxAbs << " exceeds 12 sigma";
  else if (std::abs(m.mean) > 6 * sigma / std::sqrt(double(x->size()))) why << "the error's mean " << m.mean << " is not ~0";
  else if (std::sqrt(m.var) < 0.9 * sigma || std::sqrt(m.var) > 1.1 * sigma)
    why << "the error's standard deviation " << std::sqrt(m.var) << " is outside [0.9, 1.1] sigma = " << sigma;
  if (why.str().empty()) return std::nullopt;
  return why.str();
}

// 2^shift s^2 mod PQ (shift = logQ: HEAAN's Q s^2).
BigPoly qTimesSquare(const SecretKey &sk, const Params &p, int shift = -1) {
  // s^2 by sparse additions, independent of key generation's Kronecker product.
  BigPoly s2 = mulSparseTernary(fromSmall(sk.s, p.logN, p.logKey()), sk.s);
  mpz_t Q;
  mpz_init(Q);
  mpz_setbit(Q, mp_bitcnt_t(shift < 0 ? p.logQ : shift));
  BigPoly r = mulScalar(s2, Q);
  mpz_clear(Q);
  return r;
}

std::optional<std::string> checkPublicKeyNoise(const PublicKey &pk, const SecretKey &sk, const Params &p) {
  return checkRlweError(pk.ax, pk.bx, sk, nullptr, p.sigma);
}
std::optional<std::string> checkEvalKeyNoise(const EvalKey &evk, const SecretKey &sk, const Params &p) {
  BigPoly qs2 = qTimesSquare(sk, p);
  return checkRlweError(evk.ax.at(0), evk.bx.at(0), sk, &qs2, p.sigma);
}

// Fresh-encryption noise d = decrypt(c) - m (mod q, centered) over several
// ciphertexts. After the rounded division by Q it is r_b + sum_j s_j r_a(.)
// with rounding errors r uniform in (-1/2, 1/2] (the encryption error
// (v e + e1 + e0 s) / Q is below 2^-250 here): |d| <= (h + 1) / 2 always,
// mean 0 and variance (h + 1) / 12 (5.42 for h = 64).
// Bounds, for n = 4 * 2^12 samples: neighbouring coefficients share rounding
// errors through s's autocorrelation, which at most doubles the variance of
// the estimates (sum over lags of rho^2 ~ 1 + h (h - 1) / (h + 1)^2); with
// that, the mean's standard error is <= sqrt(2 var / n) = 0.026, so
// |mean| <= 0.2 is 7.7 of them; the variance's relative standard deviation is
// <= sqrt(4 / n) = 0.016, so [0.85, 1.15] (h + 1) / 12 is 9 of them
// (false failure < 1e-13). A floor instead of rounding (mean -1/2 or more),
// no noise, or extra noise of width sigma (variance x 2.9) fail.
std::optional<std::string> checkFreshNoise(const SecretKey &sk, const Params &p, const std::vector<Ciphertext> &cts,
                                           const std::vector<BigPoly> &messages) {
  std::vector<int64_t> d;
  for (size_t k = 0; k < cts.size(); ++k) {
    auto x = smallCoefficients(sub(decrypt(sk, cts[k]), messages[k]));
    if (!x) return "decrypt - m has a coefficient beyond 64 bits: the ciphertext does not decrypt to m";
    d.insert(d.end(), x->begin(), x->end());
  }
  if (d.size() < 4 * 4096) return "too few coefficients for the noise check's bounds (need 4 x 2^12)";
  Moments m = moments(d);
  const double want = (p.h + 1) / 12.0;
  std::ostringstream why;
  if (m.allZero) why << "decrypt - m is zero: the ciphertext has no noise";
  else if (double(m.maxAbs) > (p.h + 1) / 2.0) why << "a noise coefficient " << m.maxAbs << " exceeds (h + 1) / 2";
  else if (std::abs(m.mean) > 0.2) why << "the noise's mean " << m.mean << " is not ~0 (biased rounding?)";
  else if (m.var < 0.85 * want || m.var > 1.15 * want)
    why << "the noise's variance " << m.var << " is outside [0.85, 1.15] (h + 1) / 12 = " << want;
  if (why.str().empty()) return std::nullopt;
  return why.str();
}

// A rotation key of g is an RLWE sample with offset Q s(X^g); the
// automorphism of s is computed on a BigPoly here, not on the int8 vector
// key generation uses.
std::optional<std::string> checkRotationKeyNoise(const RotationKey &rk, const SecretKey &sk, const Params &p) {
  BigPoly qsg = automorphism(fromSmall(sk.s, p.logN, p.logKey()), rk.galois);
  mpz_t Q;
  mpz_init(Q);
  mpz_setbit(Q, p.logQ);
  qsg = mulScalar(qsg, Q);
  mpz_clear(Q);
  return checkRlweError(rk.ax.at(0), rk.bx.at(0), sk, &qsg, p.sigma);
}

// A public key with error e ~ DG(width) instead of DG(sigma) (width 0: none).
PublicKey craftedPublicKey(const SecretKey &sk, const Params &p, double width, SecureRandom &rng) {
  PublicKey pk;
  pk.ax = randomPoly(p.logN, 2 * p.logQ, rng);
  pk.bx = negate(mulSparseTernary(pk.ax, sk.s));
  if (width > 0) {
    std::vector<int64_t> e(p.N());
    for (auto &x : e) x = rng.gaussian(width);
    pk.bx = add(pk.bx, fromSigned(e, p.logN, 2 * p.logQ));
  }
  pk.keySet = sk.keySet;
  return pk;
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

// The default secret is uniform ternary: every coefficient in {-1, 0, 1},
// each value a third of them (chi-square over the N = 2^12 coefficients;
// RandomTest checks the sampler at length). Its keys are RLWE samples like
// the sparse secret's, and key switching with them decrypts.
TEST(Keys, TernarySecretKeysAreRlweSamples) {
  SecureRandom rng;
  Params p = makeParams(12, 300, 30);
  ASSERT_EQ(p.secret, SecretKind::Ternary);
  KeySet k = generateKeys(p, rng);
  std::vector<double> counts(3, 0);
  for (int8_t s : k.sk.s) {
    ASSERT_TRUE(s >= -1 && s <= 1);
    counts[size_t(s + 1)] += 1;
  }
  // Each count is N/3 with standard deviation sqrt(2N/9) = 30: 8 of them.
  for (double c : counts) EXPECT_NEAR(c, double(p.N()) / 3, 240) << "a value's count";
  auto pkWhy = checkPublicKeyNoise(k.pk, k.sk, p);
  EXPECT_FALSE(pkWhy) << *pkWhy;
  auto evkWhy = checkEvalKeyNoise(k.evk, k.sk, p);
  EXPECT_FALSE(evkWhy) << *evkWhy;
  RotationKey rk = generateRotationKey(p, k.sk, galoisForRotation(p.logN, 5), rng);
  auto rkWhy = checkRotationKeyNoise(rk, k.sk, p);
  EXPECT_FALSE(rkWhy) << *rkWhy;
  // Decryption's a s is the same by sparse additions and by Kronecker.
  Ciphertext c = encrypt(p, k.pk, randomPoly(p.logN, 200, rng), 30, 8, rng);
  EXPECT_TRUE(mulTernary(c.ax, k.sk.s) == mulSparseTernary(c.ax, k.sk.s));
}

// pk and evk are RLWE samples whose error has the sampler's width: bounded
// from above and from below, so that a key without noise (or with the wrong
// noise) fails the same check.
TEST(Keys, PublicAndEvaluationKeysHaveGaussianNoise) {
  SecureRandom rng;
  Params p = noiseParams();
  KeySet k = generateKeys(p, rng);
  auto pkWhy = checkPublicKeyNoise(k.pk, k.sk, p);
  EXPECT_FALSE(pkWhy) << *pkWhy;
  auto evkWhy = checkEvalKeyNoise(k.evk, k.sk, p);
  EXPECT_FALSE(evkWhy) << *evkWhy;

  // Negative controls.
  auto noiseless = checkPublicKeyNoise(craftedPublicKey(k.sk, p, 0, rng), k.sk, p);
  ASSERT_TRUE(noiseless);
  EXPECT_NE(noiseless->find("without noise"), std::string::npos) << *noiseless;
  EXPECT_TRUE(checkPublicKeyNoise(craftedPublicKey(k.sk, p, 1.25 * p.sigma, rng), k.sk, p));
  EXPECT_TRUE(checkPublicKeyNoise(craftedPublicKey(k.sk, p, 0.8 * p.sigma, rng), k.sk, p));
  EXPECT_TRUE(checkPublicKeyNoise(craftedPublicKey(k.sk, p, p.sigma, rng), k.sk, p) == std::nullopt);
  // A noiseless evaluation key: -a s + Q s^2 exactly.
  EvalKey evk0;
  evk0.ax = {randomPoly(p.logN, 2 * p.logQ, rng)};
  evk0.bx = {add(negate(mulSparseTernary(evk0.ax[0], k.sk.s)), qTimesSquare(k.sk, p))};
  EXPECT_TRUE(checkEvalKeyNoise(evk0, k.sk, p));
  // The key of another secret is no RLWE sample for this one.
  KeySet other = generateKeys(p, rng);
  EXPECT_TRUE(checkPublicKeyNoise(other.pk, k.sk, p));
  EXPECT_TRUE(checkEvalKeyNoise(k.evk, other.sk, p));
}

// Rotation keys: RLWE samples of the sampler's width with offset Q s(X^g),
// for rotations and conjugation; a key made for another Galois element or
// another secret fails the same check.
TEST(Keys, RotationKeysHaveGaussianNoise) {
  SecureRandom rng;
  Params p = noiseParams();
  KeySet k = generateKeys(p, rng);
  for (uint64_t g : {galoisForRotation(p.logN, 1), galoisForRotation(p.logN, -3), galoisForConjugation(p.logN)}) {
    RotationKey rk = generateRotationKey(p, k.sk, g, rng);
    EXPECT_EQ(rk.galois, g);
    EXPECT_EQ(rk.keySet, k.sk.keySet);
    auto why = checkRotationKeyNoise(rk, k.sk, p);
    EXPECT_FALSE(why) << *why;
    RotationKey wrongG = rk;
    wrongG.galois = galoisForRotation(p.logN, 2);
    EXPECT_TRUE(checkRotationKeyNoise(wrongG, k.sk, p));
  }
  KeySet other = generateKeys(p, rng);
  EXPECT_TRUE(checkRotationKeyNoise(generateRotationKey(p, other.sk, 5, rng), k.sk, p));
  EXPECT_NE(errorOf([&] { generateRotationKey(p, k.sk, 4, rng); }).find("not an odd number"), std::string::npos);
  EXPECT_NE(errorOf([&] { generateRotationKey(p, k.sk, 1, rng); }).find("not an odd number"), std::string::npos);
}

// The reference's rotation and conjugation decrypt to the rotated and
// conjugated slots, on full and sparse slots and below the top level; with
// the rotation key of another key set they do not.
TEST(Keys, RotatedCiphertextsDecryptToRotatedSlots) {
  SecureRandom rng;
  Params p = smallParams();
  KeySet k = generateKeys(p, rng);
  for (int slots : {512, 64}) {
    std::vector<Complex> z(slots);
    for (auto &x : z) x = Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
    for (int logq : {300, 120}) {
      Ciphertext c = encrypt(p, k.pk, encode(z, p.logN, 30, logq), 30, slots, rng);
      for (int64_t r : {int64_t(1), int64_t(3), int64_t(slots + 5), int64_t(-1)}) {
        RotationKey rk = generateRotationKey(p, k.sk, galoisForRotation(p.logN, r), rng);
        auto got = decode(decrypt(k.sk, referenceRotate(p, c, rk)), slots, 30);
        double err = 0;
        int64_t shift = ((r % slots) + slots) % slots;
        for (int j = 0; j < slots; ++j) err = std::max(err, std::abs(got[j] - z[(j + shift) % slots]));
        EXPECT_LT(err, 1e-4) << "slots " << slots << " logq " << logq << " r " << r;
      }
      RotationKey ck = generateRotationKey(p, k.sk, galoisForConjugation(p.logN), rng);
      auto got = decode(decrypt(k.sk, referenceRotate(p, c, ck)), slots, 30);
      double err = 0;
      for (int j = 0; j < slots; ++j) err = std::max(err, std::abs(got[j] - std::conj(z[j])));
      EXPECT_LT(err, 1e-4) << "conjugation, slots " << slots << " logq " << logq;
    }
    // Negative control: another key set's rotation key scrambles the slots.
    KeySet other = generateKeys(p, rng);
    Ciphertext c = encrypt(p, k.pk, encode(z, p.logN, 30, 300), 30, slots, rng);
    RotationKey foreign = generateRotationKey(p, other.sk, galoisForRotation(p.logN, 1), rng);
    auto got = decode(decrypt(k.sk, referenceRotate(p, c, foreign)), slots, 30);
    double err = 0;
    for (int j = 0; j < slots; ++j) err = std::max(err, std::abs(got[j] - z[(j + 1) % slots]));
    EXPECT_GT(err, 1.0);
  }
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

// Fresh ciphertexts carry exactly HEAAN's rounding noise: not more, not less.
TEST(Keys, FreshEncryptionNoiseIsRoundingNoise) {
  SecureRandom rng;
  Params p = noiseParams();
  KeySet k = generateKeys(p, rng);
  for (int logq : {300, 120}) {
    std::vector<Ciphertext> cts;
    std::vector<BigPoly> ms;
    for (int i = 0; i < 4; ++i) {
      ms.push_back(randomPoly(p.logN, logq, rng));
      cts.push_back(encrypt(p, k.pk, ms.back(), 30, 8, rng));
    }
    auto why = checkFreshNoise(k.sk, p, cts, ms);
    EXPECT_FALSE(why) << "logq " << logq << ": " << *why;

    // Negative controls: no noise (bx = m - ax s exactly), extra noise of
    // width sigma, and a bias of -1 (what flooring does, at least -1/2).
    std::vector<Ciphertext> exact, noisy, biased;
    mpz_t one;
    mpz_init_set_si(one, -1);
    for (size_t i = 0; i < cts.size(); ++i) {
      Ciphertext c = cts[i];
      c.bx = sub(ms[i], mulSparseTernary(c.ax, k.sk.s));
      exact.push_back(c);
      std::vector<int64_t> e(p.N());
      for (auto &x : e) x = rng.gaussian(p.sigma);
      c = cts[i];
      c.bx = add(c.bx, fromSigned(e, p.logN, logq));
      noisy.push_back(c);
      c = cts[i];
      BigPoly minusOne(p.logN, logq);
      for (size_t j = 0; j < p.N(); ++j) minusOne.set(j, one);
      c.bx = add(c.bx, minusOne);
      biased.push_back(c);
    }
    mpz_clear(one);
    auto none = checkFreshNoise(k.sk, p, exact, ms);
    ASSERT_TRUE(none);
    EXPECT_NE(none->find("no noise"), std::string::npos) << *none;
    EXPECT_TRUE(checkFreshNoise(k.sk, p, noisy, ms));
    auto bias = checkFreshNoise(k.sk, p, biased, ms);
    ASSERT_TRUE(bias);
    EXPECT_NE(bias->find("mean"), std::string::npos) << *bias;
  }
}

// Every key generation draws its own key-set id; keys and ciphertexts carry it,
// and decryption refuses a ciphertext of another key set.
TEST(Keys, KeySetsAreToldApart) {
  SecureRandom rng;
  Params p = smallParams();
  KeySet a = generateKeys(p, rng), b = generateKeys(p, rng);
  EXPECT_TRUE(a.sk.keySet.known());
  EXPECT_EQ(a.pk.keySet, a.sk.keySet);
  EXPECT_EQ(a.evk.keySet, a.sk.keySet);
  EXPECT_NE(a.sk.keySet, b.sk.keySet);
  EXPECT_EQ(a.sk.keySet.str().size(), 32u);
  EXPECT_EQ(KeySetId().str(), "(none)");

  BigPoly m = randomPoly(p.logN, 120, rng);
  Ciphertext c = encrypt(p, a.pk, m, 30, 8, rng);
  EXPECT_EQ(c.keySet, a.sk.keySet);
  EXPECT_NO_THROW(decrypt(a.sk, c));
  std::string why = errorOf([&] { decrypt(b.sk, c); });
  EXPECT_NE(why.find("ciphertext belongs to key set " + a.sk.keySet.str() + ", the secret key to key set " +
                     b.sk.keySet.str()),
            std::string::npos)
      << why;
  // A ciphertext that carries no id (an evaluator's output) is decrypted.
  c.keySet = KeySetId();
  EXPECT_NO_THROW(decrypt(b.sk, c));

  EXPECT_NO_THROW(checkSameKeySet(a.sk.keySet, "sk.bin", a.evk.keySet, "evk.bin"));
  why = errorOf([&] { checkSameKeySet(a.sk.keySet, "'sk.bin'", b.pk.keySet, "'pk.bin'"); });
  EXPECT_NE(why.find("'pk.bin' belongs to key set " + b.pk.keySet.str() + ", 'sk.bin' to key set " + a.sk.keySet.str()),
            std::string::npos)
      << why;
  why = errorOf([&] { checkSameKeySet(a.sk.keySet, "'sk.bin'", KeySetId(), "'in0.ct'"); });
  EXPECT_NE(why.find("'in0.ct' carries no key-set id"), std::string::npos) << why;
}

// Hybrid key switching (dnum > 1): part j of a key is an RLWE sample mod PQ
// with offset P 2^(j logP) t, for t = s^2 (evaluation) and s(X^g)
// (rotation); the public key is one mod PQ. A part checked against another
// part's offset fails.
TEST(Keys, HybridKeyPartsAreRlweSamples) {
  SecureRandom rng;
  Params p = noiseParams();
  p.dnum = 3;  // logP = 100, keys mod 2^400
  ASSERT_EQ(p.logP(), 100);
  KeySet k = generateKeys(p, rng);
  ASSERT_EQ(k.evk.ax.size(), 3u);
  ASSERT_EQ(k.pk.ax.logq, 400);
  auto why = checkPublicKeyNoise(k.pk, k.sk, p);
  EXPECT_FALSE(why) << *why;
  uint64_t g = galoisForRotation(p.logN, 1);
  RotationKey rk = generateRotationKey(p, k.sk, g, rng);
  ASSERT_EQ(rk.ax.size(), 3u);
  BigPoly sg = automorphism(fromSmall(k.sk.s, p.logN, p.logKey()), g);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(k.evk.ax[j].logq, 400);
    BigPoly offset = qTimesSquare(k.sk, p, (j + 1) * 100);
    why = checkRlweError(k.evk.ax[j], k.evk.bx[j], k.sk, &offset, p.sigma);
    EXPECT_FALSE(why) << "evk part " << j << ": " << *why;
    BigPoly other = qTimesSquare(k.sk, p, ((j + 1) % 3 + 1) * 100);
    EXPECT_TRUE(checkRlweError(k.evk.ax[j], k.evk.bx[j], k.sk, &other, p.sigma)) << j;
    mpz_t f;
    mpz_init(f);
    mpz_setbit(f, mp_bitcnt_t((j + 1) * 100));
    BigPoly offsetG = mulScalar(sg, f);
    mpz_clear(f);
    why = checkRlweError(rk.ax[j], rk.bx[j], k.sk, &offsetG, p.sigma);
    EXPECT_FALSE(why) << "rotation key part " << j << ": " << *why;
  }
}

// With dnum in {1, 2, 3, 4}, the reference's HE Mul and rotations decrypt to
// the product and the rotated slots, at the top level and below it (fewer
// digits); the key-switching error stays far below the scale either way.
TEST(Keys, HybridKeySwitchingDecrypts) {
  SecureRandom rng;
  for (int dnum : {1, 2, 3, 4}) {
    // The sparse secret for dnum 1 and 3, the ternary one for 2 and 4.
    Params p = dnum % 2 ? smallParams() : makeParams(10, 300, 30);
    p.dnum = dnum;
    KeySet k = generateKeys(p, rng);
    RotationKey rk = generateRotationKey(p, k.sk, galoisForRotation(p.logN, 3), rng);
    const int slots = 512;
    std::vector<Complex> z1(slots), z2(slots);
    for (auto &x : z1) x = Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
    for (auto &x : z2) x = Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
    for (int logq : {300, 150, 70}) {
      Ciphertext c1 = encrypt(p, k.pk, encode(z1, p.logN, 30, logq), 30, slots, rng);
      Ciphertext c2 = encrypt(p, k.pk, encode(z2, p.logN, 30, logq), 30, slots, rng);
      for (KeySwitchForm form : {KeySwitchForm::Centered, KeySwitchForm::Heaan}) {
        auto prod = decode(decrypt(k.sk, referenceMul(p, c1, c2, k.evk, form)), slots, 60);
        auto rot = decode(decrypt(k.sk, referenceRotate(p, c1, rk, form)), slots, 30);
        double errMul = 0, errRot = 0;
        for (int j = 0; j < slots; ++j) {
          errMul = std::max(errMul, std::abs(prod[j] - z1[j] * z2[j]));
          errRot = std::max(errRot, std::abs(rot[j] - z1[(j + 3) % slots]));
        }
        EXPECT_LT(errMul, 1e-5) << "dnum " << dnum << " logq " << logq << " form " << int(form);
        EXPECT_LT(errRot, form == KeySwitchForm::Centered ? 2e-5 : 2e-4)
            << "dnum " << dnum << " logq " << logq << " form " << int(form);
      }
    }
    // Unsigned digits (HEAAN's form) multiply the keys' errors by
    // polynomials of mean 2^(logP - 1), whose error lands in the
    // low-frequency slots. Compared on the error the key switch adds (the
    // encryption noise, the same for both forms, cancels), at the top level.
    // That error hangs on the key's error in a few slots, so one key's ratio
    // varies widely (2-23x in 80 draws); summed over four rotation keys it
    // was 4.3-17x in 200 draws.
    Ciphertext c = encrypt(p, k.pk, encode(z1, p.logN, 30, 300), 30, slots, rng);
    BigPoly message = decrypt(k.sk, c);
    double switchErr[2] = {0, 0};
    for (int shift : {1, 2, 3, 5}) {
      uint64_t g = galoisForRotation(p.logN, shift);
      RotationKey key = generateRotationKey(p, k.sk, g, rng);
      BigPoly exact = automorphism(message, g);
      for (KeySwitchForm form : {KeySwitchForm::Centered, KeySwitchForm::Heaan}) {
        auto added = decode(sub(decrypt(k.sk, referenceRotate(p, c, key, form)), exact), slots, 30);
        double worst = 0;
        for (const Complex &x : added) worst = std::max(worst, std::abs(x));
        switchErr[int(form)] += worst;
      }
    }
    EXPECT_LT(2 * switchErr[0], switchErr[1]) << "dnum " << dnum;
    // Negative control: the parts in the wrong order do not switch the key.
    if (dnum > 1) {
      EvalKey swapped = k.evk;
      std::swap(swapped.ax[0], swapped.ax[1]);
      std::swap(swapped.bx[0], swapped.bx[1]);
      Ciphertext c = encrypt(p, k.pk, encode(z1, p.logN, 30, 300), 30, slots, rng);
      auto prod = decode(decrypt(k.sk, referenceMul(p, c, c, swapped)), slots, 60);
      double err = 0;
      for (int j = 0; j < slots; ++j) err = std::max(err, std::abs(prod[j] - z1[j] * z1[j]));
      EXPECT_GT(err, 1.0) << "dnum " << dnum;
    }
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
  // Digits of key switching: at least one, none empty (31 digits of
  // ceil(300 / 31) = 10 bits would leave the last one empty).
  bad = p;
  bad.dnum = 0;
  EXPECT_NE(errorOf([&] { bad.validate(); }).find("dnum = 0"), std::string::npos);
  bad.dnum = 31;
  EXPECT_NE(errorOf([&] { bad.validate(); }).find("leave the last one empty"), std::string::npos);
  bad.dnum = 30;
  EXPECT_NO_THROW(bad.validate());
  // Keys of other parameters: a dnum = 1 evaluation key for dnum = 3.
  bad = p;
  bad.dnum = 3;
  Ciphertext c3 = encrypt(p, k.pk, BigPoly(p.logN, 300), 30, 8, rng);
  EXPECT_NE(errorOf([&] { referenceMul(bad, c3, c3, k.evk); }).find("expected 3 part(s)"), std::string::npos);
}
