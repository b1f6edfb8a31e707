// The iCRT family's shared pieces (Jung et al. 2021, Algo. 5 and 6): the
// per-op context every form reads (Icrt.cpp), and the forms kept in files of
// their own: the digit matrix (IcrtDigits.cpp: IFMA, 32-bit targets), the
// windowed sums of fhe.icrt_sum (IcrtWindow.cpp) and the GPU tile
// (IcrtGpu.cpp). docs/design.md, "Lowering structure", says how they relate.
#pragma once

#include "conversion/FHEToLoops/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace fhec {

/// The double v in W lanes (a scalar for W = 1).
mlir::Value f64Splat(KernelBuilder &kb, double v, int64_t W);
/// X mod 2^logq of a block: the bits above logq in the top limb cleared.
void maskTopLimb(KernelBuilder &kb, const CoeffRef &out, fhe::PolyType t, int64_t B);
/// Normalized D-bit columns (a (Dq, B) scratch) to the result's Lq limbs:
/// limb w is bits [shift + 64 w, shift + 64 w + 64), from column
/// (shift + 64 w) / D on (static shifts).
void columnsToLimbs(KernelBuilder &kb, mlir::Value digits, const CoeffRef &out, int64_t B, int64_t W, int64_t D,
                    int64_t Dq, int64_t Lq, int64_t shiftBits);
/// x += 2^bit mod 2^(64 L) for each coefficient of a block (the 64-bit
/// forms' rounding before their shift): one carry chain over the limbs.
void addPowerOfTwo(KernelBuilder &kb, const CoeffRef &x, int64_t B, int64_t bit, int64_t L);

/// One iCRT's basis, domain and constants, and the steps its forms share.
struct IcrtContext {
  KernelBuilder &kb;
  fhe::IcrtOp op;
  fhe::BasisAttr basis;
  bool scaled;
  int64_t m, Lq;
  unsigned logN;
  mlir::Value consts;
  CoeffRef addend;  ///< the `addend` operand's block (mem null without one)

  /// e mod p_j of the addend's coefficients i .. i + W - 1: its limb read as
  /// a signed integer of its logq bits (|e| < 2^29 < p_j), plus p_j if negative.
  mlir::Value addendResidue(mlir::Value i, mlir::Value p, int64_t W);
  /// temp_j of residues x of coefficients i .. i + W - 1: x (P/p_j)^-1 mod
  /// p_j, or x itself for a coeff_scaled input (in [0, 2p) then); with an
  /// addend e, that of x + e mod p_j.
  mlir::Value tempOf(mlir::Value x, mlir::Value i, mlir::Value inv, mlir::Value invShoup, mlir::Value p, int64_t W);
  /// temp_j of coefficient i and its contribution to f.
  std::pair<mlir::Value, mlir::Value> temp(const CoeffRef &in, mlir::Value i, mlir::Value j);
  /// round(f) as an i64.
  mlir::Value roundToInt(mlir::Value f);
  mlir::Value zeroF();
  mlir::Value addF(mlir::Value x, mlir::Value y);

  /// Algo. 5 for one coefficient: a BigInt accumulator of PLimbs + 1 words,
  /// row j adding temp_j * (P/p_j); then the low Lq words of acc - k P.
  void operandScan(const CoeffRef &in, const CoeffRef &out, mlir::Value i);
  /// Algo. 6 on a block of B coefficients in 64-bit columns (Icrt.cpp).
  void matrix(const CoeffRef &in, const CoeffRef &out, int64_t B, int64_t shiftBits, int64_t roundBit,
              bool exactAlways);
  /// Algo. 6 over D-bit digits, D < 64 (IcrtDigits.cpp).
  void digitMatrix(const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D, int64_t shiftBits,
                   bool exactAlways);
};

/// fhe.icrt_sum on IFMA, in 51-bit columns (IcrtWindow.cpp).
void emitIcrtWindowDigitSum(KernelBuilder &kb, fhe::IcrtSumOp op, llvm::ArrayRef<CoeffRef> ins,
                            const CoeffRef *addend, const CoeffRef &out, int64_t B);
/// fhe.icrt_sum in the 64-bit form, one coefficient at a time (IcrtWindow.cpp).
void emitIcrtWindowLimbSum(KernelBuilder &kb, fhe::IcrtSumOp op, llvm::ArrayRef<CoeffRef> ins,
                           const CoeffRef *addend, const CoeffRef &out, int64_t B);

} // namespace fhec
