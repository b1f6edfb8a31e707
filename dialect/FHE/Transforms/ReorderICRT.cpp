// fhe-reorder-icrt: iCRT (Algo. 5 -> Algo. 6) and CRT in matrix-multiply
// form, recorded as `order` and `block` attributes the lowering reads (an
// icrt_sum, always in matrix form, gets its block).
#include "dialect/FHE/Transforms/Passes.h"
#include "target/Target.h"

namespace fhec {
#define GEN_PASS_DEF_FHEREORDERICRT
#include "dialect/FHE/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {
struct FHEReorderICRTPass : public fhec::impl::FHEReorderICRTBase<FHEReorderICRTPass> {
  using FHEReorderICRTBase::FHEReorderICRTBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const TargetSpec *spec = getTarget(module);
    if (!spec) return signalPassFailure();
    if (block && !llvm::isPowerOf2_32(block)) {
      module.emitError() << "fhe-reorder-icrt: block = " << unsigned(block) << " is not a power of two";
      return signalPassFailure();
    }
    WalkResult r = module.walk([&](Operation *op) -> WalkResult {
      // An icrt_sum has the matrix form only: its block.
      if (auto sum = dyn_cast<fhe::IcrtSumOp>(op)) {
        if (sum.getBlock()) return WalkResult::advance();
        int64_t N = int64_t(1) << sum.getResult().getType().getLogN();
        if (block && int64_t(block) > N)
          return op->emitOpError() << "fhe-reorder-icrt: block = " << int64_t(block) << " exceeds N = " << N;
        sum.setBlock(uint64_t(std::min<int64_t>(block ? int64_t(block) : spec->icrtBlock, N)));
        return WalkResult::advance();
      }
      if (!isa<fhe::IcrtOp, fhe::CrtOp>(op) || fhe::hasConversionOrder(op)) return WalkResult::advance();
      bool isCrt = isa<fhe::CrtOp>(op);
      if (isCrt && !crt) return WalkResult::advance();
      int64_t N = int64_t(1) << cast<fhe::PolyType>(isCrt ? op->getOperand(0).getType() : op->getResult(0).getType())
                                     .getLogN();
      int64_t B = block ? int64_t(block) : int64_t(isCrt ? spec->crtBlock : spec->icrtBlock);
      if (B > N) {
        if (block) return op->emitOpError() << "fhe-reorder-icrt: block = " << B << " exceeds N = " << N;
        B = N;
      }
      fhe::setConversionOrder(op, fhe::Order::matrix, uint64_t(B));
      return WalkResult::advance();
    });
    if (r.wasInterrupted()) signalPassFailure();
  }
};
} // namespace
