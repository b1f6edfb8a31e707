// CKKS parameters in HEAAN's power-of-two modulus form (Jung et al. 2021, Table 6).
#pragma once
#include <cstddef>
#include <string>

#include "fhec/runtime/Secret.h"

namespace fhec::rt {

struct Params {
  int logN = 16;       ///< ring dimension N = 2^logN
  int logQ = 1200;     ///< top ciphertext modulus Q = 2^logQ (bits); keys are mod P Q
  int logp = 30;       ///< scaling factor p = 2^logp (bits)
  /// The secret key's distribution (Secret.h): uniform ternary by default,
  /// or sparse with exactly h nonzero coefficients (HEAAN 2.1: h = 64).
  SecretKind secret = SecretKind::Ternary;
  int h = 0;           ///< Hamming weight of a sparse secret; 0 for a ternary one
  double sigma = 3.2;  ///< standard deviation of the discrete Gaussian error
  /// Digits of hybrid key switching (Han–Ki 2020, Sec. 3): the special
  /// modulus is P = 2^logP() with logP() = ceil(logQ / dnum) bits, and a
  /// key-switching key has one part per digit of that width. dnum = 1 is
  /// HEAAN's form, P = Q.
  int dnum = 1;

  size_t N() const { return size_t(1) << logN; }
  /// The largest Hamming weight of a secret key: h, or N for a ternary secret.
  size_t maxSecretWeight() const { return rt::maxSecretWeight(secret, h, N()); }
  /// HEAAN 2.1's secret: sparse of weight h.
  static Params sparse(int logN, int logQ, int logp, int h = 64) {
    Params p;
    p.logN = logN, p.logQ = logQ, p.logp = logp, p.secret = SecretKind::Sparse, p.h = h;
    return p;
  }
  /// Bits of the special modulus P: ceil(logQ / dnum).
  int logP() const { return (logQ + dnum - 1) / dnum; }
  /// Bits of the keys' modulus P Q (what the security estimate reads).
  int logKey() const { return logQ + logP(); }
  /// Throws Error naming the first inconsistent field.
  void validate() const;
  /// Throws Error unless a ciphertext (logq, logp, slots) fits these parameters.
  void validateCiphertext(int logq, int logp, int slots) const;
  std::string str() const;
  bool operator==(const Params &o) const {
    return logN == o.logN && logQ == o.logQ && logp == o.logp && secret == o.secret && h == o.h && sigma == o.sigma &&
           dnum == o.dnum;
  }
};

} // namespace fhec::rt
