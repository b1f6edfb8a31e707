// fhe-hoist-automorphisms: ntt(automorphism(x, g)) -> automorphism(ntt(x), g),
// one NTT of x shared by all its rotations (hoisted key switching).
#include "dialect/FHE/Transforms/Passes.h"

#include "dialect/FHE/IR/FHEDialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fhec {
#define GEN_PASS_DEF_FHEHOISTAUTOMORPHISMS
#include "dialect/FHE/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

// The NTT of x right after x's definition (so that it dominates every
// rotation of x): an equal NTT of x that exists (the program's own, or an
// earlier rewrite's) moved there if it comes after `like`, else a new one.
Value sharedNtt(PatternRewriter &rewriter, fhe::NttOp like, Value x) {
  Block *block = like->getBlock();
  auto place = [&](Operation *op) {
    if (Operation *def = x.getDefiningOp()) {
      if (op->getPrevNode() != def) rewriter.moveOpAfter(op, def);
    } else if (&block->front() != op) {
      rewriter.moveOpBefore(op, &block->front());
    }
  };
  for (Operation *user : x.getUsers())
    if (auto ntt = dyn_cast<fhe::NttOp>(user))
      if (ntt.getType() == like.getType() && ntt->getAttrDictionary() == like->getAttrDictionary() &&
          ntt->getBlock() == block) {
        if (!ntt->isBeforeInBlock(like)) place(ntt);
        return ntt.getResult();
      }
  auto ntt = fhe::NttOp::create(rewriter, like.getLoc(), like.getType(), x, like.getLevelsAttr());
  place(ntt);
  return ntt.getResult();
}

struct HoistAutomorphismAboveNtt : OpRewritePattern<fhe::NttOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(fhe::NttOp op, PatternRewriter &rewriter) const override {
    auto aut = op.getInput().getDefiningOp<fhe::AutomorphismOp>();
    if (!aut) return rewriter.notifyMatchFailure(op, "the NTT's input is not an automorphism");
    if (op.getType().getIncomplete() != 0)
      return rewriter.notifyMatchFailure(op, "an incomplete NTT's slots are not permuted by automorphisms");
    if (op->getParentOfType<fhe::FusedOp>())
      return rewriter.notifyMatchFailure(op, "inside a fused kernel, whose body fhe-fuse decided");
    Value x = aut.getInput();
    if (x.getParentBlock() != op->getBlock()) return rewriter.notifyMatchFailure(op, "x is defined in another block");
    Value e = sharedNtt(rewriter, op, x);
    rewriter.replaceOpWithNewOp<fhe::AutomorphismOp>(op, op.getType(), e, aut.getGaloisAttr());
    return success();
  }
};

struct FHEHoistAutomorphismsPass : public fhec::impl::FHEHoistAutomorphismsBase<FHEHoistAutomorphismsPass> {
  using FHEHoistAutomorphismsBase::FHEHoistAutomorphismsBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<HoistAutomorphismAboveNtt>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) return signalPassFailure();
  }
};

} // namespace
