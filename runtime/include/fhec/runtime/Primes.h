// Deterministic NTT-friendly primes: the single generator shared by the
// compiler (fhe-select-basis) and the runtime, so both agree on every RNS basis.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fhec::rt {

/// Deterministic Miller-Rabin, exact for all 64-bit n.
bool isPrime(uint64_t n);

/// The first `count` primes p with p = 1 (mod 2N), p < 2^bits, in descending
/// order from 2^bits. Throws Error if bits is outside [logN + 2, 62] or fewer
/// than `count` such primes have exactly `bits` bits.
std::vector<uint64_t> nttPrimes(int logN, int bits, size_t count);

/// The shortest prefix of nttPrimes(logN, bits, ...) whose product P satisfies
/// P >= 2^minBits (the RNS basis of one region of HE Mul). Throws Error when
/// the generator runs out of primes of that width.
std::vector<uint64_t> selectBasis(int logN, int bits, unsigned minBits);

/// The smallest primitive 2N-th root of unity psi mod p (psi^N = -1).
uint64_t primitiveRoot2N(uint64_t p, int logN);

} // namespace fhec::rt
