#include "TestUtil.h"

#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"

#include <gtest/gtest.h>

using namespace fhec::rt;
using namespace fhec::rt::test;

namespace {
std::vector<Complex> randomVector(size_t n, SecureRandom &rng) {
  std::vector<Complex> z(n);
  for (auto &x : z) x = Complex(2 * rng.uniformReal() - 1, 2 * rng.uniformReal() - 1);
  return z;
}
double maxError(const std::vector<Complex> &a, const std::vector<Complex> &b) {
  double e = 0;
  for (size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}
} // namespace

TEST(Encoding, DecodeInvertsEncode) {
  SecureRandom rng;
  for (int logN : {3, 8, 12})
    for (size_t slots : {size_t(1), size_t(2), size_t(1) << (logN - 1)}) {
      auto z = randomVector(slots, rng);
      BigPoly m = encode(z, logN, 40, 120);
      EXPECT_LT(maxError(decode(m, int(slots), 40), z), 1e-9) << logN << " " << slots;
    }
}

// Scales beyond double's range (2^1024) and values far below 2^-1022 after
// scaling are exact: x * 2^logScale is a shifted 53-bit integer.
TEST(Encoding, AnyScaleIsExact) {
  SecureRandom rng;
  for (int logScale : {20, 52, 53, 1030, 2000}) {
    auto z = randomVector(4, rng);
    BigPoly m = encode(z, 5, logScale, logScale + 60);
    EXPECT_LT(maxError(decode(m, 4, logScale), z), std::max(1e-12, std::ldexp(8.0, -logScale))) << logScale;
  }
  // A single slot at a huge scale: the coefficients are exactly x << (logScale - 53 + e).
  BigPoly m = encode({Complex(0.75, -0.5)}, 3, 1500, 1600);
  mpz_t v, want;
  mpz_inits(v, want, nullptr);
  m.get(0, v, /*centered=*/true);
  mpz_set_ui(want, 3);
  mpz_mul_2exp(want, want, 1498);  // 0.75 * 2^1500
  EXPECT_EQ(mpz_cmp(v, want), 0);
  mpz_clears(v, want, nullptr);
  std::vector<Complex> huge = {Complex(1e300, 0)};
  EXPECT_THROW(encode(huge, 3, 1000, 1500), Error);  // 2^997 * 2^1000 does not fit q/2
  std::vector<Complex> tiny = {Complex(1e-300, 0)};
  EXPECT_LT(maxError(decode(encode(tiny, 3, 10, 60), 1, 10), tiny), 1e-3);
}

// The canonical embedding is a ring homomorphism: the negacyclic product of
// two encodings decodes (at the product scale) to the slot-wise product.
TEST(Encoding, ProductOfEncodingsDecodesToSlotwiseProduct) {
  SecureRandom rng;
  const int logN = 6;
  for (size_t slots : {size_t(4), size_t(32)}) {
    auto z1 = randomVector(slots, rng), z2 = randomVector(slots, rng);
    BigPoly prod = schoolbookProduct(encode(z1, logN, 30, 100), encode(z2, logN, 30, 100), 100);
    auto got = decode(prod, int(slots), 60);
    std::vector<Complex> want(slots);
    for (size_t i = 0; i < slots; ++i) want[i] = z1[i] * z2[i];
    EXPECT_LT(maxError(got, want), 1e-6);
  }
}

TEST(Encoding, RejectsBadSizes) {
  std::vector<Complex> three(3), big(1024);
  EXPECT_THROW(encode(three, 4, 20, 60), Error);
  EXPECT_THROW(encode(big, 10, 20, 60), Error);  // slots > N/2
  std::vector<Complex> huge{Complex(1e30, 0)};
  EXPECT_THROW(encode(huge, 4, 30, 60), Error);  // does not fit q/2
  EXPECT_THROW(encode(three, 4, 58, 60), Error);
}

// decode reads each coefficient centered, its magnitude truncated to 53 bits
// and scaled by 2^-logScale, as mpz_get_d: checked at the edges of the limb
// arithmetic (sign extensions, all-ones limbs, the extremes of [-q/2, q/2)).
TEST(Encoding, DecodeReadsCoefficientsAsMpzGetD) {
  const int logN = 3, logScale = 30;
  mpz_t v, bound;
  mpz_inits(v, bound, nullptr);
  for (int logq : {64, 100, 200}) {
    mpz_ui_pow_ui(bound, 2, unsigned(logq - 1));
    std::vector<std::string> values = {"0", "1", "-1", "18446744073709551615", "18446744073709551616",
                                       "-18446744073709551615", "-18446744073709551616", "-18446744073709551617",
                                       "340282366920938463463374607431768211455", "-340282366920938463463374607431768211456",
                                       "123456789012345678901234567890123", "-98765432109876543210987654321"};
    for (const char *edge : {"max", "min"}) {
      mpz_set(v, bound);
      if (std::string(edge) == "max") mpz_sub_ui(v, v, 1);
      else mpz_neg(v, v);
      char digits[128];  // |v| < 2^199: at most 61 digits
      values.push_back(mpz_get_str(digits, 10, v));
    }
    for (const std::string &s : values) {
      mpz_set_str(v, s.c_str(), 10);
      if (mpz_cmpabs(v, bound) > 0 || mpz_cmp(v, bound) == 0) continue;  // outside [-q/2, q/2)
      BigPoly m(logN, logq);
      m.set(0, v);
      m.set(size_t(1) << (logN - 1), v);
      Complex got = decode(m, 1, logScale)[0];
      double want = std::ldexp(mpz_get_d(v), -logScale);
      EXPECT_EQ(got.real(), want) << s << " mod 2^" << logq;
      EXPECT_EQ(got.imag(), want) << s << " mod 2^" << logq;
    }
  }
  mpz_clears(v, bound, nullptr);
}
