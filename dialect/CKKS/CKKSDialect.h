// The ckks dialect: scheme-level CKKS ciphertexts and operations.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <complex>
#include <vector>

#include "dialect/CKKS/CKKSDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/CKKS/CKKSAttributes.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialect/CKKS/CKKSTypes.h.inc"
#define GET_OP_CLASSES
#include "dialect/CKKS/CKKSOps.h.inc"

namespace fhec::ckks {
/// The `ckks.params` attribute of the module enclosing `op`, or null.
ParamsAttr getModuleParams(mlir::Operation *op);
} // namespace fhec::ckks
