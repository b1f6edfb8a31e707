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
/// Number of bits of P = prod(primes).
int productBits(const std::vector<uint64_t> &primes);

/// Builds the table `kind` for `primes` (an RNS basis of NTT primes for
/// N = 2^logN), row-major with the shape abi::tableShape gives; `param` is the
/// kind's parameter (Abi.h) and `shoupBits` the Shoup base beta of the module's
/// target (64 or 52). Throws Error if a prime is not 1 mod 2N, is too wide for
/// the Shoup base, or `param` is out of range for the kind.
std::vector<uint64_t> buildTable(abi::TableKind kind, const std::vector<uint64_t> &primes, int logN,
                                 int64_t param, int shoupBits = 64);

} // namespace fhec::rt
