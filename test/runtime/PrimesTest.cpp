#include "fhec/runtime/Error.h"
#include "fhec/runtime/Modular.h"
#include "fhec/runtime/Primes.h"

#include <gmp.h>
#include <gtest/gtest.h>

using namespace fhec::rt;

TEST(Primes, MillerRabinAgreesWithTrialDivision) {
  for (uint64_t n = 0; n < 5000; ++n) {
    bool prime = n >= 2;
    for (uint64_t d = 2; d * d <= n && prime; ++d) prime = n % d != 0;
    EXPECT_EQ(isPrime(n), prime) << n;
  }
  EXPECT_TRUE(isPrime(1152921504606830593ull));       // 2^60 - 2^14 * 6 + 1
  EXPECT_FALSE(isPrime(3215031751ull));               // strong pseudoprime to bases 2, 3, 5, 7
  EXPECT_FALSE(isPrime(1152921504606830593ull * 1 + 2));
}

TEST(Primes, NttPrimesAreDescendingNttFriendlyAndExactWidth) {
  for (int logN : {10, 13, 16})
    for (int bits : {30, 50, 60}) {
      auto ps = nttPrimes(logN, bits, 8);
      ASSERT_EQ(ps.size(), 8u);
      for (size_t i = 0; i < ps.size(); ++i) {
        EXPECT_TRUE(isPrime(ps[i]));
        EXPECT_EQ((ps[i] - 1) % (uint64_t(2) << logN), 0u);
        EXPECT_EQ(64 - __builtin_clzll(ps[i]), bits);
        if (i) {
          EXPECT_LT(ps[i], ps[i - 1]);
        }
      }
    }
}

TEST(Primes, SelectBasisIsTheShortestSufficientPrefix) {
  for (unsigned minBits : {61u, 300u, 2433u, 3620u}) {
    auto basis = selectBasis(16, 60, minBits);
    auto all = nttPrimes(16, 60, basis.size());
    EXPECT_EQ(basis, all);
    mpz_t P;
    mpz_init_set_ui(P, 1);
    for (size_t i = 0; i + 1 < basis.size(); ++i) mpz_mul_ui(P, P, basis[i]);
    EXPECT_LE(mpz_sizeinbase(P, 2), minBits) << "a shorter prefix would do";
    mpz_mul_ui(P, P, basis.back());
    EXPECT_GT(mpz_sizeinbase(P, 2), minBits);
    mpz_clear(P);
  }
}

TEST(Primes, PrimitiveRootHasOrderExactly2N) {
  for (uint64_t p : nttPrimes(12, 60, 4)) {
    uint64_t psi = primitiveRoot2N(p, 12);
    EXPECT_EQ(powMod(psi, 4096, p), p - 1);
    EXPECT_EQ(powMod(psi, 8192, p), 1u);
  }
}

TEST(Primes, ReportsBadWidthsAndTooFewPrimes) {
  EXPECT_THROW(nttPrimes(16, 63, 1), Error);
  EXPECT_THROW(nttPrimes(16, 17, 1), Error);
  try {
    nttPrimes(12, 15, 100);  // p = 1 mod 8192 below 2^15: a handful at most
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("too few primes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(selectBasis(12, 15, 4000), Error);
}
