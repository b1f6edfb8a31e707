// fhec-serial-code-to-parallel: top-level host code that reads or writes
// memory runs as a one-thread kernel on GPU targets.
#include "conversion/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace fhec {
#define GEN_PASS_DEF_FHECSERIALCODETOPARALLEL
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;

namespace {

// Ops a run may not cross: kernels (parallel loops, launches written by the
// lowering), calls (phase timers), the terminator.
bool isBoundary(Operation *op) {
  return isa<scf::ParallelOp, gpu::LaunchOp, func::CallOp>(op) || op->hasTrait<OpTrait::IsTerminator>();
}

// Reads, writes or allocates memory itself or in its regions.
bool touchesMemory(Operation *op) {
  if (isa<memref::AllocaOp>(op)) return true;
  if (isMemoryEffectFree(op)) return false;
  if (auto e = dyn_cast<MemoryEffectOpInterface>(op))
    return e.hasEffect<MemoryEffects::Read>() || e.hasEffect<MemoryEffects::Write>();
  return true;  // unknown effects (e.g. loops whose bodies access memory)
}

struct FHECSerialCodeToParallelPass : public fhec::impl::FHECSerialCodeToParallelBase<FHECSerialCodeToParallelPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal()) return;
    Block &body = fn.getBody().front();
    SmallVector<std::pair<Operation *, Operation *>> runs;  // [first, last] touching memory
    Operation *first = nullptr, *last = nullptr;
    for (Operation &op : body) {
      if (isBoundary(&op)) {
        if (first) runs.push_back({first, last});
        first = last = nullptr;
      } else if (touchesMemory(&op)) {
        if (!first) first = &op;
        last = &op;
      }
    }
    OpBuilder b(&getContext());
    for (auto [begin, end] : runs) {
      SmallVector<Operation *> ops;
      for (Operation *op = begin;; op = op->getNextNode()) {
        ops.push_back(op);
        if (op == end) break;
      }
      llvm::SmallPtrSet<Operation *, 16> inside(ops.begin(), ops.end());
      bool escapes = llvm::any_of(ops, [&](Operation *op) {
        return llvm::any_of(op->getUsers(), [&](Operation *user) {
          Operation *top = body.findAncestorOpInBlock(*user);
          return !top || !inside.contains(top);
        });
      });
      if (escapes) continue;
      b.setInsertionPoint(begin);
      Location loc = begin->getLoc();
      Value c0 = arith::ConstantIndexOp::create(b, loc, 0), c1 = arith::ConstantIndexOp::create(b, loc, 1);
      auto loop = scf::ParallelOp::create(b, loc, ValueRange{c0}, ValueRange{c1}, ValueRange{c1});
      Operation *yield = loop.getBody()->getTerminator();
      for (Operation *op : ops) op->moveBefore(yield);
    }
  }
};

} // namespace
