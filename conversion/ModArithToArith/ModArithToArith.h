// The portable expansion of modarith into arith, shared by the targets.
#pragma once

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace fhec {

/// Builds arith ops elementwise on scalars or vectors of `type`.
struct Emit {
  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::Type type;
  mlir::Value constant(int64_t v);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value mulHi(mlir::Value x, mlir::Value y);
  mlir::Value minu(mlir::Value x, mlir::Value y);
  /// k p for a power of two k.
  mlir::Value times(mlir::Value p, int64_t k);
  /// x in [0, 2 bound) -> [0, bound): min(x, x - bound).
  mlir::Value condSub(mlir::Value x, mlir::Value bound);
  /// A Barrett remainder r in [0, 3p) to [0, out p): out = 1 or 2 (else as is).
  mlir::Value reduceBarrett(mlir::Value r, mlir::Value p, int64_t out);
  mlir::Value zext(mlir::Value bit);
  mlir::Value shr(mlir::Value x, int64_t s);
  mlir::Value shl(mlir::Value x, int64_t s);
  mlir::Value bitAnd(mlir::Value x, mlir::Value y);
  mlir::Value bitOr(mlir::Value x, mlir::Value y);
};

/// The lowerings that do not depend on the multiplier base: add, sub,
/// reduce, the multi-word accumulations (mac, mac_lazy, mac_split).
void populateModArithBasePatterns(mlir::RewritePatternSet &patterns);
/// The multi-word accumulations alone (mac, mac_lazy, mac_split).
void populateModArithWidePatterns(mlir::RewritePatternSet &patterns);

} // namespace fhec
