// The bounds every number of a program is checked against (dialect verifiers,
// passes and the runtime share them): within these, every size computed from
// the parameters fits its integer type and every kernel has a bounded loop.
#pragma once
#include <cstddef>

namespace fhec::limits {

constexpr unsigned kMinLogN = 2;            ///< N = 2^logN, ring dimension
constexpr unsigned kMaxLogN = 17;
constexpr unsigned kMaxLogQ = 4096;         ///< top ciphertext modulus Q = 2^logQ (bits)
/// BigInt polynomials inside HE Mul reach q·Q² (region 2 of Fig. 2) and a few
/// guard bits: 4096 + 2·4096 + 17 + 4 < 16384.
constexpr unsigned kMaxPolyLogq = 16384;
/// An RNS basis covers at most this many bits (region 2's bound, above).
constexpr unsigned kMaxBasisBits = 16384;
/// 16384 bits of primes of at least logN + 2 = 19 bits (large rings) or at
/// least 4 bits: the basis product check rejects anything beyond this count.
constexpr size_t kMaxBasisPrimes = 4096;
/// An iCRT's `addend` (a small signed polynomial) has at most this many
/// bits: |e| < 2^29 stays below every prime of every target (30-bit on cuda),
/// so e mod p_j is e or e + p_j.
constexpr unsigned kMaxAddendBits = 30;

} // namespace fhec::limits
