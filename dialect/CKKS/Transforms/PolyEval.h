// Polynomial evaluation on a ciphertext (ckks.poly_eval, fhec.polyval):
// Chebyshev series by baby-step giant-step (Han–Ki 2020, Bossuat et al. 2021
// Algo. 2), built with ScaleManager so every product is rescaled.
//
// Schedule, for a series of degree d on [a, b] (docs/ckks.md):
//  - t = (2x - a - b) / (b - a): one mul_const and one add_const (none on [-1, 1]);
//  - baby steps T_1..T_{k-1}, k = 2^ceil(l/2), l = ceil(log2(d + 1)), and giant
//    steps T_k, T_2k, ..., T_{2^(l-1)}, by T_2n = 2 T_n^2 - 1 and
//    T_2n+1 = 2 T_n+1 T_n - T_1 (T_i at depth ceil(log2 i));
//  - p = q T_M + r (M the largest power of two <= deg p) recursively, each part
//    with a depth budget: q gets one level less than p; a part of degree < k
//    is a sum of scalar multiples of baby steps when that fits its budget, and
//    is split further (down to T_1) when it does not.
// Depth l (plus one for the interval scaling) and about 2 sqrt(d) + log d
// products of ciphertexts; 2 T is T + T and +-1, +-2 multiples are free.
#pragma once

#include "dialect/CKKS/Transforms/ScaleManager.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace fhec {

/// The Chebyshev coefficients, lowest degree first, on [-1, 1] after mapping
/// [a, b] to it, of the polynomial sum_i power[i] x^i on [a, b].
std::vector<double> powerToChebyshev(llvm::ArrayRef<double> power, double a, double b);

struct PolyEvalCounts {
  unsigned products = 0;  // ciphertext-ciphertext products (ckks.mul)
  unsigned scalars = 0;   // mul_const
};

/// sum_i c[i] T_i(t(x)) (basis "chebyshev") or sum_i c[i] x^i (basis
/// "power"), x on [a, b], built at `m`'s insertion point; fails after a
/// diagnostic at loc (ckks::checkPolynomial's message, or too little depth).
mlir::FailureOr<mlir::Value> evaluatePolynomial(ScaleManager &m, mlir::Location loc, mlir::Value x,
                                                llvm::StringRef basis, llvm::ArrayRef<double> coefficients,
                                                double a, double b, PolyEvalCounts *counts = nullptr);

} // namespace fhec
