// Security estimate of RLWE parameters (docs/security.md).
//
// - Uniform ternary secret: the HE Standard v2 tables (Bossuat et al.,
//   "Security Guidelines for Implementing Homomorphic Encryption", ePrint
//   2024/463, Table 5.2: classical, ternary secret, sigma = 3.19), the
//   largest log2(QP) for N = 2^10 .. 2^17 at 128, 192 and 256 bits; between
//   columns the level is interpolated linearly in 1/log2(QP); outside the
//   table it is extrapolated, flagged and never granted.
// - Sparse secret (exactly h coefficients in {-1, 1}): the cheapest of the
//   lattice attacks on sparse secrets (usvp, bdd, the primal hybrids with and
//   without meet-in-the-middle, the MATZOV dual hybrid) in a re-implementation
//   of the lattice estimator's models (LatticeEstimator.h).
#pragma once
#include "fhec/runtime/Secret.h"

#include <string>

namespace fhec::rt {

struct SecurityEstimate {
  double bits = 0;            ///< estimated classical security (bits), the cheapest attack's
  int logN = 0;               ///< ring dimension N = 2^logN
  int logModulus = 0;         ///< log2 of the modulus the key is made for (P·Q for key-switching keys)
  SecretKind secret = SecretKind::Ternary;
  int h = 0;                  ///< Hamming weight (Sparse only)
  double sigma = 0;           ///< error standard deviation
  /// "HE Standard v2 tables (ePrint 2024/463, Table 5.2)" or the model's name.
  std::string method;
  /// The cheapest attack's name for the model ("primal hybrid (MITM)", "usvp", ...); empty for the tables.
  std::string attack;
  bool extrapolated = false;  ///< outside what the method covers; then the estimate is not granted
  bool smallSigma = false;    ///< sigma below 3.19
  /// "about 131 bits (HE Standard v2 tables, uniform ternary secret, N = 2^16, log2 of the largest modulus = 1700)".
  std::string summary() const;
  /// Why the real level may be lower (extrapolation, small sigma); empty if none.
  std::string caveats() const;
  /// summary(), and "; " and caveats() if there are any.
  std::string str() const;
  /// True only where the method says >= level bits and the inputs are within
  /// what it covers (conservative: never grants what the method does not support).
  bool grants(int level) const;
};

/// Estimates the security of RLWE with ring dimension 2^logN, a modulus of
/// logModulus bits, the given secret (h: its Hamming weight, Sparse only) and
/// a discrete Gaussian error of standard deviation sigma. Deterministic, at
/// most a few milliseconds (sparse estimates are memoised). Throws Error for
/// logN outside [2, 17], a modulus of fewer than 1 bit, or a Sparse secret
/// with h < 1 or h > N.
SecurityEstimate estimateSecurity(int logN, int logModulus, SecretKind secret, int h, double sigma);

} // namespace fhec::rt
