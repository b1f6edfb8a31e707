// fhe-merge-ntt-levels: the level grouping of every NTT and iNTT, from the
// target's cost model or the options, and optionally an incomplete NTT.
#include "dialect/FHE/Transforms/Passes.h"
#include "target/Target.h"

#include "mlir/IR/AttrTypeSubElements.h"

namespace fhec {
#define GEN_PASS_DEF_FHEMERGENTTLEVELS
#include "dialect/FHE/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

// Forward-transform levels for `stages` stages: a tail level of up to
// `blockLog` stages whose blocks stay in cache, the rest in head levels of at
// most `headLog` stages, as even as possible (fewest passes over memory).
SmallVector<int64_t> costModelLevels(int64_t stages, int64_t blockLog, int64_t headLog) {
  int64_t tail = std::min(stages, blockLog), head = stages - tail;
  SmallVector<int64_t> levels;
  if (head > 0) {
    int64_t n = (head + headLog - 1) / headLog;
    for (int64_t i = 0; i < n; ++i) levels.push_back(head / n + (i < head % n ? 1 : 0));
  }
  levels.push_back(tail);
  return levels;
}

struct FHEMergeNTTLevelsPass : public fhec::impl::FHEMergeNTTLevelsBase<FHEMergeNTTLevelsPass> {
  using FHEMergeNTTLevelsBase::FHEMergeNTTLevelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const TargetSpec *spec = getTarget(module);
    if (!spec) return signalPassFailure();
    SmallVector<Operation *> ntts;
    module.walk([&](Operation *op) {
      if (isa<fhe::NttOp, fhe::InttOp>(op)) ntts.push_back(op);
    });
    if (ntts.empty()) return;
    // Incompleteness is this pass's decision (skip-levels): types that already
    // say it would disagree with the levels chosen below.
    for (Operation *op : ntts) {
      auto eval = cast<fhe::RnsType>(isa<fhe::NttOp>(op) ? op->getResult(0).getType() : op->getOperand(0).getType());
      if (eval.getIncomplete()) {
        op->emitOpError() << "is already incomplete (incomplete = " << eval.getIncomplete()
                          << "); fhe-merge-ntt-levels decides that itself: give it skip-levels instead";
        return signalPassFailure();
      }
    }
    unsigned logN = cast<fhe::RnsType>(ntts.front()->getOperand(0).getType()).getLogN();
    if (skipLevels >= logN) {
      module.emitError() << "fhe-merge-ntt-levels: skip-levels = " << unsigned(skipLevels) << " leaves no stage of the "
                         << logN << " of a 2^" << logN << "-point NTT (it must be below " << logN << ")";
      return signalPassFailure();
    }
    int64_t stages = int64_t(logN) - int64_t(skipLevels);
    if (radixLog > unsigned(stages)) {
      module.emitError() << "fhe-merge-ntt-levels: radix-log = " << unsigned(radixLog) << " is above the " << stages
                         << " stages of the NTT (logN = " << logN << ", " << unsigned(skipLevels) << " skipped)";
      return signalPassFailure();
    }
    SmallVector<int64_t> forward;
    if (!levels.empty()) {
      int64_t sum = 0;
      for (unsigned k : levels) {
        if (k == 0 || k > unsigned(stages)) {
          module.emitError() << "fhe-merge-ntt-levels: a level of " << k << " stages is outside [1, " << stages << "]";
          return signalPassFailure();
        }
        forward.push_back(k);
        sum += k;
      }
      if (sum != stages) {
        module.emitError() << "fhe-merge-ntt-levels: levels cover " << sum << " stages, the NTT has " << stages;
        return signalPassFailure();
      }
    } else if (radixLog) {
      for (int64_t left = stages; left > 0; left -= unsigned(radixLog)) forward.push_back(std::min<int64_t>(unsigned(radixLog), left));
    } else {
      forward = costModelLevels(stages, spec->nttBlockLog, spec->nttHeadLog);
    }
    SmallVector<int64_t> inverse(forward.rbegin(), forward.rend());

    // An incomplete NTT changes every evaluation-domain value of the module.
    if (skipLevels) {
      // An evaluation-domain automorphism (fhe-hoist-automorphisms, or a
      // double-hoisted linear transform with hybrid key switching) permutes
      // the slots of a complete NTT only.
      WalkResult hoisted = module.walk([&](fhe::AutomorphismOp op) {
        if (op.getType().getDomain() != fhe::Domain::eval) return WalkResult::advance();
        op.emitOpError() << "fhe-merge-ntt-levels: skip-levels = " << unsigned(skipLevels)
                         << " needs complete NTTs, but this automorphism permutes an NTT's slots (from "
                            "fhe-hoist-automorphisms, which --disable-pass=fhe-hoist-automorphisms turns off, or from "
                            "a linear transform with hybrid key switching, dnum > 1, which always has them)";
        return WalkResult::interrupt();
      });
      if (hoisted.wasInterrupted()) return signalPassFailure();
      bool mixed = false;
      AttrTypeReplacer replacer;
      replacer.addReplacement([&](fhe::RnsType t) -> std::optional<Type> {
        if (t.getDomain() != fhe::Domain::eval) return std::nullopt;
        if (t.getLogN() != logN) mixed = true;
        return t.withIncomplete(unsigned(skipLevels));
      });
      replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true, /*replaceLocs=*/false, /*replaceTypes=*/true);
      if (mixed) {
        module.emitError() << "fhe-merge-ntt-levels: NTTs of different ring dimensions in one module";
        return signalPassFailure();
      }
    }
    for (Operation *op : ntts)
      fhe::setTransformLevels(op, isa<fhe::NttOp>(op) ? forward : inverse);
  }
};

} // namespace
