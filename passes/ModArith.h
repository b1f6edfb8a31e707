// Modular arithmetic on i64 SSA values, expanded into arith ops: Shoup's
// ModMul (Jung et al. 2021, Algo. 2), Barrett reduction of a 128-bit product,
// modular add/sub for primes below 2^62, and multi-word carries.
#pragma once

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace fhec {

class ModArith {
public:
  ModArith(mlir::OpBuilder &b, mlir::Location loc) : bp(&b), loc(loc) {}

  mlir::Value c64(int64_t v);
  mlir::Value cidx(int64_t v);
  /// (lo, hi) of the 128-bit product x * y.
  std::pair<mlir::Value, mlir::Value> mulWide(mlir::Value x, mlir::Value y);
  /// (sum, carry as 0/1 i64) of x + y.
  std::pair<mlir::Value, mlir::Value> addCarry(mlir::Value x, mlir::Value y);
  /// (difference, borrow as 0/1 i64) of x - y - borrowIn.
  std::pair<mlir::Value, mlir::Value> subBorrow(mlir::Value x, mlir::Value y, mlir::Value borrowIn);
  /// x >= p ? x - p : x.
  mlir::Value condSub(mlir::Value x, mlir::Value p);
  /// x * y mod p for any 64-bit x and y < p < 2^63, yShoup = floor(y 2^64 / p) (Algo. 2).
  mlir::Value mulShoup(mlir::Value x, mlir::Value y, mlir::Value yShoup, mlir::Value p);
  /// x * y mod p for x, y < p of b bits, mu = floor(2^(2b) / p) (Barrett).
  mlir::Value mulBarrett(mlir::Value x, mlir::Value y, mlir::Value p, mlir::Value mu, mlir::Value bits);
  /// (x + y) mod p and (x - y) mod p for x, y < p < 2^62.
  mlir::Value addMod(mlir::Value x, mlir::Value y, mlir::Value p);
  mlir::Value subMod(mlir::Value x, mlir::Value y, mlir::Value p);

private:
  mlir::OpBuilder *bp;
  mlir::Location loc;
};

} // namespace fhec
