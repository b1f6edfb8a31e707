// fhec's lowerings (declared in conversion/Passes.td): ckks-to-fhe,
// fhe-to-loops, the modarith target lowerings and the GPU kernels'
// lowering to the runtime's launch hooks (and to the CPU execution).
#pragma once

#include "dialect/CKKS/IR/CKKSDialect.h"
#include "dialect/FHE/IR/FHEDialect.h"
#include "dialect/ModArith/IR/ModArithDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace fhec {

#define GEN_PASS_DECL
#include "conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "conversion/Passes.h.inc"

} // namespace fhec
