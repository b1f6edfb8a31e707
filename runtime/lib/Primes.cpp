#include "fhec/runtime/Primes.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Modular.h"

#include <gmp.h>
#include <string>

namespace fhec::rt {

bool isPrime(uint64_t n) {
  if (n < 2) return false;
  for (uint64_t p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37})
    if (n % p == 0) return n == p;
  uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) { d >>= 1; ++s; }
  // These bases make Miller-Rabin exact below 2^64.
  for (uint64_t a : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
    uint64_t x = powMod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int r = 1; r < s; ++r) {
      x = mulMod(x, x, n);
      if (x == n - 1) { composite = false; break; }
    }
    if (composite) return false;
  }
  return true;
}

static void checkWidth(int logN, int bits) {
  if (logN < 1 || logN > 20)
    throw Error("prime generator: logN = " + std::to_string(logN) + " is outside [1, 20]");
  if (bits < logN + 2 || bits > 62)
    throw Error("prime generator: prime width " + std::to_string(bits) +
                " bits is outside [logN + 2, 62] = [" + std::to_string(logN + 2) + ", 62]");
}

std::vector<uint64_t> nttPrimes(int logN, int bits, size_t count) {
  checkWidth(logN, bits);
  const uint64_t step = uint64_t(2) << logN;  // 2N
  const uint64_t low = uint64_t(1) << (bits - 1);
  std::vector<uint64_t> primes;
  // Largest candidate k*2N + 1 below 2^bits.
  uint64_t c = (((uint64_t(1) << bits) - 2) / step) * step + 1;
  for (; primes.size() < count && c > low; c -= step)
    if (isPrime(c)) primes.push_back(c);
  if (primes.size() < count)
    throw Error("prime generator: only " + std::to_string(primes.size()) + " primes p = 1 mod 2N of " +
                std::to_string(bits) + " bits exist for logN = " + std::to_string(logN) + ", " +
                std::to_string(count) + " requested (too few primes: use wider primes)");
  return primes;
}

std::vector<uint64_t> selectBasis(int logN, int bits, unsigned minBits) {
  checkWidth(logN, bits);
  // Each prime contributes at least bits-1 bits, so this many always suffice.
  size_t upper = minBits / (bits - 1) + 1;
  std::vector<uint64_t> all = nttPrimes(logN, bits, upper);
  mpz_t P;
  mpz_init_set_ui(P, 1);
  std::vector<uint64_t> basis;
  for (uint64_t p : all) {
    basis.push_back(p);
    mpz_mul_ui(P, P, p);
    if (mpz_sizeinbase(P, 2) > minBits) break;  // P >= 2^minBits
  }
  mpz_clear(P);
  return basis;
}

uint64_t primitiveRoot2N(uint64_t p, int logN) {
  const uint64_t twoN = uint64_t(2) << logN;
  if ((p - 1) % twoN != 0)
    throw Error("prime " + std::to_string(p) + " is not 1 mod 2N for logN = " + std::to_string(logN));
  for (uint64_t x = 2; x < p; ++x) {
    uint64_t g = powMod(x, (p - 1) / twoN, p);
    if (powMod(g, twoN >> 1, p) == p - 1) return g;
  }
  throw Error("no primitive 2N-th root of unity mod " + std::to_string(p));
}

} // namespace fhec::rt
