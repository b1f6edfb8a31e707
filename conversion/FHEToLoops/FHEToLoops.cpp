// fhe-to-loops: a dialect conversion of the fhe kernel ops into scf loop nests
// over memrefs with modarith arithmetic. The TypeConverter gives each fhe
// type its memory form; each kernel family registers its patterns
// (Crt.cpp, Ntt.cpp, Residue.cpp, Icrt.cpp, BigInt.cpp, Coefficient.cpp,
// Automorphism.cpp).
// Results are freshly allocated buffers (fhec-plan-workspace places them),
// tables are fhe.table ops (fhec-abi makes them arguments).
#include "conversion/FHEToLoops/Patterns.h"
#include "conversion/Passes.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"

namespace fhec {
#define GEN_PASS_DEF_FHETOLOOPS
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

struct FHEToLoopsPass : public fhec::impl::FHEToLoopsBase<FHEToLoopsPass> {
  using FHEToLoopsBase::FHEToLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    LoweringOptions options;
    options.target = getTarget(module);
    options.phaseTimers = phaseTimers;
    options.icrtExactAlways = icrtExactAlways;
    options.gpuLaunches = gpuLaunches;
    options.dropGpuBarrier = dropGpuBarrier;
    if (!options.target) return signalPassFailure();
    // Every RNS basis must be resolved (kernels index their primes' tables),
    // and the NTT and basis views need their rows contiguous.
    WalkResult unresolved = module.walk([&](Operation *op) -> WalkResult {
      if (isa<fhe::NttOp, fhe::InttOp, fhe::BasisPrefixOp>(op))
        for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
          if (cast<fhe::RnsType>(t).getLayout() != fhe::Layout::prime_major) {
            op->emitOpError() << "is lowered for the prime_major layout only; insert an fhe.transpose";
            return WalkResult::interrupt();
          }
      auto check = [&](Type t) {
        auto r = dyn_cast<fhe::RnsType>(t);
        return !r || r.getBasis().isResolved();
      };
      bool ok = llvm::all_of(op->getResultTypes(), check) && llvm::all_of(op->getOperandTypes(), check);
      if (auto f = dyn_cast<func::FuncOp>(op))
        ok = ok && llvm::all_of(f.getArgumentTypes(), check) && llvm::all_of(f.getResultTypes(), check);
      if (ok) return WalkResult::advance();
      op->emitOpError() << "has an RNS basis without primes; run fhe-select-basis first";
      return WalkResult::interrupt();
    });
    if (unresolved.wasInterrupted()) return signalPassFailure();

    if (phaseTimers) declarePhaseHooks(module);
    // The manifest (fhec-abi) describes arguments by their fhe types.
    auto isFhe = [](Type t) { return isa<fhe::PolyType, fhe::RnsType>(t); };
    for (auto f : module.getOps<func::FuncOp>()) {
      for (auto [i, t] : llvm::enumerate(f.getArgumentTypes()))
        if (isFhe(t)) f.setArgAttr(i, fhe::FHEDialect::getTypeAttrName(), TypeAttr::get(t));
      for (auto [i, t] : llvm::enumerate(f.getResultTypes()))
        if (isFhe(t)) f.setResultAttr(i, fhe::FHEDialect::getTypeAttrName(), TypeAttr::get(t));
    }

    TypeConverter tc;
    tc.addConversion([](Type t) { return t; });
    const TargetSpec &target = *options.target;
    tc.addConversion([&](fhe::PolyType t) -> Type { return memrefFor(t, target); });
    tc.addConversion([&](fhe::RnsType t) -> Type { return memrefFor(t, target); });

    ConversionTarget ct(*ctx);
    ct.addLegalDialect<arith::ArithDialect, scf::SCFDialect, memref::MemRefDialect, vector::VectorDialect,
                       gpu::GPUDialect, modarith::ModArithDialect>();
    ct.addIllegalDialect<fhe::FHEDialect>();
    ct.addLegalOp<fhe::TableOp, fhe::PrimeCountOp, fhe::KernelParamOp, func::CallOp>();
    ct.addDynamicallyLegalOp<func::FuncOp>(
        [&](func::FuncOp f) { return tc.isSignatureLegal(f.getFunctionType()) && tc.isLegal(&f.getBody()); });
    ct.addDynamicallyLegalOp<func::ReturnOp>([&](func::ReturnOp r) { return tc.isLegal(r.getOperandTypes()); });

    RewritePatternSet patterns(ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, tc);
    populateReturnOpTypeConversionPattern(patterns, tc);
    populateCrtPatterns(tc, patterns, options);
    populateNttPatterns(tc, patterns, options);
    populateResiduePatterns(tc, patterns, options);
    populateRowsPatterns(tc, patterns, options);
    populateIcrtPatterns(tc, patterns, options);
    populateBigIntPatterns(tc, patterns, options);
    populateAutomorphismPatterns(tc, patterns, options);
    populateCoefficientKernelPatterns(tc, patterns, options);
    if (failed(applyPartialConversion(module, ct, std::move(patterns)))) signalPassFailure();
  }

  static void declarePhaseHooks(ModuleOp module) {
    OpBuilder b(module.getBodyRegion());
    for (const char *name : {abi::kPhaseBeginSymbol, abi::kPhaseEndSymbol, abi::kPhaseLapSymbol}) {
      if (module.lookupSymbol(name)) continue;
      b.setInsertionPointToStart(module.getBody());
      auto f = func::FuncOp::create(b, module.getLoc(), name, b.getFunctionType({b.getI32Type()}, {}));
      f.setPrivate();
    }
  }
};

} // namespace
