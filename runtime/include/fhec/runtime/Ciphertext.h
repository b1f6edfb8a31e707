// A CKKS ciphertext in HEAAN's form: (ax, bx) mod q = 2^logq, decrypting to
// bx + ax * s = m + e with the message scaled by 2^logp.
#pragma once
#include "fhec/runtime/BigPoly.h"

namespace fhec::rt {

struct Ciphertext {
  BigPoly ax, bx;  ///< each (N, limbs(logq)) words
  int logp = 0;    ///< scale of the message (bits)
  int slots = 0;   ///< number of complex slots

  int logN() const { return ax.logN; }
  int logq() const { return ax.logq; }
  bool operator==(const Ciphertext &o) const {
    return ax == o.ax && bx == o.bx && logp == o.logp && slots == o.slots;
  }
};

} // namespace fhec::rt
