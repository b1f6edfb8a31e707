#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Modular.h"
#include "fhec/runtime/Primes.h"
#include "fhec/runtime/Tables.h"

#include <algorithm>
#include <cstring>
#include <gmp.h>
#include <gtest/gtest.h>
#include <tuple>

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

// Every entry of the forward and inverse twiddle tables and of their Shoup
// companions, at several sizes and both Shoup bases: entry i of prime j is
// psi^bitrev(i) (inverse: psi^-bitrev(i)) for the runtime's primitive 2N-th
// root psi, recomputed here by repeated multiplication.
// Base 2^32: parameter 1 packs each twiddle with its Shoup constant (high half).
TEST(Tables, PackedTwiddlesHoldTheirShoupConstants) {
  auto primes = nttPrimes(10, 30, 3);
  for (auto [kind, shoupKind] : {std::pair{TableKind::NttTwiddles, TableKind::NttTwiddlesShoup},
                                 {TableKind::InttTwiddles, TableKind::InttTwiddlesShoup}}) {
    auto packed = buildTable(kind, primes, 10, 1, 32);
    auto w = buildTable(kind, primes, 10, 0, 32), ws = buildTable(shoupKind, primes, 10, 0, 32);
    ASSERT_EQ(packed.size(), w.size());
    for (size_t i = 0; i < w.size(); ++i) ASSERT_EQ(packed[i], w[i] | ws[i] << 32) << i;
    EXPECT_THROW(buildTable(kind, primes, 10, 1, 64), Error);  // constants of 64 bits do not fit
    EXPECT_THROW(buildTable(kind, primes, 10, 2, 32), Error);
  }
}

TEST(Tables, TwiddlesArePsiPowersInBitReversedOrder) {
  auto bitrev = [](size_t x, int bits) {
    size_t r = 0;
    for (int b = 0; b < bits; ++b, x >>= 1) r = (r << 1) | (x & 1);
    return r;
  };
  for (auto [logN, primeBits, shoupBits] : {std::tuple{8, 60, 64}, {11, 60, 64}, {10, 50, 52}, {12, 30, 32}, {1, 60, 64}}) {
    const size_t N = size_t(1) << logN;
    auto primes = nttPrimes(logN, primeBits, 2);
    auto tw = buildTable(TableKind::NttTwiddles, primes, logN, 0, shoupBits);
    auto twS = buildTable(TableKind::NttTwiddlesShoup, primes, logN, 0, shoupBits);
    auto itw = buildTable(TableKind::InttTwiddles, primes, logN, 0, shoupBits);
    auto itwS = buildTable(TableKind::InttTwiddlesShoup, primes, logN, 0, shoupBits);
    ASSERT_EQ(tw.size(), primes.size() * N);
    ASSERT_EQ(itwS.size(), primes.size() * N);
    for (size_t j = 0; j < primes.size(); ++j) {
      const uint64_t p = primes[j], psi = primitiveRoot2N(p, logN), psiInv = invMod(psi, p);
      ASSERT_EQ(powMod(psi, N, p), p - 1) << "psi must be a primitive 2N-th root";
      ASSERT_EQ(mulMod(psi, psiInv, p), 1u);
      // powers[k] = psi^k, inverse powers psi^-k, k < N.
      std::vector<uint64_t> pw(N), ipw(N);
      pw[0] = ipw[0] = 1;
      for (size_t k = 1; k < N; ++k) {
        pw[k] = mulMod(pw[k - 1], psi, p);
        ipw[k] = mulMod(ipw[k - 1], psiInv, p);
      }
      size_t bad = 0, first = N;
      for (size_t i = 0; i < N; ++i) {
        const size_t r = bitrev(i, logN), at = j * N + i;
        bool ok = tw[at] == pw[r] && itw[at] == ipw[r] && twS[at] == shoupPrecompute(pw[r], p, shoupBits) &&
                  itwS[at] == shoupPrecompute(ipw[r], p, shoupBits);
        if (!ok && bad++ == 0) first = i;
      }
      EXPECT_EQ(bad, 0u) << "logN " << logN << ", Shoup base 2^" << shoupBits << ", prime " << j
                         << ": wrong twiddles or Shoup constants, the first at entry " << first;
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

// The matrix-form iCRT keeps only the low L limbs of P/p_j and P, the
// columns contiguous (icrt_columns is the transpose of the truncated icrt_pdivp).
TEST(Tables, TruncatedIcrtTablesAndColumns) {
  auto primes = selectBasis(10, 60, 500);
  const int L = 3, PL = productLimbs(primes);
  const size_t m = primes.size();
  auto full = buildTable(TableKind::IcrtPDivP, primes, 10, 0);
  auto low = buildTable(TableKind::IcrtPDivP, primes, 10, L);
  auto cols = buildTable(TableKind::IcrtColumns, primes, 10, L);
  auto Pfull = buildTable(TableKind::IcrtP, primes, 10, 0);
  auto Plow = buildTable(TableKind::IcrtP, primes, 10, L);
  ASSERT_EQ(low.size(), m * L);
  ASSERT_EQ(cols.size(), m * L);
  ASSERT_EQ(Plow.size(), size_t(L));
  for (int c = 0; c < L; ++c) {
    EXPECT_EQ(Plow[c], Pfull[c]);
    for (size_t j = 0; j < m; ++j) {
      EXPECT_EQ(low[j * L + c], full[j * PL + c]);
      EXPECT_EQ(cols[c * m + j], full[j * PL + c]);
    }
  }
}

// The iNTT's last stage: c = n^-1 for n = 2^(logN - skipped), w = psi^-(N/2)
// (so w^2 = -1), and the iCRT-folded c (P/p_j)^-1, each with its Shoup constant.
TEST(Tables, InttConstsScaleTheLastStage) {
  const int logN = 9;
  auto primes = selectBasis(logN, 60, 200);
  mpz_t P, Pj;
  mpz_init_set_ui(P, 1);
  mpz_init(Pj);
  for (uint64_t p : primes) mpz_mul_ui(P, P, p);
  for (int skip : {0, 1, 3}) {
    auto t = buildTable(TableKind::InttConsts, primes, logN, skip);
    auto itw = buildTable(TableKind::InttTwiddles, primes, logN, 0);
    for (size_t j = 0; j < primes.size(); ++j) {
      const uint64_t *row = t.data() + j * fhec::abi::kInttConstCols, p = primes[j];
      uint64_t c = row[fhec::abi::kScale], w = itw[j * (1u << logN) + 1];
      EXPECT_EQ(mulMod(c, (uint64_t(1) << (logN - skip)) % p, p), 1u) << "skip " << skip;
      EXPECT_EQ(mulMod(w, w, p), p - 1);
      EXPECT_EQ(row[fhec::abi::kScaleTw], mulMod(c, w, p));
      mpz_divexact_ui(Pj, P, p);
      EXPECT_EQ(mulMod(row[fhec::abi::kScaleIcrt], mpz_fdiv_ui(Pj, p), p), c);
      EXPECT_EQ(row[fhec::abi::kScaleIcrtTw], mulMod(row[fhec::abi::kScaleIcrt], w, p));
      for (int k = 0; k < 4; ++k) EXPECT_EQ(row[2 * k + 1], shoupPrecompute(row[2 * k], p));
    }
  }
  mpz_clears(P, Pj, nullptr);
}

// An incomplete NTT splits X^N + 1 into the factors X^K - zeta_b (K = 2^skip):
// each zeta_b is the square of the twiddle the first skipped stage would use,
// a root of X^(N/K) + 1, and the zetas are distinct.
TEST(Tables, IncompleteZetasFactorTheRing) {
  const int logN = 8, N = 1 << logN;
  auto primes = nttPrimes(logN, 60, 2);
  auto tw = buildTable(TableKind::NttTwiddles, primes, logN, 0);
  for (int skip : {1, 2, 4}) {
    auto z = buildTable(TableKind::IncompleteZeta, primes, logN, skip);
    const int blocks = N >> skip;
    ASSERT_EQ(z.size(), primes.size() * 2 * blocks);
    for (size_t j = 0; j < primes.size(); ++j) {
      uint64_t p = primes[j];
      std::vector<uint64_t> seen;
      for (int b = 0; b < blocks; ++b) {
        uint64_t zeta = z[j * 2 * blocks + b], w = tw[j * N + blocks + b];
        EXPECT_EQ(zeta, mulMod(w, w, p));
        EXPECT_EQ(z[j * 2 * blocks + blocks + b], shoupPrecompute(zeta, p));
        EXPECT_EQ(powMod(zeta, blocks, p), p - 1) << "zeta^(N/K) must be -1";
        seen.push_back(zeta);
      }
      std::sort(seen.begin(), seen.end());
      EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end());
    }
  }
}

// IFMA modules use Shoup constants in base 2^52, with primes below 2^50.
TEST(Tables, ShoupBase52) {
  auto primes = nttPrimes(10, 50, 2);
  auto t = buildTable(TableKind::NttTwiddlesShoup, primes, 10, 0, 52);
  auto w = buildTable(TableKind::NttTwiddles, primes, 10, 0, 52);
  for (size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t[i], shoupPrecompute(w[i], primes[i >> 10], 52));
  EXPECT_THROW(buildTable(TableKind::NttTwiddles, nttPrimes(10, 60, 1), 10, 0, 52), Error);
  EXPECT_THROW(buildTable(TableKind::NttTwiddles, primes, 10, 0, 40), Error);
}

// The cuda target's 32-bit words: Shoup constants in base 2^32 (x w' fits a
// mul.hi.u32), primes below 2^30 so that lazy values in [0, 4p) fit a word.
TEST(Tables, ShoupBase32) {
  auto primes = nttPrimes(10, 30, 2);
  auto t = buildTable(TableKind::NttTwiddlesShoup, primes, 10, 0, 32);
  auto w = buildTable(TableKind::NttTwiddles, primes, 10, 0, 32);
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(t[i], shoupPrecompute(w[i], primes[i >> 10], 32));
    EXPECT_LT(t[i], uint64_t(1) << 32);
  }
  auto c = buildTable(TableKind::PrimeConsts, primes, 10, 0, 32);
  const size_t cols = c.size() / primes.size();
  for (size_t j = 0; j < primes.size(); ++j) {
    uint64_t p = primes[j];
    EXPECT_EQ(c[j * cols + fhec::abi::kBetaMod], (uint64_t(1) << 32) % p);
    EXPECT_EQ(c[j * cols + fhec::abi::kBarrettMu], uint64_t((u128(1) << 60) / p));  // 2^(2b) / p, b = 30
  }
  EXPECT_THROW(buildTable(TableKind::NttTwiddles, nttPrimes(10, 31, 1), 10, 0, 32), Error);
}

// The iCRT columns as D-bit digits of P/p_j and -P mod 2^(D param) as
// digits, for a module of Shoup base 2^shoupBits.
static void checkDigitTables(TableKind colsKind, TableKind negPKind, int D, int shoupBits,
                             const std::vector<uint64_t> &primes) {
  const int logN = 10, Dq = 7;
  const size_t m = primes.size();
  auto cols = buildTable(colsKind, primes, logN, Dq, shoupBits);
  auto negP = buildTable(negPKind, primes, logN, Dq, shoupBits);
  ASSERT_EQ(negP.size(), size_t(Dq));
  mpz_t P, x, y;
  mpz_init_set_ui(P, 1);
  mpz_inits(x, y, nullptr);
  for (uint64_t p : primes) mpz_mul_ui(P, P, p);
  // Digits (least significant first) to an integer.
  auto fromDigits = [&](mpz_t out, const uint64_t *d, size_t n, size_t stride) {
    mpz_set_ui(out, 0);
    for (size_t k = n; k-- > 0;) {
      EXPECT_LT(d[k * stride], uint64_t(1) << D);
      mpz_mul_2exp(out, out, D);
      mpz_add_ui(out, out, d[k * stride]);
    }
  };
  for (size_t j = 0; j < m; ++j) {
    const uint64_t p = primes[j];
    // Column c of the iCRT matrix holds digit c of P/p_j mod beta^Dq.
    fromDigits(x, cols.data() + j, Dq, m);
    mpz_divexact_ui(y, P, p);
    mpz_fdiv_r_2exp(y, y, D * Dq);
    EXPECT_EQ(mpz_cmp(x, y), 0) << "prime " << j;
  }
  // negP + P = 0 mod beta^Dq.
  fromDigits(x, negP.data(), Dq, 1);
  mpz_add(x, x, P);
  mpz_fdiv_r_2exp(x, x, D * Dq);
  EXPECT_EQ(mpz_sgn(x), 0);
  mpz_clears(P, x, y, nullptr);
}

// Base beta = 2^52: Barrett's mu = floor(2^(b + 50) / p), beta^k mod p, and the iCRT's digit tables in base beta.
TEST(Tables, DigitTablesBase52) {
  const int D = 52;
  auto primes = nttPrimes(10, 50, 7);
  auto consts = buildTable(TableKind::PrimeConsts, primes, 10, 0, D);
  for (size_t j = 0; j < primes.size(); ++j) {
    const uint64_t p = primes[j], *row = consts.data() + j * fhec::abi::kPrimeConstCols;
    EXPECT_EQ(row[fhec::abi::kBarrettMu], uint64_t(((u128)1 << (50 + 50)) / p));
    EXPECT_EQ(row[fhec::abi::kBetaMod], uint64_t(((u128)1 << D) % p));
    EXPECT_EQ(row[fhec::abi::kOneShoup], shoupPrecompute(1, p, D));
  }
  auto pow = buildTable(TableKind::CrtPowers, primes, 10, 5, D);
  for (size_t j = 0; j < primes.size(); ++j)
    for (int k = 0; k < 5; ++k) EXPECT_EQ(pow[j * 5 + k], powMod(((u128)1 << D) % primes[j], k, primes[j]));
  checkDigitTables(TableKind::IcrtColumns, TableKind::IcrtNegP, D, D, primes);
}

// The GPU iCRT's tables: 30-bit digits whatever the Shoup base (2^32 there).
TEST(Tables, DigitTables30) {
  checkDigitTables(TableKind::IcrtColumns30, TableKind::IcrtNegP30, fhec::abi::kGpuDigitBits, 32, nttPrimes(10, 30, 7));
}

// The GPU CRT's powers: 2^(28 k) mod p whatever the Shoup base.
TEST(Tables, CrtPowers28) {
  auto primes = nttPrimes(10, 30, 7);
  const int D = fhec::abi::kGpuCrtDigitBits, K = 40;
  for (int shoupBits : {32, 64}) {
    auto pow = buildTable(TableKind::CrtPowers28, primes, 10, K, shoupBits);
    for (size_t j = 0; j < primes.size(); ++j)
      for (int k = 0; k < K; ++k)
        EXPECT_EQ(pow[j * K + k], powMod(((u128)1 << D) % primes[j], k, primes[j])) << "prime " << j << ", k " << k;
  }
}

// sum_c t[c][j] 2^(51 c) over `rows` rows of `cols` words: column j of a
// table of base-2^51 digits, each digit checked below 2^51.
static void digitColumn(mpz_t out, const std::vector<uint64_t> &t, int64_t rows, size_t cols, size_t j) {
  mpz_set_ui(out, 0);
  for (int64_t c = rows; c-- > 0;) {
    EXPECT_LT(t[size_t(c) * cols + j], uint64_t(1) << 51);
    mpz_mul_2exp(out, out, 51);
    mpz_add_ui(out, out, t[size_t(c) * cols + j]);
  }
}

// Winograd's correction: the words lo (bits 0..51) and hi (bits 52..) of
// sum_i v[2i] v[2i+1] over the first n values (n even).
static bool holdsPairProductSum(const uint64_t *v, size_t n, uint64_t lo, uint64_t hi) {
  mpz_t sum, x;
  mpz_inits(sum, x, nullptr);
  for (size_t i = 0; i + 1 < n; i += 2) {
    mpz_set_ui(x, v[i]);
    mpz_mul_ui(x, x, v[i + 1]);
    mpz_add(sum, sum, x);
  }
  mpz_set_ui(x, hi);
  mpz_mul_2exp(x, x, 52);
  mpz_add_ui(x, x, lo);
  bool ok = lo < (uint64_t(1) << 52) && mpz_cmp(x, sum) == 0;
  mpz_clears(sum, x, nullptr);
  return ok;
}

// The IFMA CRT's Winograd form: powers of 2^51 (51-bit digits), then the
// per-prime correction B_j = sum_k s_2k s_2k+1 in words of 52 and the rest.
TEST(Tables, CrtWinogradBase52) {
  const int logN = 10, nd = 6;
  auto primes = nttPrimes(logN, 50, 5);
  auto t = buildTable(TableKind::CrtWinograd, primes, logN, nd, 52);
  ASSERT_EQ(t.size(), primes.size() * (nd + 2));
  mpz_t x;
  mpz_init(x);
  for (size_t j = 0; j < primes.size(); ++j) {
    const uint64_t p = primes[j], *row = t.data() + j * (nd + 2);
    for (int k = 0; k < nd; ++k) {
      mpz_set_ui(x, 1);
      mpz_mul_2exp(x, x, 51 * k);
      EXPECT_EQ(row[k], mpz_fdiv_ui(x, p)) << "prime " << j << ", power " << k;
    }
    EXPECT_TRUE(holdsPairProductSum(row, nd, row[nd], row[nd + 1])) << "prime " << j;
  }
  mpz_clear(x);
  EXPECT_THROW(buildTable(TableKind::CrtWinograd, primes, logN, 5, 52), Error);   // odd digit count
  EXPECT_THROW(buildTable(TableKind::CrtWinograd, primes, logN, nd, 64), Error);  // base 2^52 only
}

// The IFMA iCRT's Winograd form: per column c (base 2^51), the digits of
// P/p_j, the correction B_c = sum over full pairs of primes T_j[c] T_j+1[c]
// in words of 52 and the rest, and digit c of -P.
TEST(Tables, IcrtWinogradBase52) {
  const int logN = 10, Dq = 6;  // 306 bits: P whole (at most 250), and -P's wrap-around
  for (size_t count : {4, 5}) {  // an even and an odd basis
    auto primes = nttPrimes(logN, 50, count);
    const size_t m = primes.size(), cols = m + 3;
    auto t = buildTable(TableKind::IcrtWinograd, primes, logN, Dq, 52);
    ASSERT_EQ(t.size(), Dq * cols);
    mpz_t P, x, y;
    mpz_init_set_ui(P, 1);
    mpz_inits(x, y, nullptr);
    for (uint64_t p : primes) mpz_mul_ui(P, P, p);
    auto column = [&](mpz_t out, size_t j) { digitColumn(out, t, Dq, cols, j); };
    for (size_t j = 0; j < m; ++j) {
      column(x, j);
      mpz_divexact_ui(y, P, primes[j]);
      mpz_fdiv_r_2exp(y, y, 51 * Dq);
      EXPECT_EQ(mpz_cmp(x, y), 0) << "prime " << j;
    }
    column(x, m + 2);  // -P mod 2^(51 Dq)
    mpz_add(x, x, P);
    mpz_fdiv_r_2exp(x, x, 51 * Dq);
    EXPECT_EQ(mpz_sgn(x), 0);
    for (int c = 0; c < Dq; ++c) {
      const uint64_t *r = t.data() + c * cols;
      EXPECT_TRUE(holdsPairProductSum(r, m - m % 2, r[m], r[m + 1])) << "column " << c;
    }
    mpz_clears(P, x, y, nullptr);
  }
  EXPECT_THROW(buildTable(TableKind::IcrtWinograd, nttPrimes(logN, 50, 4), logN, Dq, 64), Error);  // base 2^52 only
}

// An icrt_sum window's columns (base 2^51): the digits of (P/p_j) 2^shift,
// the Winograd correction of each column and the digits of P 2^shift, over
// exactly the columns P 2^shift needs.
TEST(Tables, IcrtWindowBase52) {
  const int logN = 10;
  for (size_t count : {3, 4})
    for (int64_t shift : {0, 37, 50}) {
      auto primes = nttPrimes(logN, 50, count);
      const size_t m = primes.size(), cols = m + 3;
      auto t = buildTable(TableKind::IcrtWindow, primes, logN, shift, 52);
      mpz_t P, x, y;
      mpz_init_set_ui(P, 1);
      mpz_inits(x, y, nullptr);
      for (uint64_t p : primes) mpz_mul_ui(P, P, p);
      const int64_t rows = fhec::abi::icrtWindowColumns(shift, int64_t(mpz_sizeinbase(P, 2)));
      ASSERT_EQ(t.size(), size_t(rows) * cols);
      auto column = [&](mpz_t out, size_t j) { digitColumn(out, t, rows, cols, j); };
      for (size_t j = 0; j < m; ++j) {
        column(x, j);
        mpz_divexact_ui(y, P, primes[j]);
        mpz_mul_2exp(y, y, unsigned(shift));
        EXPECT_EQ(mpz_cmp(x, y), 0) << "prime " << j << ", shift " << shift;
      }
      column(x, m + 2);
      mpz_mul_2exp(y, P, unsigned(shift));
      EXPECT_EQ(mpz_cmp(x, y), 0) << "P, shift " << shift;
      for (int64_t c = 0; c < rows; ++c) {
        const uint64_t *r = t.data() + c * cols;
        EXPECT_TRUE(holdsPairProductSum(r, m - m % 2, r[m], r[m + 1])) << "column " << c;
      }
      mpz_clears(P, x, y, nullptr);
    }
  EXPECT_THROW(buildTable(TableKind::IcrtWindow, nttPrimes(logN, 50, 4), logN, 51, 52), Error);  // shift below 51
  EXPECT_THROW(buildTable(TableKind::IcrtWindow, nttPrimes(logN, 50, 4), logN, 0, 64), Error);   // base 2^52 only
}

// The 8-lane radix-8 tail's twiddles: per group of 64 residues (8 blocks of
// 8), the twiddle of sub-stage d, twiddle group e and lane l (block 8 V + l)
// is the table's whole value (the one-group sub-stage) or the product of a
// lane factor in the header and a group factor.
TEST(Tables, TailTwiddlesFollowTheBlockLayout) {
  const int logN = 8;
  const size_t N = 1u << logN, s0 = logN - 3;
  auto primes = nttPrimes(logN, 50, 2);
  for (int inverse : {0, 1}) {
    auto tail = buildTable(TableKind::NttTailTwiddles, primes, logN, inverse, 52);
    auto tw = buildTable(inverse ? TableKind::InttTwiddles : TableKind::NttTwiddles, primes, logN, 0, 52);
    size_t rowWords = fhec::abi::kTailHeaderWords + N / 64 * fhec::abi::kTailWordsPerGroup;
    ASSERT_EQ(tail.size(), primes.size() * rowWords);
    for (size_t j = 0; j < primes.size(); ++j) {
      const uint64_t p = primes[j], *row = tail.data() + j * rowWords;
      auto checkShoup = [&](const uint64_t *v) {
        for (int l = 0; l < 8; ++l) EXPECT_EQ(v[8 + l], shoupPrecompute(v[l], p, 52));
      };
      for (size_t V = 0; V < N / 64; ++V) {
        const uint64_t *g = row + fhec::abi::kTailHeaderWords + V * fhec::abi::kTailWordsPerGroup;
        int header = 0, factored = 0;
        for (int d = 0; d < 3; ++d) {
          int groups = inverse ? 4 >> d : 1 << d;
          for (int e = 0; e < groups; ++e)
            for (int l = 0; l < 8; ++l) {
              size_t blk = 8 * V + size_t(l);
              size_t idx = inverse ? (N >> (d + 1)) + blk * size_t(groups) + size_t(e) : (size_t(1) << (s0 + d)) + (blk << d) + size_t(e);
              uint64_t want = tw[j * N + idx];
              if (groups == 1) {
                EXPECT_EQ(g[l], want);
                checkShoup(g);
              } else {
                const uint64_t *G = row + (header + e) * 16, *H = g + 16 + 2 * factored;
                EXPECT_EQ(mulMod(G[l], H[0], p), want) << "d " << d << " e " << e << " V " << V;
                EXPECT_EQ(H[1], shoupPrecompute(H[0], p, 52));
                checkShoup(G);
              }
            }
          if (groups > 1) {
            header += groups;
            ++factored;
          }
        }
      }
    }
  }
  EXPECT_THROW(buildTable(TableKind::NttTailTwiddles, primes, 5, 0, 52), Error);  // below 8 blocks of 8
}

TEST(Tables, ParametersOutOfRangeAreRefused) {
  auto primes = selectBasis(10, 60, 300);
  auto message = [&](TableKind k, int64_t param) {
    try {
      buildTable(k, primes, 10, param);
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message(TableKind::CrtPowers, 0).find("out of range for table 'crt_powers'"), std::string::npos);
  EXPECT_NE(message(TableKind::IcrtP, 99).find("out of range"), std::string::npos);
  EXPECT_NE(message(TableKind::IcrtColumns, 0).find("out of range"), std::string::npos);
  EXPECT_NE(message(TableKind::IcrtColumns30, 99).find("out of range for table 'icrt_columns30'"), std::string::npos);
  EXPECT_NE(message(TableKind::IncompleteZeta, 10).find("out of range"), std::string::npos);
  EXPECT_NE(message(TableKind::NttTwiddles, 1).find("out of range"), std::string::npos);
  EXPECT_TRUE(message(TableKind::IncompleteZeta, 9).empty());
}
