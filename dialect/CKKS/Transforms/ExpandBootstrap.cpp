// ckks-expand-bootstrap: every ckks.bootstrap replaced by its managed
// sequence (dialect/CKKS/Transforms/Bootstrap.h).
#include "dialect/CKKS/Transforms/Bootstrap.h"
#include "dialect/CKKS/Transforms/ExpandOps.h"
#include "dialect/CKKS/Transforms/Passes.h"

namespace fhec {
#define GEN_PASS_DEF_CKKSEXPANDBOOTSTRAP
#include "dialect/CKKS/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

struct CKKSExpandBootstrapPass : public fhec::impl::CKKSExpandBootstrapBase<CKKSExpandBootstrapPass> {
  void runOnOperation() override {
    auto build = [](ScaleManager &m, ckks::BootstrapOp op) {
      return buildBootstrap(m, op.getLoc(), op.getInput(), configOf(op));
    };
    if (failed(expandOps<ckks::BootstrapOp>(getOperation(), getArgument(), "bootstrapping", build)))
      signalPassFailure();
  }
};

} // namespace

namespace fhec {
BootstrapConfig configOf(ckks::BootstrapOp op) {
  BootstrapConfig c{unsigned(op.getModLogq()), unsigned(op.getBound()), unsigned(op.getDegree()),
                    unsigned(op.getDoubleAngles()), unsigned(op.getLogScale().value_or(op.getModLogq() + 8)), {}};
  if (auto budget = op.getLevelBudget())
    for (int64_t l : *budget) c.levelBudget.push_back(unsigned(l));
  return c;
}
} // namespace fhec
