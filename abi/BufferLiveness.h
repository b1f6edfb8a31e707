// Live ranges of a lowered function's kernel buffers, shared by the memory
// planner and the heap fallback: each top-level memref.alloc that is not
// returned (itself or through a view) lives from its position to the last
// top-level op using it or a view of it (positions count the ops of the
// single-block body).
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace fhec {

struct BufferLiveness {
  mlir::memref::AllocOp alloc;
  int64_t start = 0, end = 0;
  mlir::Operation *lastUse = nullptr;  ///< the top-level op at `end`
};

/// Fails (with a diagnostic) on a multi-block body or a use outside the body.
mlir::FailureOr<llvm::SmallVector<BufferLiveness>> bufferLiveness(mlir::func::FuncOp f);

} // namespace fhec
