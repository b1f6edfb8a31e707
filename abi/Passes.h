// The loop- and ABI-level passes (declared in Passes.td beside this file).
#pragma once

#include "dialect/FHE/IR/FHEDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace fhec {

#define GEN_PASS_DECL
#include "abi/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "abi/Passes.h.inc"

} // namespace fhec
