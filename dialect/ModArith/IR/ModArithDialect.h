// The modarith dialect: modular arithmetic with lazy-reduction ranges, the
// target-parameterized layer below fhec's kernel loops.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/ModArith/IR/ModArithDialect.h.inc"

#define GET_OP_CLASSES
#include "dialect/ModArith/IR/ModArithOps.h.inc"
