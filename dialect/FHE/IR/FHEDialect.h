// The fhe dialect: BigInt and RNS polynomials and the kernel ops of HE Mul.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/FHE/IR/FHEDialect.h.inc"
#include "dialect/FHE/IR/FHEEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/FHE/IR/FHEAttributes.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialect/FHE/IR/FHETypes.h.inc"
#define GET_OP_CLASSES
#include "dialect/FHE/IR/FHEOps.h.inc"

namespace fhec::fhe {
/// Whether a and b are the same op on values of the same types with the same
/// attributes: kernels that may share one launch (fhe-fuse's batches).
bool sameShape(mlir::Operation *a, mlir::Operation *b);
/// The `levels` of an fhe.ntt or fhe.intt (their ODS accessors); none for
/// any other op or where the attribute is absent.
std::optional<llvm::ArrayRef<int64_t>> transformLevels(mlir::Operation *op);
/// Sets the `levels` of an fhe.ntt or fhe.intt.
void setTransformLevels(mlir::Operation *op, llvm::ArrayRef<int64_t> levels);
/// The coefficient `block` of an fhe.crt or fhe.icrt; none for any other op
/// or where the attribute is absent.
std::optional<uint64_t> conversionBlock(mlir::Operation *op);
/// Whether an fhe.crt or fhe.icrt has its `order` set.
bool hasConversionOrder(mlir::Operation *op);
/// Sets the `order` and `block` of an fhe.crt or fhe.icrt.
void setConversionOrder(mlir::Operation *op, Order order, uint64_t block);
} // namespace fhec::fhe
