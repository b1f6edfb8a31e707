// ckks-expand-poly-eval: every ckks.poly_eval replaced by its managed
// baby-step giant-step sequence (passes/PolyEval.h).
#include "passes/ExpandOps.h"
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
    auto build = [](ScaleManager &m, ckks::PolyEvalOp op) {
      auto [lo, hi] = op.getInterval();
      return evaluatePolynomial(m, op.getLoc(), op.getInput(), op.getBasis(), op.getCoefficients(), lo, hi);
    };
    if (failed(expandOps<ckks::PolyEvalOp>(getOperation(), getArgument(), "its evaluation", build)))
      signalPassFailure();
  }
};

} // namespace
