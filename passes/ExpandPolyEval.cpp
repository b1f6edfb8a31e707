// ckks-expand-poly-eval: every ckks.poly_eval replaced by its managed
// baby-step giant-step sequence (passes/PolyEval.h).
#include "passes/Passes.h"
#include "passes/PolyEval.h"

namespace fhec {
#define GEN_PASS_DEF_CKKSEXPANDPOLYEVAL
#include "passes/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

struct CKKSExpandPolyEvalPass : public fhec::impl::CKKSExpandPolyEvalBase<CKKSExpandPolyEvalPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ckks::PolyEvalOp> ops;
    module.walk([&](ckks::PolyEvalOp op) { ops.push_back(op); });
    if (ops.empty()) return;
    ckks::ParamsAttr params = ckks::getModuleParams(module);
    if (!params) {
      module.emitError() << "ckks-expand-poly-eval requires the module attribute 'ckks.params'";
      return signalPassFailure();
    }
    OpBuilder b(&getContext());
    ScaleManager manager(b, params);
    for (ckks::PolyEvalOp op : ops) {
      b.setInsertionPoint(op);
      auto [lo, hi] = op.getInterval();
      FailureOr<Value> r = evaluatePolynomial(manager, op.getLoc(), op.getInput(), op.getBasis(),
                                              op.getCoefficients(), lo, hi);
      if (failed(r)) return signalPassFailure();
      if (r->getType() != op.getType()) {
        op.emitOpError() << "result type must be " << r->getType() << ", the type its evaluation gives";
        return signalPassFailure();
      }
      op.replaceAllUsesWith(*r);
      op.erase();
    }
  }
};

} // namespace
