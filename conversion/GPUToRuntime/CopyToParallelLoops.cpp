// fhec-copy-to-parallel-loops: memref.copy -> scf.parallel of load/store, so
// that GPU targets run copies as kernels.
#include "conversion/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fhec {
#define GEN_PASS_DEF_FHECCOPYTOPARALLELLOOPS
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;

namespace {

struct CopyToParallelLoop : public OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp copy, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<MemRefType>(copy.getSource().getType());
    if (!type || !type.hasStaticShape() || type.getRank() == 0)
      return rewriter.notifyMatchFailure(copy, "needs a static shape of rank >= 1");
    Location loc = copy.getLoc();
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d : type.getShape()) {
      lbs.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
      ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, d));
      steps.push_back(arith::ConstantIndexOp::create(rewriter, loc, 1));
    }
    Value src = copy.getSource(), dst = copy.getTarget();
    scf::ParallelOp::create(rewriter, loc, lbs, ubs, steps, [&](OpBuilder &b, Location l, ValueRange ivs) {
      Value v = memref::LoadOp::create(b, l, src, ivs);
      memref::StoreOp::create(b, l, v, dst, ivs);
    });
    rewriter.eraseOp(copy);
    return success();
  }
};

struct FHECCopyToParallelLoopsPass : public fhec::impl::FHECCopyToParallelLoopsBase<FHECCopyToParallelLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CopyToParallelLoop>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) return signalPassFailure();
  }
};

} // namespace
