// ckks-manage-scale: rebuilds every ckks function in managed form with
// ScaleManager (dialect/CKKS/Transforms/ScaleManager.h), op by op, and retypes its results.
#include "dialect/CKKS/Transforms/Passes.h"
#include "dialect/CKKS/Transforms/ScaleManager.h"

#include "mlir/IR/IRMapping.h"

namespace fhec {
#define GEN_PASS_DEF_CKKSMANAGESCALE
#include "dialect/CKKS/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

struct CKKSManageScalePass : public fhec::impl::CKKSManageScaleBase<CKKSManageScalePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ckks::ParamsAttr params = ckks::getModuleParams(module);
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal()) continue;
      auto isCt = [](Type t) { return isa<ckks::CiphertextType>(t); };
      bool usesCkks = llvm::any_of(f.getArgumentTypes(), isCt) || llvm::any_of(f.getResultTypes(), isCt);
      f.walk([&](Operation *op) { usesCkks |= isa<ckks::CKKSDialect>(op->getDialect()); });
      if (!usesCkks) continue;
      if (!params) {
        module.emitError() << "ckks-manage-scale requires the module attribute 'ckks.params'";
        return signalPassFailure();
      }
      if (failed(manage(f, params))) return signalPassFailure();
    }
  }

  static LogicalResult manage(func::FuncOp f, ckks::ParamsAttr params) {
    if (!f.getBody().hasOneBlock())
      return f.emitOpError() << "ckks-manage-scale supports straight-line functions only (one block)";
    Block &body = f.getBody().front();
    OpBuilder b(f.getContext());
    ScaleManager manager(b, params);
    IRMapping map;
    SmallVector<Operation *> old;
    for (Operation &op : body) {
      b.setInsertionPoint(&op);
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        SmallVector<Value> results = llvm::map_to_vector(ret.getOperands(), [&](Value v) { return map.lookupOrDefault(v); });
        func::ReturnOp::create(b, ret.getLoc(), results);
        old.push_back(&op);
        f.setFunctionType(b.getFunctionType(f.getArgumentTypes(), ValueRange(results).getTypes()));
        continue;
      }
      if (!isa<ckks::CKKSDialect>(op.getDialect()))
        return op.emitOpError() << "is not supported by ckks-manage-scale";
      SmallVector<Value> operands = llvm::map_to_vector(op.getOperands(), [&](Value v) { return map.lookupOrDefault(v); });
      FailureOr<SmallVector<Value>> r = manager.rebuild(&op, operands);
      if (failed(r)) return failure();
      map.map(op.getResults(), *r);
      old.push_back(&op);
    }
    // The old ops, users first.
    for (Operation *op : llvm::reverse(old)) {
      op->dropAllUses();
      op->erase();
    }
    return success();
  }
};

} // namespace
