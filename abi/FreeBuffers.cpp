// fhec-free-buffers: the heap fallback when memory is not planned: each
// kernel buffer is freed right after its last use.
#include "abi/BufferLiveness.h"
#include "abi/Passes.h"

#include "mlir/IR/Builders.h"

namespace fhec {
#define GEN_PASS_DEF_FHECFREEBUFFERS
#include "abi/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {
struct FHECFreeBuffersPass : public fhec::impl::FHECFreeBuffersBase<FHECFreeBuffersPass> {
  void runOnOperation() override {
    for (auto f : getOperation().getOps<func::FuncOp>()) {
      if (f.isExternal()) continue;
      FailureOr<SmallVector<BufferLiveness>> live = bufferLiveness(f);
      if (failed(live)) return signalPassFailure();
      OpBuilder b(f.getContext());
      for (BufferLiveness &l : *live) {
        if (l.lastUse->hasTrait<OpTrait::IsTerminator>())
          b.setInsertionPoint(l.lastUse);
        else
          b.setInsertionPointAfter(l.lastUse);
        memref::DeallocOp::create(b, l.alloc.getLoc(), l.alloc.getResult());
      }
    }
  }
};
} // namespace
