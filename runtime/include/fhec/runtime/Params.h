// CKKS parameters in HEAAN's power-of-two modulus form (Jung et al. 2021, Table 6).
#pragma once
#include <cstddef>
#include <string>

namespace fhec::rt {

struct Params {
  int logN = 16;       ///< ring dimension N = 2^logN
  int logQ = 1200;     ///< top ciphertext modulus Q = 2^logQ (bits); keys are mod P Q
  int logp = 30;       ///< scaling factor p = 2^logp (bits)
  int h = 64;          ///< Hamming weight of the ternary secret key
  double sigma = 3.2;  ///< standard deviation of the discrete Gaussian error
  /// Digits of hybrid key switching (Han–Ki 2020, Sec. 3): the special
  /// modulus is P = 2^logP() with logP() = ceil(logQ / dnum) bits, and a
  /// key-switching key has one part per digit of that width. dnum = 1 is
  /// HEAAN's form, P = Q.
  int dnum = 1;

  size_t N() const { return size_t(1) << logN; }
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
    return logN == o.logN && logQ == o.logQ && logp == o.logp && h == o.h && sigma == o.sigma && dnum == o.dnum;
  }
};

} // namespace fhec::rt
