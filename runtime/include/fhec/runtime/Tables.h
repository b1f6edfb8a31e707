// Precomputed tables of the kernels (NTT twiddles with Shoup constants, CRT's
// beta^k mod p_j, iCRT's (P/p_j)^-1 and P/p_j limbs), built per RNS basis.
// Layouts are the ones fhec::abi::TableKind documents.
#pragma once
#include "fhec/runtime/Abi.h"

#include <cstdint>
#include <vector>

namespace fhec::rt {

/// Number of 64-bit limbs of P = prod(primes).
int productLimbs(const std::vector<uint64_t> &primes);

/// Builds the table `kind` for `primes` (an RNS basis of NTT primes for
/// N = 2^logN). `limbs` is the input width L of CrtPowers and is ignored
/// otherwise. Throws Error if a prime is not 1 mod 2N.
std::vector<uint64_t> buildTable(abi::TableKind kind, const std::vector<uint64_t> &primes, int logN,
                                 int limbs);

/// Number of words buildTable returns.
size_t tableWords(abi::TableKind kind, size_t numPrimes, int logN, int limbs, int pLimbs);

} // namespace fhec::rt
