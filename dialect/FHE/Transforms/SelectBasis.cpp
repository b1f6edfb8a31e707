// fhe-select-basis: primes for every RNS basis from the shared deterministic
// generator (runtime/Primes.h), so compiler and runtime agree on them.
#include "dialect/FHE/Transforms/Passes.h"
#include "target/Target.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Primes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace fhec {
#define GEN_PASS_DEF_FHESELECTBASIS
#include "dialect/FHE/Transforms/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {
struct FHESelectBasisPass : public fhec::impl::FHESelectBasisBase<FHESelectBasisPass> {
  using FHESelectBasisBase::FHESelectBasisBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const TargetSpec *spec = getTarget(module);
    if (!spec) return signalPassFailure();
    if (primeBits > 62) {
      module.emitError() << "fhe-select-basis: prime-bits = " << unsigned(primeBits) << " is outside [4, 62]";
      return signalPassFailure();
    }
    unsigned bits = primeBits ? unsigned(primeBits) : spec->primeBits;
    // Every RNS type names its ring dimension; one module has one ring.
    std::optional<unsigned> logN;
    bool mixed = false;
    module.walk([&](Operation *op) {
      auto visit = [&](Type t) {
        if (auto r = dyn_cast<fhe::RnsType>(t)) {
          if (logN && *logN != r.getLogN()) mixed = true;
          logN = r.getLogN();
        }
      };
      for (Type t : op->getResultTypes()) visit(t);
      if (auto f = dyn_cast<FunctionOpInterface>(op))
        for (Type t : llvm::concat<const Type>(f.getArgumentTypes(), f.getResultTypes())) visit(t);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument a : block.getArguments()) visit(a.getType());
    });
    if (!logN) return;
    if (mixed) {
      module.emitError() << "fhe-select-basis: RNS polynomials of different ring dimensions in one module";
      return signalPassFailure();
    }

    bool failed = false;
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](fhe::BasisAttr basis) -> std::optional<Attribute> {
      if (basis.isResolved()) return std::nullopt;
      try {
        std::vector<uint64_t> primes = rt::selectBasis(int(*logN), int(bits), basis.getMinBits());
        return fhe::BasisAttr::get(basis.getContext(), basis.getMinBits(), bits, primes);
      } catch (const rt::Error &e) {
        module.emitError() << "fhe-select-basis: cannot build a basis of 2^" << basis.getMinBits() << " from "
                           << bits << "-bit primes: " << e.what();
        failed = true;
        return std::nullopt;
      }
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true, /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
    if (failed) signalPassFailure();
  }
};
} // namespace
