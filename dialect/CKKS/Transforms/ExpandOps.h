// The shared body of the ckks expansion passes (ckks-expand-poly-eval,
// ckks-expand-bootstrap): every op of one kind replaced by the managed
// sequence that is its semantics.
#pragma once

#include "dialect/CKKS/Transforms/ScaleManager.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace fhec {

/// Replaces every `Op` in `module` by `build(manager, op)`, built before it;
/// fails after a diagnostic when the module has no ckks.params, a build
/// fails, or its type differs from the op's declared one (`what` names the
/// expansion in that message).
template <typename Op>
mlir::LogicalResult expandOps(mlir::ModuleOp module, llvm::StringRef pass, llvm::StringRef what,
                              llvm::function_ref<mlir::FailureOr<mlir::Value>(ScaleManager &, Op)> build) {
  llvm::SmallVector<Op> ops;
  module.walk([&](Op op) { ops.push_back(op); });
  if (ops.empty()) return mlir::success();
  ckks::ParamsAttr params = ckks::getModuleParams(module);
  if (!params) return module.emitError() << pass << " requires the module attribute 'ckks.params'";
  mlir::OpBuilder b(module.getContext());
  ScaleManager manager(b, params);
  for (Op op : ops) {
    b.setInsertionPoint(op);
    mlir::FailureOr<mlir::Value> r = build(manager, op);
    if (mlir::failed(r)) return mlir::failure();
    if (r->getType() != op.getType())
      return op.emitOpError() << "result type must be " << r->getType() << ", the type " << what << " gives";
    op.replaceAllUsesWith(*r);
    op.erase();
  }
  return mlir::success();
}

} // namespace fhec
