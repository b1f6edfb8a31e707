// fhec's passes (declared in Passes.td) and pipeline registration.
#pragma once

#include "dialect/CKKS/CKKSDialect.h"
#include "dialect/FHE/FHEDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace fhec {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// Prime width (bits) fhe-select-basis uses for a target; 0 for an unknown target.
unsigned primeBitsForTarget(llvm::StringRef target);

} // namespace fhec
