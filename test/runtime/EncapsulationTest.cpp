// Sparse-secret encapsulation (Bossuat, Troncoso-Pastoriza, Hubaux 2022,
// Sec. 5): a ciphertext at q0 under the dense secret, switched to the
// ephemeral sparse one, raised to Q and switched back, decrypts to
// m + q0 I + e with |I| within EvalMod's bound; its keys serialize.
#include "TestUtil.h"

#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Reference.h"
#include "fhec/runtime/Serialize.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace fhec::rt;
using fhec::rt::test::makeParams;

namespace {

constexpr int kLogq0 = 42, kLogQ = 300, kBound = 16;  // ckks.bootstrap's default bound K

struct IntegerStats {
  size_t coefficients = 0, beyondBound = 0;
  long maxAbs = 0;
  double sumSquares = 0, maxResidualBits = 0;
  double stddev() const { return std::sqrt(sumSquares / double(coefficients)); }
};

// The I of t = m + q0 I + e (t: the decryption mod Q, m: the message mod q0,
// both read centred), and the bits of the residual e.
void collect(const BigPoly &t, const BigPoly &m, IntegerStats &s) {
  mpz_t x, y, i, r;
  mpz_inits(x, y, i, r, nullptr);
  for (size_t j = 0; j < t.N(); ++j) {
    t.get(j, x, /*centered=*/true);
    m.get(j, y, /*centered=*/true);
    mpz_sub(x, x, y);
    // I = round(x / q0), the residual x - q0 I.
    mpz_set_ui(r, 1);
    mpz_mul_2exp(r, r, kLogq0 - 1);
    mpz_add(i, x, r);
    mpz_fdiv_q_2exp(i, i, kLogq0);
    mpz_mul_2exp(r, i, kLogq0);
    mpz_sub(r, x, r);
    long v = mpz_get_si(i);
    s.maxAbs = std::max(s.maxAbs, std::labs(v));
    s.beyondBound += std::labs(v) > kBound;
    s.sumSquares += double(v) * double(v);
    s.maxResidualBits = std::max(s.maxResidualBits, double(mpz_sizeinbase(r, 2)));
    ++s.coefficients;
  }
  mpz_clears(x, y, i, r, nullptr);
}

// A fresh encryption of random slots at q0 and its message.
std::pair<Ciphertext, BigPoly> freshAtQ0(const Params &p, const KeySet &keys, SecureRandom &rng) {
  std::vector<Complex> z(size_t(1) << (p.logN - 1));
  for (auto &x : z) x = Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
  BigPoly m = encode(z, p.logN, p.logp, kLogq0);
  return {encrypt(p, keys.pk, m, p.logp, int(z.size()), rng), m};
}

class Encapsulation : public ::testing::TestWithParam<int> {};  // dnum

// Over 4 x 4096 coefficients (every one is a slot's EvalMod input in a
// full-slot bootstrap): no |I| beyond the bound (|I| <= 16 always holds for
// weight 32: I is a sum of 33 terms in [-1/2, 1/2)), a standard deviation near
// sqrt(33 / 12) = 1.66, and the key switches' error far below q0. Without
// encapsulation the dense secret's I leaves the bound.
TEST_P(Encapsulation, ModRaiseUnderTheEphemeralSecretKeepsIWithinTheBound) {
  Params p = makeParams(12, kLogQ, 30);
  p.dnum = GetParam();
  SecureRandom rng;
  KeySet keys = generateKeys(p, rng);
  EncapsulationKey ek = generateEncapsulationKey(p, keys.sk, kLogq0, rng);
  IntegerStats encapsulated, direct;
  for (int trial = 0; trial < 4; ++trial) {
    auto [c, m] = freshAtQ0(p, keys, rng);
    Ciphertext raised = referenceModRaise(referenceEncapsulate(p, c, ek), kLogQ);
    collect(decrypt(keys.sk, referenceDecapsulate(p, raised, ek)), m, encapsulated);
    if (trial == 0) collect(decrypt(keys.sk, referenceModRaise(c, kLogQ)), m, direct);
  }
  EXPECT_EQ(encapsulated.beyondBound, 0u) << "EvalMod failures";
  EXPECT_LE(encapsulated.maxAbs, kBound);
  EXPECT_NEAR(encapsulated.stddev(), std::sqrt(33.0 / 12), 0.2);
  EXPECT_LT(encapsulated.maxResidualBits, 24) << "the key switches' error must stay far below q0 = 2^42";
  EXPECT_GT(direct.beyondBound, 100u) << "the dense secret's I (sd " << direct.stddev() << ") should exceed the bound";
}

INSTANTIATE_TEST_SUITE_P(Dnum, Encapsulation, ::testing::Values(1, 2));

TEST(EncapsulationKey, SerializesAndIsRefusedForOtherParameters) {
  Params p = makeParams(10, 200, 30);
  SecureRandom rng;
  KeySet keys = generateKeys(p, rng);
  EncapsulationKey ek = generateEncapsulationKey(p, keys.sk, 40, rng);
  EXPECT_EQ(ek.sparseAx.logq, 40 + 40 + kEncapsulationExtraBits);
  std::string bytes = serialize(p, ek);
  EncapsulationKey back = deserializeEncapsulationKey(bytes, p);
  EXPECT_EQ(back.logq0, 40);
  EXPECT_EQ(back.keySet, ek.keySet);
  EXPECT_EQ(back.sparseBx.words, ek.sparseBx.words);
  ASSERT_EQ(back.denseBx.size(), ek.denseBx.size());
  EXPECT_EQ(back.denseBx[0].words, ek.denseBx[0].words);
  Params other = makeParams(10, 220, 30);
  EXPECT_THROW(deserializeEncapsulationKey(bytes, other), Error);
  std::string corrupted = bytes;
  corrupted[corrupted.size() / 2] ^= 1;
  EXPECT_THROW(deserializeEncapsulationKey(corrupted, p), Error);
  EXPECT_THROW(generateEncapsulationKey(p, keys.sk, 200, rng), Error);
  // A ciphertext at another q0 is refused by the key.
  std::vector<Complex> z(4, Complex(0.5, 0));
  Ciphertext c = encrypt(p, keys.pk, encode(z, p.logN, 30, 50), 30, 4, rng);
  EXPECT_THROW(referenceEncapsulate(p, c, ek), Error);
}

} // namespace
