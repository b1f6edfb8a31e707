// fhec-attach-target: the module's target (target/Target.h), set once before
// the first pass so that every pass and lowering reads the same one.
#include "target/Passes.h"
#include "target/Target.h"

namespace fhec {
#define GEN_PASS_DEF_FHECATTACHTARGET
#include "target/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {
struct FHECAttachTargetPass : public fhec::impl::FHECAttachTargetBase<FHECAttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    const TargetSpec *spec = lookupTarget(name);
    if (!spec) {
      getOperation().emitError() << "fhec-attach-target: unknown target '" << name << "' (expected "
                                 << knownTargetNames() << ")";
      return signalPassFailure();
    }
    setTarget(getOperation(), *spec);
  }
};
} // namespace
