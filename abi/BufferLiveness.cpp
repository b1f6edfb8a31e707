#include "abi/BufferLiveness.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace fhec {

FailureOr<SmallVector<BufferLiveness>> bufferLiveness(func::FuncOp f) {
  if (!f.getBody().hasOneBlock())
    return f.emitOpError() << "expects a single-block function body (a lowered fhe function)";
  Block &body = f.getBody().front();
  llvm::DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(body)) position[&op] = int64_t(i);
  llvm::DenseSet<Value> returned;
  for (Value v : body.getTerminator()->getOperands()) returned.insert(v);

  SmallVector<BufferLiveness> buffers;
  for (Operation &op : body) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc) continue;
    BufferLiveness b{alloc, position[&op], position[&op], &op};
    // Uses through views (padded rows' subview, basis_prefix's
    // reinterpret_cast) count as uses; a buffer returned through a view is
    // returned.
    SmallVector<Value> worklist{alloc.getResult()};
    bool isReturned = false;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      isReturned |= returned.contains(v);
      for (Operation *user : v.getUsers()) {
        Operation *top = body.findAncestorOpInBlock(*user);
        if (!top) return user->emitOpError() << "uses a kernel buffer outside its function body";
        if (position[top] > b.end) {
          b.end = position[top];
          b.lastUse = top;
        }
        if (isa<ViewLikeOpInterface>(user)) worklist.append(user->result_begin(), user->result_end());
      }
    }
    if (!isReturned) buffers.push_back(b);
  }
  return buffers;
}

} // namespace fhec
