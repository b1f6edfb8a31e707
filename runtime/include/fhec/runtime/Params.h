// CKKS parameters in HEAAN's power-of-two modulus form (Jung et al. 2021, Table 6).
#pragma once
#include <cstddef>
#include <string>

namespace fhec::rt {

struct Params {
  int logN = 16;       ///< ring dimension N = 2^logN
  int logQ = 1200;     ///< top ciphertext modulus Q = 2^logQ (bits); evk is mod Q^2
  int logp = 30;       ///< scaling factor p = 2^logp (bits)
  int h = 64;          ///< Hamming weight of the ternary secret key
  double sigma = 3.2;  ///< standard deviation of the discrete Gaussian error

  size_t N() const { return size_t(1) << logN; }
  /// Throws Error naming the first inconsistent field.
  void validate() const;
  /// Throws Error unless a ciphertext (logq, logp, slots) fits these parameters.
  void validateCiphertext(int logq, int logp, int slots) const;
  std::string str() const;
  bool operator==(const Params &o) const {
    return logN == o.logN && logQ == o.logQ && logp == o.logp && h == o.h && sigma == o.sigma;
  }
};

} // namespace fhec::rt
