// The CRT family's digit form (Jung et al. 2021, Algo. 1 over D-bit digits,
// D < 64), shared by the CPU block form (Crt.cpp: IFMA's 52-bit digits) and
// the GPU forms (CrtGpu.cpp: 28-bit digits in the tiled launch, 32-bit ones
// in place; one launch per batch of CRTs):
// the tables, the bounds of the lazy sums and the final reduction of a
// residue's dot product. docs/design.md, "Lowering structure", says how the
// forms relate.
#pragma once

#include "conversion/FHEToLoops/Patterns.h"

#include "fhec/runtime/Tables.h"

namespace fhec {

/// A `centered` CRT's term for W coefficients i ..: (-2^logq) mod p_j where
/// the input's top bit is set, zero where it is clear (CrtCenter table).
mlir::Value centerTerm(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, mlir::Value i, mlir::Value center,
                       mlir::Value j, int64_t W);

/// One CRT op in the digit form: its parameters and tables, set up in the
/// constructor; the CPU block form (Crt.cpp) stages the block's digits there
/// too (in, out, B), the GPU forms (`gpu`: in and out empty, B = 1) read
/// theirs in place.
struct CrtDigitForm {
  CrtDigitForm(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B, unsigned D,
               bool gpu);

  /// The block form: every residue of the block's coefficients into `out` (Crt.cpp).
  void emitBlock();
  /// The GPU forms: the CRT of each of `ins` into the same member of `outs` (CrtGpu.cpp).
  void emitGpu(llvm::ArrayRef<mlir::Value> ins, llvm::ArrayRef<mlir::Value> outs);

  /// The residue mod p_j of the dot product lo + hi 2^D of W coefficients.
  /// lo + hi 2^D = l + h0 2^D + h1 2^(2D), each part below 2^D, h0 reduced
  /// with Shoup, h1 (small) with Shoup or a word multiply. (Winograd: lo and
  /// hi are signed, their sum lo + hi 2^D is not: an arithmetic shift carries
  /// lo's sign, and h >= 0.) The prime's constants are row j of the
  /// PrimeConsts table `cs`. cTerm is a centered CRT's term.
  mlir::Value finish(mlir::Value lo, mlir::Value hi, mlir::Value cs, mlir::Value j, mlir::Value cTerm);

  KernelBuilder &kb;
  fhe::CrtOp op;
  const CoeffRef &in, &out;
  int64_t B;
  unsigned D;
  fhe::BasisAttr basis;
  int64_t L, m, pb, wordBits;
  bool matrix;
  int64_t from, bits;
  bool winograd;
  unsigned Dd;  ///< bits per input digit
  int64_t real, top, nd, W;
  mlir::Value consts, pow, center;
  mlir::Value digits;  ///< the block's digits, (nd, B) (the block form)
  mlir::Value corr;    ///< Winograd: A of each coefficient (low and high words), (2, B)
  mlir::Value zero, mask, shift;
  bool lazySum;
  int64_t h1Max;
  bool wordH1;

private:
  void stageDigits();
  void residues(mlir::Value j0, int64_t n, mlir::Value i0, int64_t V);
};

} // namespace fhec
