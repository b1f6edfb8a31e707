// The automorphisms phi_g: X -> X^g (g odd) of Z[X]/(X^N + 1) that move the
// slots of a CKKS plaintext: g = 5^r mod 2N rotates them left by r (slot j
// takes slot j + r; HEAAN 2.1's leftRotate and rotGroup), g = 2N - 1
// conjugates them (HEAAN's conjugate). Coefficient i goes to index i g mod 2N;
// an index >= N wraps to index - N with its value negated (X^N = -1).
#pragma once
#include "fhec/runtime/BigPoly.h"

#include <cstdint>
#include <vector>

namespace fhec::rt {

/// The Galois element of a left rotation by r slots: 5^(r mod N/2) mod 2N.
/// A right rotation by r is the left rotation by N/2 - r (HEAAN's
/// rightRotate), which negative r gives. Throws Error for logN out of range.
uint64_t galoisForRotation(int logN, int64_t r);
/// The Galois element of slot conjugation: 2N - 1.
uint64_t galoisForConjugation(int logN);
/// Throws Error unless g is odd and in [3, 2N) (1 is the identity, which
/// needs no key).
void checkGalois(int logN, uint64_t g);

/// Where phi_g sends coefficient i: (destination index, negated).
struct AutomorphismImage {
  size_t index;
  bool negated;
};
AutomorphismImage automorphismImage(size_t i, int logN, uint64_t g);

/// phi_g(a) mod q (a negated coefficient becomes q - x).
BigPoly automorphism(const BigPoly &a, uint64_t g);
/// The correction mu of the signed automorphism: phi_g(a) read as an integer
/// polynomial with coefficients in (-q, q) (HEAAN keeps -x, not q - x) equals
/// automorphism(a, g) - q mu, where mu_j = 1 exactly where a nonzero
/// coefficient was negated.
std::vector<int8_t> automorphismWraps(const BigPoly &a, uint64_t g);
/// phi_g of a small signed polynomial (the secret key s for s(X^g)).
std::vector<int8_t> automorphism(const std::vector<int8_t> &s, int logN, uint64_t g);

} // namespace fhec::rt
