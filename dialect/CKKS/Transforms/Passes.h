// The ckks-level transforms (declared in Passes.td beside this file).
#pragma once

#include "dialect/CKKS/IR/CKKSDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace fhec {

#define GEN_PASS_DECL
#include "dialect/CKKS/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialect/CKKS/Transforms/Passes.h.inc"

} // namespace fhec
