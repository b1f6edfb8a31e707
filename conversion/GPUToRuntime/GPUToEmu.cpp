// fhec-gpu-to-emu: the kernels of gpu.module @fhec_kernels as host functions
// whose thread/block queries and barriers call the CPU execution's runtime
// (runtime/lib/GpuEmu.cpp).
#include "conversion/GPUToRuntime/GpuNames.h"
#include "conversion/Passes.h"

#include "fhec/runtime/Abi.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace fhec {
#define GEN_PASS_DEF_FHECGPUTOEMU
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

// The workgroup buffers (entry-block arguments numArgs.. of the kernel's body)
// as views of the block's shared memory, 16-byte aligned, one after the other.
LogicalResult placeSharedBuffers(OpBuilder &b, func::FuncOp fn, unsigned numArgs, unsigned numShared,
                                 func::FuncOp sharedMemory) {
  Block &entry = fn.getBody().front();
  b.setInsertionPointToStart(&entry);
  Location loc = fn.getLoc();
  Value base = func::CallOp::create(b, loc, sharedMemory, ValueRange{}).getResult(0);
  int64_t offset = 0;
  for (unsigned i = numArgs; i < numArgs + numShared; ++i) {
    BlockArgument buffer = entry.getArgument(i);
    auto t = cast<MemRefType>(buffer.getType());
    if (!t.hasStaticShape() || !t.getLayout().isIdentity() || !t.getElementType().isIntOrFloat())
      return fn.emitError() << "fhec-gpu-to-emu: workgroup buffer " << t << " is not a static row-major buffer";
    int64_t bytes = t.getNumElements() * int64_t(t.getElementTypeBitWidth() / 8);
    if (offset + bytes > abi::kGpuSharedMemoryBytes)
      return fn.emitError() << "fhec-gpu-to-emu: the kernel's workgroup buffers need more than the "
                            << abi::kGpuSharedMemoryBytes << " bytes of a block's shared memory";
    auto hostT = MemRefType::get(t.getShape(), t.getElementType());
    Value at = arith::ConstantIndexOp::create(b, loc, offset);
    Value view = memref::ViewOp::create(b, loc, hostT, base, at, ValueRange{});
    // Loads and stores take any memref; other users would need the memory space.
    for (Operation *user : buffer.getUsers())
      if (!isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, vector::StoreOp>(user))
        return user->emitError() << "fhec-gpu-to-emu: a workgroup buffer used by '" << user->getName()
                                 << "' (only loads and stores have a CPU execution)";
    buffer.replaceAllUsesWith(view);
    offset += (bytes + 15) / 16 * 16;
  }
  entry.eraseArguments(numArgs, numShared);
  return success();
}

struct FHECGPUToEmuPass : public fhec::impl::FHECGPUToEmuBase<FHECGPUToEmuPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(fhec::gpurt::kKernelModule);
    if (!kernels) return;
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    Type i32 = b.getI32Type(), index = b.getIndexType();

    auto hook = [&](StringRef name, TypeRange params, TypeRange results) {
      return fhec::gpurt::declareHook(b, module, name, b.getFunctionType(params, results));
    };
    func::FuncOp threadId = hook(abi::kGpuThreadIdSymbol, {i32}, {index});
    func::FuncOp blockId = hook(abi::kGpuBlockIdSymbol, {i32}, {index});
    func::FuncOp blockDim = hook(abi::kGpuBlockDimSymbol, {i32}, {index});
    func::FuncOp gridDim = hook(abi::kGpuGridDimSymbol, {i32}, {index});
    func::FuncOp barrier = hook(abi::kGpuBarrierSymbol, {}, {});
    auto sharedT = MemRefType::get({abi::kGpuSharedMemoryBytes}, b.getI8Type());
    func::FuncOp sharedMemory = hook(abi::kGpuSharedMemorySymbol, {}, {sharedT});

    for (auto kernel : llvm::make_early_inc_range(kernels.getOps<gpu::GPUFuncOp>())) {
      if (!kernel.getPrivateAttributions().empty()) {
        kernel.emitError() << "fhec-gpu-to-emu: private memory attributions have no CPU execution";
        return signalPassFailure();
      }
      std::string name = emu::kernelFunction(kernel.getName());
      if (module.lookupSymbol(name)) {
        kernel.emitError() << "fhec-gpu-to-emu: the symbol '" << name << "' is already taken";
        return signalPassFailure();
      }
      b.setInsertionPoint(kernels);
      auto fn = func::FuncOp::create(b, kernel.getLoc(), name, kernel.getFunctionType());
      fn.setPrivate();
      unsigned numArgs = kernel.getNumArguments(), numShared = kernel.getNumWorkgroupAttributions();
      fn.getBody().takeBody(kernel.getBody());
      if (numShared && failed(placeSharedBuffers(b, fn, numArgs, numShared, sharedMemory)))
        return signalPassFailure();

      WalkResult r = fn.walk([&](Operation *op) {
        b.setInsertionPoint(op);
        auto query = [&](func::FuncOp callee, gpu::Dimension dim) {
          Value d = arith::ConstantIntOp::create(b, op->getLoc(), i32, int64_t(dim));
          op->replaceAllUsesWith(func::CallOp::create(b, op->getLoc(), callee, ValueRange{d}));
          op->erase();
        };
        if (auto o = dyn_cast<gpu::ThreadIdOp>(op)) query(threadId, o.getDimension());
        else if (auto o = dyn_cast<gpu::BlockIdOp>(op)) query(blockId, o.getDimension());
        else if (auto o = dyn_cast<gpu::BlockDimOp>(op)) query(blockDim, o.getDimension());
        else if (auto o = dyn_cast<gpu::GridDimOp>(op)) query(gridDim, o.getDimension());
        else if (isa<gpu::BarrierOp>(op)) {
          func::CallOp::create(b, op->getLoc(), barrier, ValueRange{});
          op->erase();
        } else if (isa<gpu::ReturnOp>(op)) {
          func::ReturnOp::create(b, op->getLoc());
          op->erase();
        } else if (op->getDialect() && isa<gpu::GPUDialect>(op->getDialect())) {
          op->emitError() << "fhec-gpu-to-emu: '" << op->getName() << "' has no CPU execution";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (r.wasInterrupted()) return signalPassFailure();
      kernel.erase();
    }
    kernels.erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};

} // namespace
