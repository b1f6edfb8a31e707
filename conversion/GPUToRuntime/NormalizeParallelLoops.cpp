// fhec-normalize-parallel-loops: scf.parallel with lower bounds 0 and unit
// steps, the form scf-parallel-loop-tiling's bounds guard expects.
#include "conversion/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace fhec {
#define GEN_PASS_DEF_FHECNORMALIZEPARALLELLOOPS
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;

namespace {

bool isNormalized(scf::ParallelOp loop) {
  auto isConst = [](Value v, int64_t c) { return getConstantIntValue(v) == c; };
  return llvm::all_of(loop.getLowerBound(), [&](Value v) { return isConst(v, 0); }) &&
         llvm::all_of(loop.getStep(), [&](Value v) { return isConst(v, 1); });
}

struct FHECNormalizeParallelLoopsPass
    : public fhec::impl::FHECNormalizeParallelLoopsBase<FHECNormalizeParallelLoopsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (isNormalized(loop)) return;
      Location loc = loop.getLoc();
      SmallVector<Value> origLbs(loop.getLowerBound()), origSteps(loop.getStep());
      SmallVector<Value> lbs, ubs, steps;
      rewriter.setInsertionPoint(loop);
      for (auto [lb, ub, step] : llvm::zip(origLbs, SmallVector<Value>(loop.getUpperBound()), origSteps)) {
        Range r = emitNormalizedLoopBounds(rewriter, loc, lb, ub, step);
        lbs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, r.offset));
        ubs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, r.size));
        steps.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, r.stride));
      }
      rewriter.modifyOpInPlace(loop, [&] {
        loop.getLowerBoundMutable().assign(lbs);
        loop.getUpperBoundMutable().assign(ubs);
        loop.getStepMutable().assign(steps);
      });
      // Uses of each iv now see lb + step * iv.
      rewriter.setInsertionPointToStart(loop.getBody());
      for (auto [iv, lb, step] : llvm::zip(loop.getInductionVars(), origLbs, origSteps))
        denormalizeInductionVariable(rewriter, loc, iv, lb, step);
    });
  }
};

} // namespace
