// The fhe-level transforms (declared in Passes.td beside this file).
#pragma once

#include "dialect/FHE/IR/FHEDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace fhec {

#define GEN_PASS_DECL
#include "dialect/FHE/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialect/FHE/Transforms/Passes.h.inc"

} // namespace fhec
