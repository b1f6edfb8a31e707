// Scalar modular arithmetic on 64-bit words (host side: tables, keys, tests).
#pragma once
#include <cstdint>

namespace fhec::rt {

using u128 = unsigned __int128;

inline uint64_t mulMod(uint64_t a, uint64_t b, uint64_t p) {
  return static_cast<uint64_t>((u128)a * b % p);
}

inline uint64_t powMod(uint64_t a, uint64_t e, uint64_t p) {
  uint64_t r = 1 % p;
  a %= p;
  while (e) {
    if (e & 1) r = mulMod(r, a, p);
    a = mulMod(a, a, p);
    e >>= 1;
  }
  return r;
}

/// a^-1 mod p for prime p and a != 0 mod p (Fermat).
inline uint64_t invMod(uint64_t a, uint64_t p) { return powMod(a, p - 2, p); }

/// Shoup's precomputation floor(y * 2^bits / p) for y < p (Algo. 2's Y_Shoup);
/// bits is the multiplier width of the target (64 scalar, 52 IFMA).
inline uint64_t shoupPrecompute(uint64_t y, uint64_t p, int bits = 64) {
  return static_cast<uint64_t>(((u128)y << bits) / p);
}

/// Shoup's ModMul (Algo. 2): x*y mod p for any 64-bit x, y < p < 2^63.
inline uint64_t mulModShoup(uint64_t x, uint64_t y, uint64_t yShoup, uint64_t p) {
  uint64_t q = static_cast<uint64_t>(((u128)x * yShoup) >> 64);
  uint64_t r = x * y - q * p;
  return r >= p ? r - p : r;
}

} // namespace fhec::rt
