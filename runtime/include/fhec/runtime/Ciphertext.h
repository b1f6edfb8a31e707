// A CKKS ciphertext in HEAAN's form: (ax, bx) mod q = 2^logq, decrypting to
// bx + ax * s = m + e with the message scaled by 2^logp.
#pragma once
#include "fhec/runtime/BigPoly.h"

#include <cstdio>
#include <string>
#include <utility>

namespace fhec::rt {

/// Names the key set (secret, public and evaluation key of one key
/// generation) that a key or ciphertext belongs to: 128 bits drawn from the
/// CSPRNG by generateKeys, so that keys and ciphertexts of different key sets
/// are told apart (a mix-up check, not an authentication). All zero: unknown
/// (a ciphertext built without one, e.g. by an evaluator that does not carry it).
struct KeySetId {
  uint64_t lo = 0, hi = 0;

  bool known() const { return (lo | hi) != 0; }
  bool operator==(const KeySetId &o) const { return lo == o.lo && hi == o.hi; }
  bool operator!=(const KeySetId &o) const { return !(*this == o); }
  /// 32 hex digits, or "(none)" when unknown.
  std::string str() const {
    if (!known()) return "(none)";
    char buf[33];
    std::snprintf(buf, sizeof(buf), "%016llx%016llx", (unsigned long long)hi, (unsigned long long)lo);
    return buf;
  }
};

struct Ciphertext {
  BigPoly ax, bx;    ///< each (N, limbs(logq)) words
  int logp = 0;      ///< scale of the message (bits)
  int slots = 0;     ///< number of complex slots
  KeySetId keySet;   ///< the key set of the public key it was encrypted with

  Ciphertext() = default;
  /// Also what `Ciphertext{ax, bx, logp, slots}` calls (a constructor rather
  /// than an aggregate, so that leaving keySet out is not a warning).
  Ciphertext(BigPoly ax, BigPoly bx, int logp, int slots, KeySetId keySet = {})
      : ax(std::move(ax)), bx(std::move(bx)), logp(logp), slots(slots), keySet(keySet) {}

  int logN() const { return ax.logN; }
  int logq() const { return ax.logq; }
  /// Compares the ciphertext itself (the bit-exactness oracle), not keySet.
  bool operator==(const Ciphertext &o) const {
    return ax == o.ax && bx == o.bx && logp == o.logp && slots == o.slots;
  }
};

/// A ciphertext whose words live in someone else's buffer (a transport
/// buffer, fhec.ray's object store): what Executor::run reads in place of a
/// Ciphertext, without copying 2 (N, limbs(logq)) words first.
struct CiphertextView {
  const uint64_t *ax = nullptr, *bx = nullptr;  ///< each (N, limbs(logq)) words
  int logN = 0, logq = 0, logp = 0, slots = 0;
  KeySetId keySet;

  CiphertextView() = default;
  /// A view of c (valid while c lives and is not resized). c.ax and c.bx
  /// must have one modulus.
  explicit CiphertextView(const Ciphertext &c)
      : ax(c.ax.words.data()), bx(c.bx.words.data()), logN(c.logN()), logq(c.logq()), logp(c.logp),
        slots(c.slots), keySet(c.keySet) {}
};

} // namespace fhec::rt
