// fhec-gpu-launch-to-runtime: gpu.launch_func -> the runtime's launch hooks,
// arguments marshalled into 8-byte slots (runtime/include/fhec/runtime/Abi.h).
#include "conversion/GPUToRuntime/GpuNames.h"
#include "conversion/Passes.h"
#include "target/Target.h"

#include "fhec/runtime/Abi.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace fhec {
#define GEN_PASS_DEF_FHECGPULAUNCHTORUNTIME
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

// The argument as an i64 slot value: memrefs by their aligned pointer (the
// kernels' bare-pointer convention), index and narrower integers zero-extended.
FailureOr<Value> slotValue(OpBuilder &b, Location loc, Value v) {
  Type i64 = b.getI64Type();
  Type t = v.getType();
  if (isa<MemRefType>(t)) {
    Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v);
    return Value(arith::IndexCastUIOp::create(b, loc, i64, p));
  }
  if (t.isIndex()) return Value(arith::IndexCastUIOp::create(b, loc, i64, v));
  if (auto it = dyn_cast<IntegerType>(t)) {
    if (it.getWidth() == 64) return v;
    if (it.getWidth() < 64) return Value(arith::ExtUIOp::create(b, loc, i64, v));
  }
  return failure();
}

// The global a memref is a view of, if any: the host's memory, which a GPU's
// kernels cannot read (fhec-abi turns the constants functions read into
// arguments the runtime fills with device copies).
memref::GetGlobalOp hostGlobal(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto g = dyn_cast<memref::GetGlobalOp>(def)) return g;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view) break;
    v = view.getViewSource();
  }
  return {};
}

// cuda-emu: whether the launched kernel needs its block's threads together.
int64_t emuFlags(ModuleOp module, gpu::LaunchFuncOp launch) {
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(module, launch.getKernel());
  if (!kernel) return abi::kGpuEmuBlockSync;  // unknown: the safe choice
  bool sync = !kernel.getWorkgroupAttributions().empty() ||
              kernel.walk([](gpu::BarrierOp) { return WalkResult::interrupt(); }).wasInterrupted();
  return sync ? abi::kGpuEmuBlockSync : 0;
}

struct FHECGPULaunchToRuntimePass : public fhec::impl::FHECGPULaunchToRuntimeBase<FHECGPULaunchToRuntimePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const TargetSpec *spec = getTarget(module);
    if (!spec) return signalPassFailure();
    if (!spec->gpu) {
      module.emitError() << "fhec-gpu-launch-to-runtime: target '" << spec->name << "' is not a GPU target";
      return signalPassFailure();
    }
    const bool emu = spec->emulated;
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp l) { launches.push_back(l); });
    if (launches.empty()) return;

    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    Location loc = module.getLoc();
    Type i64 = b.getI64Type(), i32 = b.getI32Type();
    Type ptr = LLVM::LLVMPointerType::get(ctx);

    // cuda: the PTX text of the kernel module, exported for the runtime.
    gpu::BinaryOp binary;
    if (!emu) {
      binary = module.lookupSymbol<gpu::BinaryOp>(gpurt::kKernelModule);
      auto objects = binary ? binary.getObjects() : ArrayAttr();
      auto object = objects && objects.size() == 1 ? dyn_cast<gpu::ObjectAttr>(objects[0]) : gpu::ObjectAttr();
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly) {
        module.emitError() << "fhec-gpu-launch-to-runtime: expected gpu.binary @" << gpurt::kKernelModule
                           << " with one PTX object (gpu-module-to-binary{format=isa})";
        return signalPassFailure();
      }
      b.setInsertionPointToEnd(module.getBody());
      gpurt::stringGlobal(b, loc, abi::kGpuPtxSymbol, object.getObject().getValue(), LLVM::Linkage::External);
    }
    SmallVector<Type> launchParams = emu ? SmallVector<Type>{ptr} : SmallVector<Type>{ptr, ptr};
    launchParams.append(7, i64);  // grid, block, shared bytes
    launchParams.push_back(ptr);   // slots
    launchParams.push_back(i32);   // cuda: slot count; cuda-emu: flags
    func::FuncOp hook = gpurt::declareHook(b, module, emu ? abi::kGpuEmuLaunchSymbol : abi::kGpuCudaLaunchSymbol,
                                         b.getFunctionType(launchParams, {}));

    llvm::StringMap<std::string> kernelSymbols;  // kernel -> its name string (cuda) or trampoline (cuda-emu)
    for (gpu::LaunchFuncOp launch : launches) {
      if (!launch.getAsyncDependencies().empty() || launch.getAsyncToken() || launch.hasClusterSize()) {
        launch.emitError() << "fhec-gpu-launch-to-runtime: async launches and clusters are not supported";
        return signalPassFailure();
      }
      if (launch.getKernelModuleName() != gpurt::kKernelModule) {
        launch.emitError() << "fhec-gpu-launch-to-runtime: the kernel is not in @" << gpurt::kKernelModule
                           << "; run fhec-gpu-kernel-module first";
        return signalPassFailure();
      }
      StringRef kernel = launch.getKernelName().getValue();
      std::string &symbol = kernelSymbols[kernel];
      if (symbol.empty()) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToEnd(module.getBody());
        if (emu) {
          symbol = emu::trampoline(kernel);
          auto fnT = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr});
          auto decl = LLVM::LLVMFuncOp::create(b, loc, symbol, fnT);
          decl->setAttr(emu::kTrampolineOfAttr, FlatSymbolRefAttr::get(ctx, emu::kernelFunction(kernel)));
        } else {
          symbol = ("__fhec_gpu_name_" + kernel).str();
          gpurt::stringGlobal(b, loc, symbol, kernel, LLVM::Linkage::Internal);
        }
      }

      auto fn = launch->getParentOfType<FunctionOpInterface>();
      Location l = launch.getLoc();
      int64_t numSlots = std::max<int64_t>(1, launch.getKernelOperands().size());
      b.setInsertionPointToStart(&fn.getFunctionBody().front());
      Value slots = memref::AllocaOp::create(b, l, MemRefType::get({numSlots}, i64));
      b.setInsertionPoint(launch);
      for (auto [i, v] : llvm::enumerate(launch.getKernelOperands())) {
        if (memref::GetGlobalOp g = hostGlobal(v)) {
          launch.emitError() << "fhec-gpu-launch-to-runtime: kernel argument #" << i << " is the host's global "
                             << g.getNameAttr() << ", which the GPU cannot read; pass it as a function argument "
                             << "(fhec-abi does so for constants)";
          return signalPassFailure();
        }
        FailureOr<Value> s = slotValue(b, l, v);
        if (failed(s)) {
          launch.emitError() << "fhec-gpu-launch-to-runtime: kernel argument #" << i << " has type " << v.getType()
                             << "; slots hold memrefs, index and integers up to 64 bits";
          return signalPassFailure();
        }
        Value idx = arith::ConstantIndexOp::create(b, l, int64_t(i));
        memref::StoreOp::create(b, l, *s, slots, ValueRange{idx});
      }
      Value slotsAddr = memref::ExtractAlignedPointerAsIndexOp::create(b, l, slots);
      Value slotsInt = arith::IndexCastUIOp::create(b, l, i64, slotsAddr);
      Value slotsPtr = LLVM::IntToPtrOp::create(b, l, ptr, slotsInt);
      auto toI64 = [&](Value v) -> Value {
        return v.getType().isIndex() ? Value(arith::IndexCastUIOp::create(b, l, i64, v))
                                     : Value(arith::ExtUIOp::create(b, l, i64, v));
      };
      SmallVector<Value> args;
      args.push_back(LLVM::AddressOfOp::create(b, l, ptr, symbol));
      if (!emu) args.insert(args.begin(), LLVM::AddressOfOp::create(b, l, ptr, abi::kGpuPtxSymbol));
      gpu::KernelDim3 grid = launch.getGridSizeOperandValues(), block = launch.getBlockSizeOperandValues();
      for (Value v : {grid.x, grid.y, grid.z, block.x, block.y, block.z}) args.push_back(toI64(v));
      Value shared = launch.getDynamicSharedMemorySize();
      args.push_back(shared ? toI64(shared) : Value(arith::ConstantIntOp::create(b, l, i64, 0)));
      args.push_back(slotsPtr);
      int64_t last = emu ? emuFlags(module, launch) : int64_t(launch.getKernelOperands().size());
      args.push_back(arith::ConstantIntOp::create(b, l, i32, last));
      func::CallOp::create(b, l, hook, args);
      launch.erase();
    }
    if (binary) binary.erase();
  }
};

} // namespace
