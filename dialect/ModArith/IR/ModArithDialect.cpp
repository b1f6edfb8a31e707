#include "dialect/ModArith/IR/ModArithDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace fhec::modarith;

#include "dialect/ModArith/IR/ModArithDialect.cpp.inc"
#define GET_OP_CLASSES
#include "dialect/ModArith/IR/ModArithOps.cpp.inc"

void ModArithDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialect/ModArith/IR/ModArithOps.cpp.inc"
      >();
}

// Lazy add/sub either keep the range (one correction) or double it (none).
template <typename Op> static LogicalResult verifyAddSub(Op op) {
  int64_t in = op.getIn(), out = op.getOut();
  if (out != in && out != 2 * in)
    return op.emitOpError() << "result range [0, " << out << "p) must be [0, " << in << "p) or [0, " << 2 * in
                            << "p) for inputs in [0, " << in << "p)";
  return success();
}

LogicalResult AddOp::verify() { return verifyAddSub(*this); }
LogicalResult SubOp::verify() { return verifyAddSub(*this); }

LogicalResult ReduceOp::verify() {
  if (getOut() > getIn())
    return emitOpError() << "cannot widen the range from [0, " << getIn() << "p) to [0, " << getOut() << "p)";
  return success();
}

LogicalResult MulShoupOp::verify() {
  if (getOut() > 2) return emitOpError() << "Shoup's product is in [0, 2p): out must be 1 or 2, got " << getOut();
  return success();
}
