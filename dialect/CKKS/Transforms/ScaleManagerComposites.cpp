// ScaleManager's composite ops, ckks.bootstrap and ckks.poly_eval: built from
// its core ops by Bootstrap.cpp and PolyEval.cpp, which themselves use
// ScaleManager (so this part lives apart from ScaleManager.cpp).
#include "dialect/CKKS/Transforms/Bootstrap.h"
#include "dialect/CKKS/Transforms/PolyEval.h"
#include "dialect/CKKS/Transforms/ScaleManager.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;

namespace fhec {

FailureOr<Value> ScaleManager::bootstrap(Location loc, Value x, const BootstrapConfig &c) {
  Type type;
  {
    // Its own products never bootstrap.
    std::optional<BootstrapConfig> saved = std::exchange(autoBootstrap, std::nullopt);
    llvm::scope_exit restore([&] { autoBootstrap = std::move(saved); });
    // The expansion in a scratch block, for its result type only.
    Block scratch;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&scratch);
    FailureOr<Value> r = buildBootstrap(*this, loc, x, c);
    if (succeeded(r)) type = r->getType();
    while (!scratch.empty()) scratch.back().erase();
    if (failed(r)) return failure();
  }
  DenseI64ArrayAttr budget;
  if (!c.levelBudget.empty())
    budget = b.getDenseI64ArrayAttr(llvm::map_to_vector(c.levelBudget, [](unsigned l) { return int64_t(l); }));
  return ckks::BootstrapOp::create(b, loc, type, x, b.getI64IntegerAttr(c.modLogq), b.getI64IntegerAttr(c.bound),
                                   b.getI64IntegerAttr(c.degree), b.getI64IntegerAttr(c.doubleAngles),
                                   b.getI64IntegerAttr(c.logScale), budget)
      .getResult();
}

FailureOr<Value> ScaleManager::rebuildComposite(Operation *op, ValueRange operands) {
  if (auto o = dyn_cast<ckks::BootstrapOp>(op)) return bootstrap(op->getLoc(), operands[0], configOf(o));
  auto o = cast<ckks::PolyEvalOp>(op);
  auto [lo, hi] = o.getInterval();
  return evaluatePolynomial(*this, op->getLoc(), operands[0], o.getBasis(), o.getCoefficients(), lo, hi);
}

} // namespace fhec
