// Bootstrapping's constants from MPFR rather than the C library's cos and
// sin: the special FFT's roots of unity, 1 / 2 pi and EvalMod's Chebyshev
// coefficients are computed at kConstantBits bits and rounded once to
// double. The compiled constants, and with them every bootstrapped
// ciphertext, are then the same whichever machine or C library compiles the
// program (glibc, musl and others round cos and sin differently), and the
// Chebyshev sums lose nothing to cancellation. HEAAN 2.1 computes the same
// constants with NTL's RR.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace fhec {

/// Precision of the intermediate computations (bits).
constexpr long kConstantBits = 256;

/// e^(2 pi i k / m) for m > 0: exact where it is 0 or +-1 and +-i,
/// otherwise each part rounded to the nearest double from 256 bits.
std::complex<double> rootOfUnity(uint64_t k, uint64_t m);

/// 1 / (2 pi), rounded to the nearest double.
double inverseTwoPi();

/// The Chebyshev coefficients c_0 .. c_degree (f = sum c_k T_k on [-1, 1]) of
/// the interpolant at the degree + 1 Chebyshev points (Trefethen, Approximation
/// Theory, Ch. 3) of f(t) = cos(2 pi (t (bound + 1) - 1/4) / 2^doubleAngles):
/// EvalMod's scaled cosine (Han-Ki 2020) on [-(K + 1), K + 1]. Each is rounded
/// to the nearest double from a 256-bit sum.
std::vector<double> chebyshevCosineCoefficients(unsigned degree, unsigned bound, unsigned doubleAngles);

} // namespace fhec
