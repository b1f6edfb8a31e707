#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Modular.h"
#include "fhec/runtime/Primes.h"
#include "fhec/runtime/Tables.h"

#include <cstring>
#include <gmp.h>
#include <gtest/gtest.h>

using namespace ::fhec::rt;
using fhec::abi::TableKind;

TEST(Tables, PrimeConstantsHoldTheirDefinitions) {
  const int logN = 10;
  auto primes = selectBasis(logN, 60, 300);
  auto t = buildTable(TableKind::PrimeConsts, primes, logN, 0);
  mpz_t P, Pj;
  mpz_init_set_ui(P, 1);
  mpz_init(Pj);
  for (uint64_t p : primes) mpz_mul_ui(P, P, p);
  for (size_t j = 0; j < primes.size(); ++j) {
    const uint64_t *row = t.data() + j * fhec::abi::kPrimeConstCols;
    uint64_t p = primes[j];
    EXPECT_EQ(row[fhec::abi::kPrime], p);
    EXPECT_EQ(row[fhec::abi::kBarrettShift], 60u);
    EXPECT_EQ(mulMod(row[fhec::abi::kNInv], (1u << logN) % p, p), 1u);
    EXPECT_EQ(row[fhec::abi::kNInvShoup], shoupPrecompute(row[fhec::abi::kNInv], p));
    mpz_divexact_ui(Pj, P, p);
    EXPECT_EQ(mulMod(row[fhec::abi::kIcrtInv], mpz_fdiv_ui(Pj, p), p), 1u);
    double inv;
    std::memcpy(&inv, &row[fhec::abi::kInvPrimeF64], 8);
    EXPECT_DOUBLE_EQ(inv, 1.0 / double(p));
    EXPECT_EQ(row[fhec::abi::kBeta2Mod], mulMod(row[fhec::abi::kBetaMod], row[fhec::abi::kBetaMod], p));
    // Barrett: mu = floor(2^120 / p).
    EXPECT_EQ(row[fhec::abi::kBarrettMu], uint64_t(((u128)1 << 120) / p));
  }
  mpz_clears(P, Pj, nullptr);
}

TEST(Tables, TwiddlesArePsiPowersInBitReversedOrder) {
  const int logN = 8;
  const size_t N = 1u << logN;
  auto primes = nttPrimes(logN, 60, 2);
  auto tw = buildTable(TableKind::NttTwiddles, primes, logN, 0);
  auto twS = buildTable(TableKind::NttTwiddlesShoup, primes, logN, 0);
  auto itw = buildTable(TableKind::InttTwiddles, primes, logN, 0);
  for (size_t j = 0; j < primes.size(); ++j) {
    uint64_t p = primes[j], psi = tw[j * N + N / 2];  // bitrev(1) = N/2
    EXPECT_EQ(tw[j * N], 1u);
    EXPECT_EQ(powMod(psi, N, p), p - 1) << "psi must be a primitive 2N-th root";
    for (size_t i = 0; i < N; ++i) {
      EXPECT_EQ(mulMod(tw[j * N + i], itw[j * N + i], p), 1u);
      EXPECT_EQ(twS[j * N + i], shoupPrecompute(tw[j * N + i], p));
    }
  }
}

TEST(Tables, CrtAndIcrtTables) {
  auto primes = selectBasis(10, 60, 500);
  int L = 7;
  auto crt = buildTable(TableKind::CrtPowers, primes, 10, L);
  auto pdivp = buildTable(TableKind::IcrtPDivP, primes, 10, 0);
  auto P = buildTable(TableKind::IcrtP, primes, 10, 0);
  int PL = productLimbs(primes);
  ASSERT_EQ(P.size(), size_t(PL));
  mpz_t prod, x;
  mpz_init_set_ui(prod, 1);
  mpz_init(x);
  for (uint64_t p : primes) mpz_mul_ui(prod, prod, p);
  mpz_import(x, PL, -1, 8, 0, 0, P.data());
  EXPECT_EQ(mpz_cmp(x, prod), 0);
  for (size_t j = 0; j < primes.size(); ++j) {
    mpz_import(x, PL, -1, 8, 0, 0, pdivp.data() + j * PL);
    mpz_mul_ui(x, x, primes[j]);
    EXPECT_EQ(mpz_cmp(x, prod), 0);
    for (int k = 0; k < L; ++k) {
      mpz_set_ui(x, 1);
      mpz_mul_2exp(x, x, 64 * k);
      EXPECT_EQ(crt[j * L + k], mpz_fdiv_ui(x, primes[j]));
    }
  }
  mpz_clears(prod, x, nullptr);
}
