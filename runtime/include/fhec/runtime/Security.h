// Security estimate of RLWE parameters from the Homomorphic Encryption
// Standard's tables, as OpenFHE and SEAL use them.
//
// Sources: M. Albrecht et al., "Homomorphic Encryption Security Standard",
// HomomorphicEncryption.org, Nov. 2018, Table 1 (classical security, ternary
// secret, error sigma ~ 3.2): the largest log2 q for n = 2^10 .. 2^15 at 128,
// 192 and 256 bits; the n = 2^16 row is OpenFHE's extension of that table
// (lattice/stdlatticeparms.cpp, HEStd_ternary). Between the table's columns
// the level is interpolated linearly in 1/log2 q (the attacks' cost grows
// roughly like n / log2 q); outside them, and for n = 2^17, it is
// extrapolated the same way and flagged.
//
// The tables assume a uniform ternary secret (expected Hamming weight 2n/3).
// A sparse secret (HEAAN's h = 64) is weaker: hybrid and dual-hybrid attacks
// guess its few nonzero coefficients (Albrecht, "On dual lattice attacks
// against small-secret LWE", Eurocrypt 2017; Son and Cheon, "Revisiting the
// hybrid attack on sparse secret LWE", 2019; Cheon, Son and Yhee, "Practical
// FHE parameters against lattice attacks", ePrint 2021/039), so for it the
// estimate is an upper bound and says so.
#pragma once
#include <string>

namespace fhec::rt {

struct SecurityEstimate {
  double bits = 0;          ///< estimated classical security (bits)
  int logN = 0;             ///< ring dimension 2^logN
  int logModulus = 0;       ///< log2 of the largest modulus keys are made for (bits)
  int h = 0;                ///< secret Hamming weight
  double sigma = 0;         ///< error standard deviation
  bool extrapolated = false;  ///< outside the tables' rows or columns
  bool sparseSecret = false;  ///< h well below a uniform ternary secret's 2n/3
  bool smallSigma = false;    ///< sigma below the tables' 3.19
  /// "about 94 bits (HE Standard tables, N = 2^16, log2 of the largest modulus = 2400)".
  std::string summary() const;
  /// Why the real level may be lower (sparse secret, small sigma); empty if none.
  std::string caveats() const;
  /// summary() and caveats() in one line.
  std::string str() const;
};

/// Estimates the security of RLWE with ring dimension 2^logN, modulus of
/// logModulus bits, a ternary secret of Hamming weight h and a discrete
/// Gaussian error of width sigma. Throws Error for logN outside [2, 17] or a
/// modulus of fewer than 1 bit.
SecurityEstimate estimateSecurity(int logN, int logModulus, int h, double sigma);

} // namespace fhec::rt
