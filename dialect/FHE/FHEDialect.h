// The fhe dialect: BigInt and RNS polynomials and the kernel ops of HE Mul.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/FHE/FHEDialect.h.inc"
#include "dialect/FHE/FHEEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/FHE/FHEAttributes.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialect/FHE/FHETypes.h.inc"
#define GET_OP_CLASSES
#include "dialect/FHE/FHEOps.h.inc"
