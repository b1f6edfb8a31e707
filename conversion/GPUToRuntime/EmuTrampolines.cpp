// fhec-gpu-emu-trampolines: void __fhec_emu_<kernel>(int64 *slots) loads the
// kernel's parameters from the launch's 8-byte slots and calls it.
#include "conversion/GPUToRuntime/GpuNames.h"
#include "conversion/Passes.h"

#include "mlir/IR/Builders.h"

namespace fhec {
#define GEN_PASS_DEF_FHECGPUEMUTRAMPOLINES
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

struct FHECGPUEmuTrampolinesPass : public fhec::impl::FHECGPUEmuTrampolinesBase<FHECGPUEmuTrampolinesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    Type i64 = b.getI64Type();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    for (auto decl : llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>())) {
      auto of = decl->getAttrOfType<FlatSymbolRefAttr>(emu::kTrampolineOfAttr);
      if (!of) continue;
      auto kernel = module.lookupSymbol<LLVM::LLVMFuncOp>(of);
      if (!kernel || !decl.isExternal()) {
        decl.emitError() << "fhec-gpu-emu-trampolines: no lowered kernel " << of << " for this trampoline";
        return signalPassFailure();
      }
      Block *entry = decl.addEntryBlock(b);
      b.setInsertionPointToStart(entry);
      Location loc = decl.getLoc();
      Value slots = entry->getArgument(0);
      SmallVector<Value> args;
      for (auto [i, t] : llvm::enumerate(kernel.getFunctionType().getParams())) {
        bool fits = isa<LLVM::LLVMPointerType>(t) || (isa<IntegerType>(t) && cast<IntegerType>(t).getWidth() <= 64);
        if (!fits) {
          kernel.emitError() << "fhec-gpu-emu-trampolines: parameter #" << i << " of type " << t
                             << " does not fit an 8-byte slot";
          return signalPassFailure();
        }
        Value slot = LLVM::GEPOp::create(b, loc, ptr, i64, slots, ArrayRef<LLVM::GEPArg>{int32_t(i)});
        // Slots are little-endian: a narrower integer is the low part.
        args.push_back(LLVM::LoadOp::create(b, loc, t, slot));
      }
      LLVM::CallOp::create(b, loc, kernel, args);
      LLVM::ReturnOp::create(b, loc, ValueRange{});
      decl.setLinkage(LLVM::Linkage::Internal);
      decl->removeAttr(emu::kTrampolineOfAttr);
    }
  }
};

} // namespace
