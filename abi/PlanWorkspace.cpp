// fhec-plan-workspace: every kernel temporary of a function lives in one
// workspace that the runtime allocates once per executor. Buffers are the
// top-level memref.alloc's of the lowered function; a buffer is live from its
// allocation to the last top-level op that uses it (or a view of it), and two
// buffers share bytes only if their live ranges are disjoint. Placement is
// greedy by decreasing size, each at the lowest 64-byte aligned offset free
// over its range. Returned buffers are left to fhec-abi (they become the
// caller's out-parameters).
#include "abi/BufferLiveness.h"
#include "abi/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace fhec {
#define GEN_PASS_DEF_FHECPLANWORKSPACE
#include "abi/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

int64_t align64(int64_t x) { return (x + 63) / 64 * 64; }

struct FHECPlanWorkspacePass : public fhec::impl::FHECPlanWorkspaceBase<FHECPlanWorkspacePass> {
  using FHECPlanWorkspaceBase::FHECPlanWorkspaceBase;

  void runOnOperation() override {
    for (auto f : getOperation().getOps<func::FuncOp>())
      if (!f.isExternal() && failed(plan(f))) return signalPassFailure();
  }

  LogicalResult plan(func::FuncOp f) {
    FailureOr<SmallVector<BufferLiveness>> live = bufferLiveness(f);
    if (failed(live)) return failure();
    struct Buffer {
      memref::AllocOp alloc;
      int64_t bytes = 0, start = 0, end = 0, offset = -1;
    };
    SmallVector<Buffer> buffers;
    for (BufferLiveness &l : *live) {
      MemRefType t = l.alloc.getType();
      if (!t.hasStaticShape() || !t.getLayout().isIdentity() || !t.getElementType().isIntOrFloat())
        return l.alloc.emitOpError() << "has no static identity-layout shape; the workspace cannot hold it";
      buffers.push_back({l.alloc, align64(t.getNumElements() * int64_t(t.getElementTypeBitWidth() / 8)), l.start,
                         l.end});
    }
    if (buffers.empty()) return success();

    // Greedy by size: the largest buffers first, each at the lowest gap free over its range.
    SmallVector<Buffer *> order;
    for (Buffer &b : buffers) order.push_back(&b);
    llvm::stable_sort(order, [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
    int64_t total = 0;
    for (auto [n, b] : llvm::enumerate(order)) {
      SmallVector<std::pair<int64_t, int64_t>> taken;  // [offset, offset + bytes) of overlapping placed buffers
      for (Buffer *o : ArrayRef<Buffer *>(order).take_front(n))
        if (o->start <= b->end && b->start <= o->end) taken.push_back({o->offset, o->offset + o->bytes});
      llvm::sort(taken);
      int64_t offset = 0;
      for (auto [lo, hi] : taken) {
        if (offset + b->bytes <= lo) break;
        offset = std::max(offset, hi);
      }
      b->offset = offset;
      total = std::max(total, offset + b->bytes);
    }

    // The workspace argument and a view per buffer.
    MLIRContext *ctx = f.getContext();
    OpBuilder builder(ctx);
    auto wsType = MemRefType::get({total}, builder.getI8Type());
    unsigned wsIndex = f.getNumArguments();
    if (failed(f.insertArgument(wsIndex, wsType,
                                builder.getDictionaryAttr(builder.getNamedAttr(fhe::FHEDialect::getWorkspaceAttrName(), builder.getUnitAttr())),
                                f.getLoc())))
      return failure();
    Value ws = f.getArgument(wsIndex);
    for (Buffer &b : buffers) {
      builder.setInsertionPoint(b.alloc);
      Value off = arith::ConstantIndexOp::create(builder, b.alloc.getLoc(), b.offset);
      Value view = memref::ViewOp::create(builder, b.alloc.getLoc(), b.alloc.getType(), ws, off, ValueRange{});
      b.alloc.getResult().replaceAllUsesWith(view);
      b.alloc.erase();
    }
    f->setAttr(fhe::FHEDialect::getWorkspaceBytesAttrName(), builder.getI64IntegerAttr(total));
    return success();
  }
};

} // namespace
