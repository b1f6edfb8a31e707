#include "fhec/runtime/Tables.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Limits.h"
#include "fhec/runtime/Modular.h"
#include "fhec/runtime/Primes.h"

#include <cstring>
#include <gmp.h>

namespace fhec::rt {

using abi::TableKind;

namespace {
struct MpzProduct {
  mpz_t P;
  explicit MpzProduct(const std::vector<uint64_t> &primes) {
    mpz_init_set_ui(P, 1);
    for (uint64_t p : primes) mpz_mul_ui(P, P, p);
  }
  ~MpzProduct() { mpz_clear(P); }
};

size_t bitReverse(size_t x, int bits) {
  size_t r = 0;
  for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

// The low `limbs` words of v (v >= 0), zero-extended.
void exportLimbs(const mpz_t v, uint64_t *dst, int64_t limbs) {
  size_t count = 0;
  std::vector<uint64_t> all((mpz_sizeinbase(v, 2) + 63) / 64 + 1, 0);
  mpz_export(all.data(), &count, -1, sizeof(uint64_t), 0, 0, v);
  for (int64_t i = 0; i < limbs; ++i) dst[i] = size_t(i) < all.size() ? all[i] : 0;
}

// The low `count` digits of v >= 0 in base 2^bits (bits <= 64).
std::vector<uint64_t> exportDigits(const mpz_t v, int bits, int64_t count) {
  std::vector<uint64_t> d(size_t(count), 0);
  mpz_t x, r;
  mpz_init_set(x, v);
  mpz_init(r);
  for (int64_t i = 0; i < count; ++i) {
    mpz_fdiv_r_2exp(r, x, unsigned(bits));
    uint64_t lo = 0;
    mpz_export(&lo, nullptr, -1, sizeof(uint64_t), 0, 0, r);
    d[size_t(i)] = lo;
    mpz_fdiv_q_2exp(x, x, unsigned(bits));
  }
  mpz_clears(x, r, nullptr);
  return d;
}

// Bits of the digits of an iCRT column table: the module's Shoup base, or
// the GPU's 30 for the *30 tables.
int icrtDigitBits(TableKind kind, int shoupBits) {
  return kind == TableKind::IcrtColumns30 || kind == TableKind::IcrtNegP30 ? abi::kGpuDigitBits : shoupBits;
}

// psi^bitrev(i) (or its inverse) for i in [0, N): Algo. 3's TBW / TBinvW.
std::vector<uint64_t> twiddles(uint64_t p, int logN, bool inverse) {
  size_t N = size_t(1) << logN;
  uint64_t psi = primitiveRoot2N(p, logN);
  if (inverse) psi = invMod(psi, p);
  std::vector<uint64_t> t(N);
  uint64_t w = 1;
  for (size_t i = 0; i < N; ++i) {
    t[bitReverse(i, logN)] = w;
    w = mulMod(w, psi, p);
  }
  return t;
}
// The Winograd columns of an iCRT table of rows [T_0 .. T_m-1, B lo, B hi,
// last]: B_c = sum over full pairs of primes T_j[c] T_j+1[c] in words of 52
// bits and the rest, and `last` (a digit per row) in the final column.
void winogradColumns(std::vector<uint64_t> &t, size_t m, const std::vector<uint64_t> &last) {
  const size_t cols = m + 3;
  for (size_t c = 0; c < last.size(); ++c) {
    uint64_t *r = t.data() + c * cols;
    u128 b = 0;
    for (size_t i = 0; i + 1 < m; i += 2) b += (u128)r[i] * r[i + 1];
    r[m] = uint64_t(b) & ((uint64_t(1) << 52) - 1);
    r[m + 1] = uint64_t(b >> 52);
    r[m + 2] = last[c];
  }
}
} // namespace

int productBits(const std::vector<uint64_t> &primes) {
  MpzProduct prod(primes);
  return int(mpz_sizeinbase(prod.P, 2));
}

int productLimbs(const std::vector<uint64_t> &primes) { return (productBits(primes) + 63) / 64; }

namespace {

// The per-prime rows of one table: its parameters, the product P of its
// primes and a scratch integer.
struct TableContext {
  TableKind kind;
  const std::vector<uint64_t> &primes;
  int logN;
  int64_t param;
  int shoupBits;
  size_t m, N;
  abi::TableShape shape;
  std::vector<uint64_t> &t;
  const MpzProduct &prod;
  mpz_t tmp;
  uint64_t shoup(uint64_t y, uint64_t p) const { return shoupPrecompute(y, p, shoupBits); }
};

// A parameter out of the table kind's range is an error (a manifest asks for
// any table).
void checkTableParam(TableKind kind, int64_t param, int logN, int pLimbs, int shoupBits) {
  bool paramOk = true;
  switch (kind) {
  case TableKind::CrtPowers:
  case TableKind::CrtPowers28: paramOk = param >= 1 && param <= 4096; break;
  case TableKind::CrtCenter: paramOk = param >= 1 && param <= int64_t(limits::kMaxPolyLogq); break;
  case TableKind::CrtWinograd: paramOk = shoupBits == 52 && param >= 2 && param <= 4096 && param % 2 == 0; break;
  case TableKind::IcrtPDivP:
  case TableKind::IcrtP: paramOk = param >= 0 && param <= pLimbs; break;
  case TableKind::IcrtColumns:
  case TableKind::IcrtNegP:
  case TableKind::IcrtColumns30:
  case TableKind::IcrtNegP30: paramOk = param >= 1 && param <= 64 * pLimbs / icrtDigitBits(kind, shoupBits) + 1; break;
  case TableKind::IcrtWinograd: paramOk = shoupBits == 52 && param >= 1 && param <= 64 * pLimbs / 51 + 2; break;
  case TableKind::IcrtWindow: paramOk = shoupBits == 52 && param >= 0 && param < 51; break;
  case TableKind::InttConsts:
  case TableKind::IncompleteZeta: paramOk = param >= 0 && param < logN; break;
  case TableKind::NttTailTwiddles: paramOk = (param == 0 || param == 1) && logN >= 6; break;
  case TableKind::NttTwiddles:
  case TableKind::InttTwiddles: paramOk = param == 0 || (param == 1 && shoupBits == 32); break;
  default: paramOk = param == 0; break;
  }
  if (!paramOk)
    throw Error("table construction: parameter " + std::to_string(param) + " is out of range for table '" +
                abi::tableKindName(kind) + "'");
}

// PrimeConsts: the prime's Barrett, Shoup, iCRT and CRT constants (Abi.h's columns).
void primeConstsRow(TableContext &c, uint64_t *row, uint64_t p) {
  const int shoupBits = c.shoupBits;
  const size_t N = c.N;
  mpz_t &tmp = c.tmp;
  const MpzProduct &prod = c.prod;
  auto shoup = [&](uint64_t y, uint64_t q) { return c.shoup(y, q); };
  int b = 64 - __builtin_clzll(p);
  row[abi::kPrime] = p;
  // Barrett's factor for the multiplier: see modarith.mul_barrett's lowerings.
  row[abi::kBarrettMu] = uint64_t(((u128)1 << (shoupBits == 52 ? b + 50 : 2 * b)) / p);
  row[abi::kBarrettShift] = uint64_t(b);
  uint64_t nInv = invMod(N % p, p);
  row[abi::kNInv] = nInv;
  row[abi::kNInvShoup] = shoup(nInv, p);
  mpz_divexact_ui(tmp, prod.P, p);
  uint64_t icrtInv = invMod(mpz_fdiv_ui(tmp, p), p);
  row[abi::kIcrtInv] = icrtInv;
  row[abi::kIcrtInvShoup] = shoup(icrtInv, p);
  double inv = 1.0 / double(p);
  std::memcpy(&row[abi::kInvPrimeF64], &inv, sizeof(double));
  uint64_t beta = uint64_t(((u128)1 << shoupBits) % p);
  uint64_t beta2 = mulMod(beta, beta, p);
  row[abi::kBetaMod] = beta;
  row[abi::kBetaModShoup] = shoup(beta, p);
  row[abi::kBeta2Mod] = beta2;
  row[abi::kBeta2ModShoup] = shoup(beta2, p);
  row[abi::kOneShoup] = shoup(1, p);
}

// NttTailTwiddles: the twiddles of the NTT's last three stages in the
// AVX-512 tail's order.
void nttTailRow(const TableContext &c, uint64_t *row, uint64_t p) {
  const int logN = c.logN;
  const size_t N = c.N;
  const int64_t param = c.param;
  auto shoup = [&](uint64_t y, uint64_t q) { return c.shoup(y, q); };
  // Forward: sub-level s0 = logN - 3, sub-stage d, group e, lane l of group V:
  // index 2^(s0+d) + (8 V + l) 2^d + e = [2^(s0+d) + l 2^d + e] + [V 2^(d+3)].
  // Inverse: sub-stage d, group g: index N / 2^(d+1) + (8 V + l) 2^(2-d) + g
  // = [N / 2^(d+1) + l 2^(2-d) + g] + [V 2^(5-d)]. The bits of the two parts
  // are disjoint, so the twiddle is the product of the twiddles at each.
  bool inverse = param == 1;
  std::vector<uint64_t> w = twiddles(p, logN, inverse);
  size_t s0 = size_t(logN) - 3;
  auto groups = [&](int d) { return inverse ? 4 >> d : 1 << d; };
  auto fixedPart = [&](int d, int e, int l) {
    return inverse ? (N >> (d + 1)) + size_t(l << (2 - d)) + size_t(e)
                   : (size_t(1) << (s0 + d)) + size_t(l << d) + size_t(e);
  };
  auto groupPart = [&](int d, size_t V) { return inverse ? V << (5 - d) : V << (d + 3); };
  uint64_t *out = row;
  for (int d = 0; d < 3; ++d)
    if (groups(d) > 1)
      for (int e = 0; e < groups(d); ++e)
        for (int shoupPart = 0; shoupPart < 2; ++shoupPart)
          for (int l = 0; l < abi::kTailLanes; ++l) {
            uint64_t g = w[fixedPart(d, e, l)];
            *out++ = shoupPart ? shoup(g, p) : g;
          }
  for (size_t V = 0; V < N / 64; ++V) {
    int whole = inverse ? 2 : 0;
    for (int shoupPart = 0; shoupPart < 2; ++shoupPart)
      for (int l = 0; l < abi::kTailLanes; ++l) {
        uint64_t t = w[fixedPart(whole, 0, l) + groupPart(whole, V)];
        *out++ = shoupPart ? shoup(t, p) : t;
      }
    for (int d = 0; d < 3; ++d)
      if (groups(d) > 1) {
        uint64_t h = w[groupPart(d, V)];
        *out++ = h;
        *out++ = shoup(h, p);
      }
  }
}

// The iCRT tables of prime j (P/p_j's limbs or digits, P's, -P's, Winograd's
// columns, a window's).
void icrtRows(TableContext &c, size_t j, uint64_t p, uint64_t *row) {
  const TableKind kind = c.kind;
  const int64_t param = c.param;
  const int shoupBits = c.shoupBits;
  const size_t m = c.m;
  const abi::TableShape &shape = c.shape;
  std::vector<uint64_t> &t = c.t;
  mpz_t &tmp = c.tmp;
  const MpzProduct &prod = c.prod;
  switch (kind) {
  case TableKind::IcrtPDivP:
    mpz_divexact_ui(tmp, prod.P, p);
    exportLimbs(tmp, row, shape.cols);
    break;
  case TableKind::IcrtP:
    if (j == 0) exportLimbs(prod.P, t.data(), shape.cols);
    break;
  case TableKind::IcrtColumns:
  case TableKind::IcrtColumns30: {
    mpz_divexact_ui(tmp, prod.P, p);
    std::vector<uint64_t> digits = exportDigits(tmp, icrtDigitBits(kind, shoupBits), param);
    for (int64_t c = 0; c < param; ++c) t[size_t(c) * m + j] = digits[size_t(c)];
    break;
  }
  case TableKind::IcrtNegP:
  case TableKind::IcrtNegP30:
    if (j == 0) {
      // (-P) mod 2^(bits param) = 2^(bits param) - P (P below it by the range check).
      int bits = icrtDigitBits(kind, shoupBits);
      mpz_ui_pow_ui(tmp, 2, unsigned(bits * param));
      mpz_sub(tmp, tmp, prod.P);
      mpz_fdiv_r_2exp(tmp, tmp, unsigned(bits * param));
      std::vector<uint64_t> digits = exportDigits(tmp, bits, param);
      std::copy(digits.begin(), digits.end(), t.begin());
    }
    break;
  case TableKind::IcrtWinograd: {
    // Digits of 51 bits: with temp_j < 2 p_j < 2^51, a temp plus a digit stays below 2^52.
    const size_t cols = m + 3;
    mpz_divexact_ui(tmp, prod.P, p);
    std::vector<uint64_t> digits = exportDigits(tmp, 51, param);
    for (int64_t c = 0; c < param; ++c) t[size_t(c) * cols + j] = digits[size_t(c)];
    if (j + 1 < m) break;
    mpz_ui_pow_ui(tmp, 2, unsigned(51 * param));
    mpz_sub(tmp, tmp, prod.P);
    mpz_fdiv_r_2exp(tmp, tmp, unsigned(51 * param));
    winogradColumns(t, m, exportDigits(tmp, 51, param));
    break;
  }
  case TableKind::IcrtWindow: {
    // As IcrtWinograd's columns, of (P/p_j) 2^param, and P 2^param itself
    // instead of its negation (the window's columns are a band of the
    // result's: k P is subtracted there, with signed accumulators).
    const size_t cols = m + 3;
    const int64_t rows = shape.rows;
    mpz_divexact_ui(tmp, prod.P, p);
    mpz_mul_2exp(tmp, tmp, unsigned(param));
    std::vector<uint64_t> digits = exportDigits(tmp, 51, rows);
    for (int64_t c = 0; c < rows; ++c) t[size_t(c) * cols + j] = digits[size_t(c)];
    if (j + 1 < m) break;
    mpz_mul_2exp(tmp, prod.P, unsigned(param));
    winogradColumns(t, m, exportDigits(tmp, 51, rows));
    break;
  }
  default: break;
  }
}

// Row j (prime p) of the table, or its share of a column-major one.
void fillPrime(TableContext &c, size_t j) {
  const TableKind kind = c.kind;
  const uint64_t p = c.primes[j];
  const int logN = c.logN;
  const int64_t param = c.param;
  const int shoupBits = c.shoupBits;
  const size_t N = c.N;
  mpz_t &tmp = c.tmp;
  const MpzProduct &prod = c.prod;
  auto shoup = [&](uint64_t y, uint64_t q) { return c.shoup(y, q); };
  bool columnMajor = kind == TableKind::IcrtColumns || kind == TableKind::IcrtNegP ||
                     kind == TableKind::IcrtColumns30 || kind == TableKind::IcrtNegP30 ||
                     kind == TableKind::IcrtWinograd || kind == TableKind::IcrtWindow;
  uint64_t *row = c.t.data() + (columnMajor ? 0 : j * size_t(c.shape.cols));
  switch (kind) {
  case TableKind::PrimeConsts: primeConstsRow(c, row, p); break;
  case TableKind::NttTwiddles:
  case TableKind::NttTwiddlesShoup:
  case TableKind::InttTwiddles:
  case TableKind::InttTwiddlesShoup: {
    bool inverse = kind == TableKind::InttTwiddles || kind == TableKind::InttTwiddlesShoup;
    bool isShoup = kind == TableKind::NttTwiddlesShoup || kind == TableKind::InttTwiddlesShoup;
    std::vector<uint64_t> w = twiddles(p, logN, inverse);
    // param 1: the twiddle's 32-bit Shoup constant in the high half of its word.
    for (size_t i = 0; i < N; ++i)
      row[i] = isShoup ? shoup(w[i], p) : param ? w[i] | shoup(w[i], p) << 32 : w[i];
    break;
  }
  case TableKind::CrtPowers:
  case TableKind::CrtPowers28: {
    int digitBits = kind == TableKind::CrtPowers28 ? abi::kGpuCrtDigitBits : shoupBits;
    uint64_t beta = uint64_t(((u128)1 << digitBits) % p), x = 1 % p;
    for (int64_t k = 0; k < param; ++k) {
      row[k] = x;
      x = mulMod(x, beta, p);
    }
    break;
  }
  case TableKind::CrtWinograd: {
    // 51-bit digits: every s_k < p < 2^50, so a digit plus a power stays below 2^52.
    uint64_t base = uint64_t(((u128)1 << (shoupBits - 1)) % p), x = 1 % p;
    u128 b = 0;
    for (int64_t k = 0; k < param; ++k) {
      row[k] = x;
      x = mulMod(x, base, p);
      if (k % 2) b += (u128)row[k - 1] * row[k];
    }
    row[param] = uint64_t(b) & ((uint64_t(1) << 52) - 1);
    row[param + 1] = uint64_t(b >> 52);
    break;
  }
  case TableKind::CrtCenter: {
    row[0] = (p - powMod(2 % p, uint64_t(param), p)) % p;
    break;
  }
  case TableKind::IcrtPDivP:
  case TableKind::IcrtP:
  case TableKind::IcrtColumns:
  case TableKind::IcrtColumns30:
  case TableKind::IcrtNegP:
  case TableKind::IcrtNegP30:
  case TableKind::IcrtWinograd:
  case TableKind::IcrtWindow: icrtRows(c, j, p, row); break;
  case TableKind::InttConsts: {
    // n = 2^(logN - param) points; last GS stage twiddle w = psi^-bitrev(1).
    uint64_t c = invMod((uint64_t(1) << (logN - param)) % p, p);
    uint64_t w = invMod(powMod(primitiveRoot2N(p, logN), N / 2, p), p);
    mpz_divexact_ui(tmp, prod.P, p);
    uint64_t icrt = mulMod(c, invMod(mpz_fdiv_ui(tmp, p), p), p);
    uint64_t vals[4] = {c, mulMod(c, w, p), icrt, mulMod(icrt, w, p)};
    for (int v = 0; v < 4; ++v) {
      row[2 * v] = vals[v];
      row[2 * v + 1] = shoup(vals[v], p);
    }
    break;
  }
  case TableKind::NttTailTwiddles: nttTailRow(c, row, p); break;
  case TableKind::IncompleteZeta: {
    // Block b of the incomplete NTT is a polynomial mod X^(2^param) - zeta_b
    // with zeta_b = psi^(2 bitrev(N / 2^param + b)): the square of the twiddle
    // the first skipped stage would use.
    std::vector<uint64_t> w = twiddles(p, logN, false);
    size_t blocks = N >> param;
    for (size_t b = 0; b < blocks; ++b) {
      uint64_t z = mulMod(w[blocks + b], w[blocks + b], p);
      row[b] = z;
      row[blocks + b] = shoup(z, p);
    }
    break;
  }
  }
}

} // namespace

std::vector<uint64_t> buildTable(TableKind kind, const std::vector<uint64_t> &primes, int logN, int64_t param,
                                 int shoupBits) {
  const size_t m = primes.size(), N = size_t(1) << logN;
  const int pBits = productBits(primes), pLimbs = (pBits + 63) / 64;
  if (shoupBits != 64 && shoupBits != 52 && shoupBits != 32)
    throw Error("table construction: Shoup base 2^" + std::to_string(shoupBits) + " is not 2^64, 2^52 or 2^32");
  checkTableParam(kind, param, logN, pLimbs, shoupBits);
  abi::TableShape shape = abi::tableShape(kind, int64_t(m), logN, param, pBits);
  std::vector<uint64_t> t(size_t(shape.rows * shape.cols), 0);
  MpzProduct prod(primes);
  TableContext c{kind, primes, logN, param, shoupBits, m, N, shape, t, prod, {}};
  mpz_init(c.tmp);
  for (size_t j = 0; j < m; ++j) {
    const uint64_t p = primes[j];
    if (p >= (uint64_t(1) << (shoupBits - 2)) || (p - 1) % (2 * N) != 0) {
      mpz_clear(c.tmp);
      throw Error("table construction: " + std::to_string(p) + " is not an NTT prime below 2^" +
                  std::to_string(shoupBits - 2) + " for N = " + std::to_string(N));
    }
    fillPrime(c, j);
  }
  mpz_clear(c.tmp);
  return t;
}

} // namespace fhec::rt
