// Bootstrapping (Cheon, Han, Kim, Kim, Song 2018; HEAAN 2.1) as a managed
// sequence of ckks ops, built with ScaleManager:
//
//   mod_down to q0, mod_raise to Q         t = m + q0 I(X)
//   SubSum: + rot(slots 2^i), div_by_po2   the subring's 2n coefficients T
//   relabel: scale 2^log q0, 2n slots      slot values V (T_k + i T_k+n) / q0
//   CoeffToSlot: A w + B conj(w)           slot j holds (I_j + eps_j) / (K + 1)
//   EvalMod: sin(2 pi x)                   Chebyshev cos + double angles (Han-Ki 2020)
//   SlotToCoeff: S y                       slot values V (eps_k + i eps_k+n) q0 / 2^logp
//   relabel: scale 2^logp, n slots         the message, at a fresh level
//
// Beyond 32 slots and for full slots, CoeffToSlot and SlotToCoeff are the
// special FFT's butterfly stages grouped into a level budget (Chen-Chillotti-
// Song 2019) on the n slots view, and EvalMod runs on the real and the
// imaginary parts (docs/bootstrapping.md).
//
// V is the special FFT of n slots (V_jk = psi^(k 5^j), psi = e^(i pi / 2n)),
// V^-1 = V^H / n. Everything from CoeffToSlot on computes at the working
// scale 2^log_scale.
#pragma once

#include "dialect/CKKS/Transforms/BootstrapConfig.h"
#include "dialect/CKKS/Transforms/ScaleManager.h"

#include "llvm/ADT/SmallVector.h"

#include <complex>
#include <map>
#include <vector>

namespace fhec {


/// A dense complex matrix, row-major.
using ComplexMatrix = std::vector<std::vector<std::complex<double>>>;

/// A slot matrix by its generalized diagonals: offset d in [0, size) maps to
/// diag with M[j][(j + d) mod size] = diag[j] (the linear_transform form).
using DiagonalMatrix = std::map<int64_t, std::vector<std::complex<double>>>;

/// The special FFT of n slots: V_jk = psi^(k 5^j), psi = e^(i pi / 2n) (the
/// slot j of a subring polynomial sum_k (T_k + i T_k+n) Y^k, Y = X^(N/2n)).
ComplexMatrix specialFFTMatrix(unsigned n);
/// The nonzero generalized diagonals of a square matrix.
DiagonalMatrix diagonalsOf(const ComplexMatrix &a);
/// The product a b of two size x size matrices (b applied first).
DiagonalMatrix multiply(const DiagonalMatrix &a, const DiagonalMatrix &b, unsigned size);
/// The butterfly stages of the special FFT without its bit reversal P,
/// V = S_L ... S_1 P (L = log2 n, HEAAN's fftSpecial), each with the three
/// diagonals 0, +-len/2: S_1 .. S_L, or with `inverse` S_1^-1 .. S_L^-1.
std::vector<DiagonalMatrix> specialFFTStages(unsigned n, bool inverse);
/// `stages` (in the order they apply) multiplied into `levels` groups of
/// consecutive ones, the first groups one stage longer when they do not
/// divide evenly; a group of k stages has at most 2^(k+1) - 1 diagonals.
std::vector<DiagonalMatrix> groupStages(llvm::ArrayRef<DiagonalMatrix> stages, unsigned levels, unsigned size);

/// CoeffToSlot on the 2n slots view of an n-slot ciphertext: (A, B), 2n x 2n,
/// with y = A w + B conj(w) holding the subring coefficients y_j (real), j < 2n,
/// of the polynomial whose 2n slots view is w, times `factor`. Each of the n
/// values, which the view repeats, is read half from each copy.
std::pair<ComplexMatrix, ComplexMatrix> coeffToSlotMatrices(unsigned n, double factor);
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
