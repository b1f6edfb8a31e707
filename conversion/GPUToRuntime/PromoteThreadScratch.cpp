// fhec-promote-thread-scratch: fully unroll the small constant-trip loops
// whose induction variables index a GPU thread's scratch arrays, so that
// every index is a constant and the arrays become registers, not local
// memory (issue: no per-thread arrays in local memory on the GPU).
#include "conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "llvm/ADT/SetVector.h"

namespace fhec {
#define GEN_PASS_DEF_FHECPROMOTETHREADSCRATCH
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;

namespace {

// 64-bit words of scratch arrays worth keeping in registers, all of a
// thread's arrays together: a thread has at most 255 32-bit registers, and
// beyond this the unrolled code spills (measured with ptxas -v at N = 2^14).
constexpr int64_t kMaxScratchWords = 64;

// The scf.for loops (inside `thread`) whose induction variables `index`
// depends on through pure arithmetic; false if it also depends on anything
// else that is not a constant (a thread index, a loaded value), so that it
// cannot fold to a constant.
bool loopsOf(Value index, scf::ParallelOp thread, llvm::SetVector<scf::ForOp> &loops) {
  SmallVector<Value> work{index};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second) continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || loop.getInductionVar() != arg || !thread->isProperAncestor(loop)) return false;
      loops.insert(loop);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || !isPure(def) || def->getNumRegions()) return false;
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

// Operations in `loop`'s body, nested ones included.
int64_t bodySize(scf::ForOp loop) {
  int64_t n = 0;
  loop.getBody()->walk([&](Operation *) { ++n; });
  return n;
}

struct FHECPromoteThreadScratchPass
    : public fhec::impl::FHECPromoteThreadScratchBase<FHECPromoteThreadScratchPass> {
  using Base::Base;

  // The loops to unroll so that every scratch array of `thread` has constant
  // indices only, or none: when one array must stay in local memory anyway,
  // unrolling for the others only adds register pressure (measured on an
  // H200: the paper-size iCRT kernels got 17% slower).
  std::optional<llvm::SetVector<scf::ForOp>> loopsToUnroll(scf::ParallelOp thread) {
    llvm::SetVector<scf::ForOp> loops;
    bool promotable = true;
    int64_t words = 0;
    thread.getBody()->walk([&](memref::AllocaOp alloca) {
      MemRefType t = alloca.getType();
      if (t.hasStaticShape() && t.getElementType().isIntOrFloat())
        words += t.getNumElements() * int64_t(llvm::divideCeil(t.getElementTypeBitWidth(), 64));
      if (!t.hasStaticShape() || !t.getElementType().isIntOrFloat() || words > kMaxScratchWords) {
        promotable = false;
        return WalkResult::interrupt();
      }
      for (Operation *user : alloca->getUsers()) {
        ValueRange indices;
        if (auto load = dyn_cast<memref::LoadOp>(user)) indices = load.getIndices();
        else if (auto store = dyn_cast<memref::StoreOp>(user); store && store.getMemRef() == alloca)
          indices = store.getIndices();
        else promotable = false;
        for (Value i : indices) promotable &= loopsOf(i, thread, loops);
      }
      return promotable ? WalkResult::advance() : WalkResult::interrupt();
    });
    if (!promotable) return std::nullopt;
    // Unrolled copies of a loop that keeps a rolled loop inside (an iCRT's
    // column groups around their loop over the primes) exhaust the
    // registers: ptxas took 255 and spilled for the fused paper-size iCRT
    // kernels, against 64 with their 19-word BigInts left in local memory.
    for (scf::ForOp loop : loops) {
      WalkResult inner = loop.getBody()->walk([&](scf::ForOp nested) {
        return loops.contains(nested) ? WalkResult::advance() : WalkResult::interrupt();
      });
      if (inner.wasInterrupted()) return std::nullopt;
    }
    // The unrolled size of each loop: its trip count times its body, and
    // times the trip counts of the listed loops inside it (unrolled too).
    llvm::DenseMap<Operation *, int64_t> trips;
    for (scf::ForOp loop : loops) {
      std::optional<APInt> n = loop.getStaticTripCount();
      if (!n || n->getZExtValue() > uint64_t(maxTripCount)) return std::nullopt;
      trips[loop] = int64_t(n->getZExtValue());
    }
    for (scf::ForOp loop : loops) {
      int64_t size = trips[loop] * bodySize(loop);
      for (scf::ForOp inner : loops)
        if (loop->isProperAncestor(inner)) size *= trips[inner];
      if (size > maxUnrolledOps) return std::nullopt;
    }
    return loops;
  }

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> threads;
    getOperation()->walk([&](scf::ParallelOp p) {
      if (!p->getParentOfType<scf::ParallelOp>()) threads.push_back(p);
    });
    for (scf::ParallelOp thread : threads) {
      // A thread's fixed-size scratch arrays open its body: LLVM's SROA
      // promotes only the allocas of a kernel's entry block, and one after
      // a loop (a fused chain's second iCRT result) stayed in local memory.
      Block *body = thread.getBody();
      body->walk([&](memref::AllocaOp alloca) {
        if (alloca.getType().hasStaticShape() && alloca->getNumOperands() == 0) alloca->moveBefore(&body->front());
      });
      std::optional<llvm::SetVector<scf::ForOp>> loops = loopsToUnroll(thread);
      if (!loops) continue;
      // Deepest first: unrolling a loop copies the loops inside it, so they
      // go before it (and are straight-line code by then).
      auto depth = [](scf::ForOp loop) {
        int d = 0;
        for (Operation *p = loop->getParentOp(); p; p = p->getParentOp()) d += isa<scf::ForOp>(p);
        return d;
      };
      SmallVector<std::pair<int, scf::ForOp>> order;
      for (scf::ForOp loop : *loops) order.push_back({depth(loop), loop});
      llvm::stable_sort(order, [](const auto &a, const auto &b) { return a.first > b.first; });
      for (auto &[d, loop] : order) (void)loopUnrollFull(loop);
    }
  }
};

} // namespace
