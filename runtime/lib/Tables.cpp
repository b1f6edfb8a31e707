#include "fhec/runtime/Tables.h"
#include "fhec/runtime/Error.h"
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

void exportLimbs(const mpz_t v, uint64_t *dst, int limbs) {
  std::memset(dst, 0, limbs * sizeof(uint64_t));
  size_t count = 0;
  mpz_export(dst, &count, -1, sizeof(uint64_t), 0, 0, v);
}
} // namespace

int productLimbs(const std::vector<uint64_t> &primes) {
  MpzProduct prod(primes);
  return int((mpz_sizeinbase(prod.P, 2) + 63) / 64);
}

size_t tableWords(TableKind kind, size_t m, int logN, int limbs, int pLimbs) {
  size_t N = size_t(1) << logN;
  switch (kind) {
  case TableKind::PrimeConsts: return m * abi::kPrimeConstCols;
  case TableKind::NttTwiddles:
  case TableKind::NttTwiddlesShoup:
  case TableKind::InttTwiddles:
  case TableKind::InttTwiddlesShoup: return m * N;
  case TableKind::CrtPowers: return m * size_t(limbs);
  case TableKind::IcrtPDivP: return m * size_t(pLimbs);
  case TableKind::IcrtP: return size_t(pLimbs);
  }
  return 0;
}

std::vector<uint64_t> buildTable(TableKind kind, const std::vector<uint64_t> &primes, int logN, int limbs) {
  const size_t m = primes.size(), N = size_t(1) << logN;
  const int pLimbs = productLimbs(primes);
  std::vector<uint64_t> t(tableWords(kind, m, logN, limbs, pLimbs), 0);
  MpzProduct prod(primes);
  mpz_t tmp;
  mpz_init(tmp);
  for (size_t j = 0; j < m; ++j) {
    const uint64_t p = primes[j];
    if (p >= (uint64_t(1) << 62) || (p - 1) % (2 * N) != 0)
      throw Error("table construction: " + std::to_string(p) + " is not an NTT prime below 2^62 for N = " +
                  std::to_string(N));
    switch (kind) {
    case TableKind::PrimeConsts: {
      uint64_t *row = t.data() + j * abi::kPrimeConstCols;
      int b = 64 - __builtin_clzll(p);
      row[abi::kPrime] = p;
      row[abi::kBarrettMu] = uint64_t(((u128)1 << (2 * b)) / p);
      row[abi::kBarrettShift] = uint64_t(b);
      uint64_t nInv = invMod(N % p, p);
      row[abi::kNInv] = nInv;
      row[abi::kNInvShoup] = shoupPrecompute(nInv, p);
      mpz_divexact_ui(tmp, prod.P, p);
      uint64_t icrtInv = invMod(mpz_fdiv_ui(tmp, p), p);
      row[abi::kIcrtInv] = icrtInv;
      row[abi::kIcrtInvShoup] = shoupPrecompute(icrtInv, p);
      double inv = 1.0 / double(p);
      std::memcpy(&row[abi::kInvPrimeF64], &inv, sizeof(double));
      uint64_t beta = uint64_t(((u128)1 << 64) % p);
      uint64_t beta2 = mulMod(beta, beta, p);
      row[abi::kBetaMod] = beta;
      row[abi::kBetaModShoup] = shoupPrecompute(beta, p);
      row[abi::kBeta2Mod] = beta2;
      row[abi::kBeta2ModShoup] = shoupPrecompute(beta2, p);
      row[abi::kOneShoup] = shoupPrecompute(1, p);
      break;
    }
    case TableKind::NttTwiddles:
    case TableKind::NttTwiddlesShoup:
    case TableKind::InttTwiddles:
    case TableKind::InttTwiddlesShoup: {
      bool inverse = kind == TableKind::InttTwiddles || kind == TableKind::InttTwiddlesShoup;
      bool shoup = kind == TableKind::NttTwiddlesShoup || kind == TableKind::InttTwiddlesShoup;
      uint64_t psi = primitiveRoot2N(p, logN);
      if (inverse) psi = invMod(psi, p);
      uint64_t w = 1;
      uint64_t *row = t.data() + j * N;
      for (size_t i = 0; i < N; ++i) {
        size_t r = bitReverse(i, logN);
        row[r] = shoup ? shoupPrecompute(w, p) : w;
        w = mulMod(w, psi, p);
      }
      break;
    }
    case TableKind::CrtPowers: {
      uint64_t beta = uint64_t(((u128)1 << 64) % p), x = 1 % p;
      for (int k = 0; k < limbs; ++k) {
        t[j * limbs + k] = x;
        x = mulMod(x, beta, p);
      }
      break;
    }
    case TableKind::IcrtPDivP:
      mpz_divexact_ui(tmp, prod.P, p);
      exportLimbs(tmp, t.data() + j * pLimbs, pLimbs);
      break;
    case TableKind::IcrtP:
      if (j == 0) exportLimbs(prod.P, t.data(), pLimbs);
      break;
    }
  }
  mpz_clear(tmp);
  return t;
}

} // namespace fhec::rt
