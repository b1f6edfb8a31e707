// ckks-expand-poly-eval: every ckks.poly_eval replaced by its managed
// baby-step giant-step sequence (dialect/CKKS/Transforms/PolyEval.h).
#include "dialect/CKKS/Transforms/ExpandOps.h"
#include "dialect/CKKS/Transforms/Passes.h"
#include "dialect/CKKS/Transforms/PolyEval.h"

namespace fhec {
#define GEN_PASS_DEF_CKKSEXPANDPOLYEVAL
#include "dialect/CKKS/Transforms/Passes.h.inc"
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
