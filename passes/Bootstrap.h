// Bootstrapping (Cheon, Han, Kim, Kim, Song 2018; HEAAN 2.1's sparse-slot
// form) as a managed sequence of ckks ops, built with ScaleManager:
//
//   mod_down to q0, mod_raise to Q         t = m + q0 I(X)
//   SubSum: + rot(slots 2^i), div_by_po2   the subring's 2n coefficients T
//   relabel: scale 2^log q0, 2n slots      slot values V (T_k + i T_k+n) / q0
//   CoeffToSlot: A w + B conj(w)           slot j holds T_j / q0 = I_j + eps_j
//   EvalMod: sin(2 pi x)                   Chebyshev cos + double angles (Han-Ki 2020)
//   SlotToCoeff: S y                       slot values V (eps_k + i eps_k+n) q0 / 2^logp
//   relabel: scale 2^logp, n slots         the message, at a fresh level
//
// V is the special FFT of n slots (V_jk = psi^(k 5^j), psi = e^(i pi / 2n)),
// V^-1 = V^H / n. Everything from CoeffToSlot on computes at the working
// scale 2^log q0.
#pragma once

#include "passes/ScaleManager.h"

#include <complex>
#include <vector>

namespace fhec {

struct BootstrapConfig {
  unsigned modLogq = 0;       ///< log2 q0, the modulus the input is raised from (bits)
  unsigned bound = 16;        ///< |I| <= bound on EvalMod's input integers
  unsigned degree = 23;       ///< the Chebyshev interpolant's degree
  unsigned doubleAngles = 4;  ///< double-angle steps after it
  unsigned logScale = 0;      ///< the working scale (bits), from CoeffToSlot on
};

/// A dense complex matrix, row-major.
using ComplexMatrix = std::vector<std::vector<std::complex<double>>>;

/// CoeffToSlot on the 2n slots view of an n-slot ciphertext: (A, B), 2n x 2n,
/// with y = A w + B conj(w) holding the subring coefficients y_j (real), j < 2n,
/// of the polynomial whose 2n slots view is w. Each of the n values, which
/// the view repeats, is read half from each copy.
std::pair<ComplexMatrix, ComplexMatrix> coeffToSlotMatrices(unsigned n);
/// SlotToCoeff, 2n x 2n: from real slots y (the 2n subring coefficients) to
/// the 2n slots view of their polynomial, times `factor`.
ComplexMatrix slotToCoeffMatrix(unsigned n, double factor);
/// The Chebyshev coefficients (degree + 1, on [-1, 1] after mapping
/// [-bound - 1, bound + 1]) of cos(2 pi (x - 1/4) / 2^doubleAngles).
std::vector<double> evalModCoefficients(const BootstrapConfig &c);

/// A ckks.bootstrap op's configuration.
BootstrapConfig configOf(ckks::BootstrapOp op);

/// The bootstrapped x (ckks.bootstrap's semantics), built at `m`'s insertion
/// point; fails after a diagnostic at loc (too little modulus, full slots).
mlir::FailureOr<mlir::Value> buildBootstrap(ScaleManager &m, mlir::Location loc, mlir::Value x,
                                            const BootstrapConfig &c);

} // namespace fhec
