// fhe-insert-transposes: layouts from the target's cost table, transposes
// where producer and consumer disagree, folded where cheaper.
#include "dialect/FHE/Transforms/Passes.h"
#include "target/Target.h"

#include "mlir/IR/Builders.h"

namespace fhec {
#define GEN_PASS_DEF_FHEINSERTTRANSPOSES
#include "dialect/FHE/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

using fhe::Layout;

constexpr int64_t kGpuWarpThreads = 32;

// The layout a CRT writes contiguously in its loop order.
Layout naturalCrtLayout(fhe::CrtOp op) {
  return op.getOrder() == fhe::Order::matrix ? Layout::prime_major : Layout::coeff_major;
}

struct FHEInsertTransposesPass : public fhec::impl::FHEInsertTransposesBase<FHEInsertTransposesPass> {
  using FHEInsertTransposesBase::FHEInsertTransposesBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const TargetSpec *spec = getTarget(module);
    if (!spec) return signalPassFailure();
    SmallVector<fhe::TransposeOp> inserted;
    // CRTs write their natural layout; a consumer that needs the other one
    // reads it through a transpose.
    // (A kernel fhe-fuse formed keeps its layouts: no transpose inside it.)
    module.walk([&](fhe::CrtOp crt) {
      if (crt->getParentOfType<fhe::FusedOp>()) return;
      auto t = crt.getResult().getType();
      Layout natural = naturalCrtLayout(crt);
      if (t.getLayout() == natural) return;
      crt.getResult().setType(t.withLayout(natural));
      OpBuilder b(crt.getContext());
      b.setInsertionPointAfter(crt);
      auto tr = fhe::TransposeOp::create(b, crt.getLoc(), t, crt.getResult());
      crt.getResult().replaceAllUsesExcept(tr.getResult(), tr);
      inserted.push_back(tr);
    });
    // iCRTs read the coefficient-major layout.
    module.walk([&](fhe::IcrtOp icrt) {
      if (icrt->getParentOfType<fhe::FusedOp>()) return;
      auto t = cast<fhe::RnsType>(icrt.getInput().getType());
      if (t.getLayout() == Layout::coeff_major) return;
      OpBuilder b(icrt);
      auto tr = fhe::TransposeOp::create(b, icrt.getLoc(), t.withLayout(Layout::coeff_major), icrt.getInput());
      icrt.getInputMutable().assign(tr.getResult());
      inserted.push_back(tr);
    });
    if (!fold) return;
    // Fold where a strided access costs less than a transpose's extra pass:
    // per residue, the folded access is foldedAccessCost, scaled up when the
    // coefficients one access covers span less than a cache line of a row
    // (8 words), against 1 (natural access) + transposeCost (the transpose).
    // One access covers the kernel's block of coefficients on a CPU thread;
    // on a GPU, the 32 threads of a warp take consecutive blocks, so its
    // request covers 32 of them (coalesced along the row).
    auto cheaper = [&](Operation *kernel) {
      int64_t block = int64_t(fhe::conversionBlock(kernel).value_or(1));
      if (spec->gpu) block *= kGpuWarpThreads;
      double folded = spec->foldedAccessCost * std::max(1.0, 8.0 / double(block));
      return folded < 1.0 + spec->transposeCost;
    };
    for (fhe::TransposeOp tr : inserted) {
      Value in = tr.getInput();
      auto crt = in.getDefiningOp<fhe::CrtOp>();
      if (crt && in.hasOneUse()) {
        if (!cheaper(crt)) continue;
        // The CRT writes the consumers' layout directly.
        in.setType(tr.getResult().getType());
        tr.getResult().replaceAllUsesWith(in);
        tr.erase();
        continue;
      }
      if (llvm::all_of(tr.getResult().getUsers(), [&](Operation *u) { return isa<fhe::IcrtOp>(u) && cheaper(u); })) {
        // The iCRTs read the producer's layout.
        tr.getResult().replaceAllUsesWith(in);
        tr.erase();
      }
    }
  }
};

} // namespace
