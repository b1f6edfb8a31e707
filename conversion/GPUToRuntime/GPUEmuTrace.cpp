// fhec-gpu-emu-trace: instruments the cuda-emu kernels for the GPU cost model
// (docs/gpu-model.md). Each memref.load/store reports its byte address, size
// and memory space (global: a kernel argument; shared: a view of the block's
// shared memory; local: an alloca), each basic block its estimated issue
// weight, and each kernel its name, to the runtime's recorder
// (runtime/lib/GpuTrace.cpp), which counts sectors and bank conflicts per warp.
#include "conversion/GPUToRuntime/GpuNames.h"
#include "conversion/Passes.h"

#include "fhec/runtime/Abi.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace fhec {
#define GEN_PASS_DEF_FHECGPUEMUTRACE
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

/// The memory space a memref value lives in, found from its root: a kernel
/// argument (global), a view of fhec_rt_gpu_shared_memory() (shared) or an
/// alloca (local); nullopt for anything else.
std::optional<abi::GpuTraceSpace> spaceOf(Value memref) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(memref))
      return arg.getOwner()->isEntryBlock() ? std::optional(abi::GpuTraceSpace::Global) : std::nullopt;
    Operation *def = memref.getDefiningOp();
    if (isa<memref::AllocaOp>(def)) return abi::GpuTraceSpace::Local;
    if (isa<memref::GetGlobalOp>(def)) return abi::GpuTraceSpace::Global;
    // A batched kernel's pick among its buffers (one space for all, as the
    // batches select among kernel arguments).
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      std::optional<abi::GpuTraceSpace> a = spaceOf(select.getTrueValue()), b = spaceOf(select.getFalseValue());
      return a == b ? a : std::nullopt;
    }
    if (auto call = dyn_cast<func::CallOp>(def))
      return call.getCallee() == abi::kGpuSharedMemorySymbol ? std::optional(abi::GpuTraceSpace::Shared)
                                                              : std::nullopt;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view) return std::nullopt;
    memref = view.getViewSource();
  }
}

bool isI64Like(Type t) { return t.isIndex() || t.isInteger(64); }

bool isZeroExtendedFrom32(Value v) {
  auto ext = v.getDefiningOp<arith::ExtUIOp>();
  return ext && ext.getIn().getType().getIntOrFloatBitWidth() <= 32;
}

/// A 64-bit value is a pair of 32-bit registers: zero-extending a 32-bit
/// word (the zero register for the high half), truncating to one, masking
/// the low 32 bits or shifting by 32 picks or pairs registers and issues
/// nothing.
bool isRegisterPairOp(Operation *op) {
  if (auto ext = dyn_cast<arith::ExtUIOp>(op))
    return ext.getIn().getType().isInteger(32) && isI64Like(ext.getType());
  if (auto trunc = dyn_cast<arith::TruncIOp>(op))
    return isI64Like(trunc.getIn().getType()) && trunc.getType().isInteger(32);
  if (op->getNumResults() != 1 || op->getNumOperands() != 2 || !isI64Like(op->getResult(0).getType())) return false;
  APInt c;
  if (!matchPattern(op->getOperand(1), m_ConstantInt(&c))) return false;
  if (isa<arith::AndIOp>(op)) return c == 0xffffffffULL;
  return isa<arith::ShRUIOp, arith::ShLIOp>(op) && c == 32;
}

bool isMulWide(Value v) {
  auto mul = v.getDefiningOp<arith::MulIOp>();
  return mul && isI64Like(mul.getType()) && isZeroExtendedFrom32(mul.getLhs()) && isZeroExtendedFrom32(mul.getRhs());
}

/// The op's cost in issue slots of 32-bit integer instructions on an sm_90
/// GPU (a 64-bit add is two, a 64x64 multiply three, its high half about
/// eight); constants, the trace hooks and register-pair moves cost nothing.
/// An estimate from NVPTX's usual lowering and sm_90's SASS (IMAD.WIDE.U32
/// with a 64-bit addend), documented in docs/gpu-model.md.
int64_t issueWeight(Operation *op) {
  if (isa<arith::ConstantOp>(op)) return 0;
  // The emulation's own calls (the block's shared memory, the trace hooks) are
  // no GPU instructions; thread and block queries read special registers.
  if (auto call = dyn_cast<func::CallOp>(op))
    return call.getCallee().starts_with("fhec_rt_gpu_trace") || call.getCallee() == abi::kGpuSharedMemorySymbol ? 0
                                                                                                                : 1;
  if (isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, cf::BranchOp, cf::CondBranchOp, func::ReturnOp>(op))
    return 1;
  // A vector load's lanes arrive in registers (ld.global.v2/v4).
  if (isa<vector::ExtractOp>(op)) return 0;
  if (op->getNumResults() == 0 || op->getDialect() != op->getContext()->getLoadedDialect<arith::ArithDialect>())
    return isa<memref::ViewOp, memref::ExtractAlignedPointerAsIndexOp, memref::ExtractStridedMetadataOp,
               memref::SubViewOp, memref::ReinterpretCastOp, memref::AllocaOp>(op)
               ? 0
               : 1;
  Type t = op->getResult(0).getType();
  if (isRegisterPairOp(op)) return 0;
  if (isa<arith::ExtUIOp, arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return 1;
  const bool wide = isI64Like(t) || (isa<arith::CmpIOp>(op) && isI64Like(op->getOperand(0).getType()));
  if (isa<arith::MulIOp>(op)) {
    if (!wide) return 1;
    // mul.wide.u32 where both factors are zero-extended 32-bit words.
    return isMulWide(op->getResult(0)) ? 1 : 3;
  }
  // A 64-bit add of a mul.wide.u32 used once is its 64-bit addend: one
  // IMAD.WIDE.U32 for both.
  if (isa<arith::AddIOp>(op) && wide &&
      llvm::any_of(op->getOperands(), [](Value v) { return isMulWide(v) && v.hasOneUse(); }))
    return 0;
  if (isa<arith::MulUIExtendedOp, arith::MulSIExtendedOp>(op)) return wide ? 8 : 2;
  // The sum and its carry out: NVPTX adds, then compares the sum with an addend.
  if (isa<arith::AddUIExtendedOp>(op)) return wide ? 4 : 2;
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp, arith::CeilDivUIOp, arith::CeilDivSIOp,
          arith::FloorDivSIOp>(op)) {
    APInt c;
    if (matchPattern(op->getOperand(1), m_ConstantInt(&c))) {
      // By a power of two: a shift or a mask. By another constant: a
      // multiply-high and shifts (the remainder a multiply and a subtract more).
      if (c.isPowerOf2()) return wide ? 2 : 1;
      bool rem = isa<arith::RemUIOp, arith::RemSIOp>(op);
      return wide ? (rem ? 15 : 10) : (rem ? 5 : 3);
    }
    return wide ? 60 : 20;
  }
  return wide ? 2 : 1;
}

struct FHECGPUEmuTracePass : public fhec::impl::FHECGPUEmuTraceBase<FHECGPUEmuTracePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    Type i32 = b.getI32Type(), index = b.getIndexType();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    SmallVector<func::FuncOp> kernels;
    const std::string prefix = emu::kernelFunction("");
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn.getName().starts_with(prefix) && !fn.isExternal()) kernels.push_back(fn);
    if (kernels.empty()) return;
    auto hook = [&](StringRef name, TypeRange params) {
      return gpurt::declareHook(b, module, name, b.getFunctionType(params, {}));
    };
    func::FuncOp kernelHook = hook(abi::kGpuTraceKernelSymbol, {ptr});
    func::FuncOp accessHook = hook(abi::kGpuTraceAccessSymbol, {i32, index, i32, i32});
    func::FuncOp opsHook = hook(abi::kGpuTraceOpsSymbol, {i32});

    int32_t site = 0;
    for (func::FuncOp fn : kernels) {
      Location loc = fn.getLoc();
      // Each basic block reports its weight when it ends: the weight of the
      // kernel's own code, not of the address arithmetic added below.
      SmallVector<std::pair<Block *, int64_t>> weights;
      for (Block &block : fn.getBody()) {
        int64_t weight = 0;
        for (Operation &op : block) weight += issueWeight(&op);
        if (weight) weights.push_back({&block, weight});
      }
      StringRef kernel = fn.getName().drop_front(prefix.size());
      // The kernel's name, for the recorder's report.
      std::string global = ("__fhec_trace_name_" + kernel).str();
      b.setInsertionPointToEnd(module.getBody());
      gpurt::stringGlobal(b, loc, global, kernel, LLVM::Linkage::Internal);
      b.setInsertionPointToStart(&fn.getBody().front());
      Value name = LLVM::AddressOfOp::create(b, loc, ptr, global);
      func::CallOp::create(b, loc, kernelHook, ValueRange{name});

      SmallVector<Operation *> accesses;
      fn.walk([&](Operation *op) {
        if (isa<memref::LoadOp, memref::StoreOp, vector::LoadOp>(op)) accesses.push_back(op);
      });
      for (Operation *op : accesses) {
        const bool store = isa<memref::StoreOp>(op);
        Value memref;
        ValueRange indices;
        int64_t lanes = 1;  // a vector load's elements (consecutive in the last index)
        if (auto s = dyn_cast<memref::StoreOp>(op)) {
          memref = s.getMemRef();
          indices = s.getIndices();
        } else if (auto l = dyn_cast<memref::LoadOp>(op)) {
          memref = l.getMemRef();
          indices = l.getIndices();
        } else {
          auto v = cast<vector::LoadOp>(op);
          memref = v.getBase();
          indices = v.getIndices();
          lanes = v.getVectorType().getNumElements();
        }
        std::optional<abi::GpuTraceSpace> space = spaceOf(memref);
        if (!space) {
          op->emitError() << "fhec-gpu-emu-trace: cannot tell the memory space of " << memref
                          << " (expected a kernel argument, a shared-memory view or an alloca)";
          return signalPassFailure();
        }
        auto type = cast<MemRefType>(memref.getType());
        Type elem = type.getElementType();
        int64_t elemBytes = elem.isIndex() ? 8 : std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
        Location l = op->getLoc();
        b.setInsertionPoint(op);
        // The byte address: aligned pointer + (offset + sum of index * stride) * element size.
        Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(b, l, memref);
        auto meta = memref::ExtractStridedMetadataOp::create(b, l, memref);
        Value linear = meta.getOffset();
        for (auto [i, idx] : llvm::enumerate(indices))
          linear = arith::AddIOp::create(b, l, linear, arith::MulIOp::create(b, l, idx, meta.getStrides()[i]));
        Value size = arith::ConstantIndexOp::create(b, l, elemBytes);
        Value addr = arith::AddIOp::create(b, l, aligned, arith::MulIOp::create(b, l, linear, size));
        int32_t kind = int32_t(*space) * 2 + (store ? 1 : 0);
        func::CallOp::create(b, l, accessHook,
                             ValueRange{arith::ConstantIntOp::create(b, l, i32, site++), addr,
                                        arith::ConstantIntOp::create(b, l, i32, elemBytes * lanes),
                                        arith::ConstantIntOp::create(b, l, i32, kind)});
      }
      for (auto [block, weight] : weights) {
        b.setInsertionPoint(block->getTerminator());
        func::CallOp::create(b, loc, opsHook, ValueRange{arith::ConstantIntOp::create(b, loc, i32, weight)});
      }
    }
  }
};

} // namespace
