// fhec-gpu-kernel-module: one gpu.module for all kernels of a program, and
// the check that host code touches no memory (it lives on the device).
#include "conversion/GPUToRuntime/GpuNames.h"
#include "conversion/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/SymbolTable.h"

namespace fhec {
#define GEN_PASS_DEF_FHECGPUKERNELMODULE
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;

namespace {

// Host code may compute addresses and launch; a read or write of a memref
// there would dereference a device pointer on the host.
LogicalResult checkHostCode(func::FuncOp fn) {
  WalkResult r = fn.walk([&](Operation *op) {
    if (isa<gpu::LaunchFuncOp>(op)) return WalkResult::skip();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const auto &e : list) {
      if (!isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect())) continue;
      Value v = e.getValue();
      if (v && !isa<MemRefType>(v.getType())) continue;
      op->emitError() << "fhec-gpu-kernel-module: host code of a GPU target accesses memory outside a kernel ('"
                      << op->getName() << "'); every memory access must be inside a parallel loop mapped to the GPU";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

struct FHECGPUKernelModulePass : public fhec::impl::FHECGPUKernelModuleBase<FHECGPUKernelModulePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal() && failed(checkHostCode(fn))) return signalPassFailure();

    SmallVector<gpu::GPUModuleOp> outlined(module.getOps<gpu::GPUModuleOp>());
    if (outlined.empty()) return;
    if (module.lookupSymbol(fhec::gpurt::kKernelModule)) {
      module.emitError() << "fhec-gpu-kernel-module: the symbol '" << fhec::gpurt::kKernelModule << "' is already taken";
      return signalPassFailure();
    }
    OpBuilder b(module.getContext());
    b.setInsertionPoint(outlined.front());
    auto target = gpu::GPUModuleOp::create(b, module.getLoc(), fhec::gpurt::kKernelModule);
    if (!dataLayout.empty())
      target->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(), b.getStringAttr(dataLayout));

    // Old kernel reference -> new one.
    llvm::DenseMap<Attribute, SymbolRefAttr> renamed;
    for (gpu::GPUModuleOp m : outlined) {
      for (Operation &op : llvm::make_early_inc_range(m.getBody()->without_terminator())) {
        auto fn = dyn_cast<gpu::GPUFuncOp>(op);
        if (!fn || !fn.isKernel()) {
          op.emitError() << "fhec-gpu-kernel-module: an outlined module holds more than its kernel";
          return signalPassFailure();
        }
        auto oldRef = SymbolRefAttr::get(m.getSymNameAttr(), ArrayRef<FlatSymbolRefAttr>{FlatSymbolRefAttr::get(fn.getNameAttr())});
        fn->moveBefore(target.getBody(), target.getBody()->end());
        // Shared buffers 16-byte aligned, as cuda-emu lays them out: the
        // kernels' 8- and 16-byte vector loads of them (explicit, or LLVM's
        // load/store vectorizer's) need it.
        for (unsigned i = 0; i < fn.getNumWorkgroupAttributions(); ++i)
          fn.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(16));
        // The module's name is unique in the program; the kernel takes it.
        fn.setName(m.getSymName());
        renamed[oldRef] = SymbolRefAttr::get(target.getSymNameAttr(), ArrayRef<FlatSymbolRefAttr>{FlatSymbolRefAttr::get(fn.getNameAttr())});
      }
    }
    WalkResult r = module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = renamed.find(launch.getKernel());
      if (it == renamed.end()) {
        launch.emitError() << "fhec-gpu-kernel-module: launch of an unknown kernel " << launch.getKernel();
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(it->second);
      return WalkResult::advance();
    });
    if (r.wasInterrupted()) return signalPassFailure();
    for (gpu::GPUModuleOp m : outlined) m.erase();
  }
};

} // namespace
